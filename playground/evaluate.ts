import { type CompileOptions, check, compileLineFilter, LineVerdict } from "../src/index.js";
import { element } from "./dom.js";

type LineOutcome = { line: number; text: string } & (
  | { kind: "match" | "miss"; untimed: string[] }
  | { kind: "invalid"; reason: string }
);

function outcomes(source: string, options: CompileOptions, ndjson: string): LineOutcome[] | string {
  const { normal, diagnostics } = check(source, options);
  if (diagnostics.some((d) => d.severity === "error")) return "Fix the filter's errors to run it.";
  // eval's line filter: numbers kept exact (nanosecond timestamps pass 2^53), timestamps read as times.
  let untimed: string[] = [];
  const verdict = compileLineFilter(normal, { onUnreadableTime: (field) => untimed.push(field) });
  const results: LineOutcome[] = [];
  ndjson.split(/\r?\n/).forEach((text, index) => {
    if (!text.trim()) return;
    const line = index + 1;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      results.push({ line, text, kind: "invalid", reason: (error as Error).message });
      return;
    }
    if (record === null || typeof record !== "object" || Array.isArray(record)) {
      results.push({ line, text, kind: "invalid", reason: "not a JSON object" });
      return;
    }
    untimed = [];
    const kind = verdict(text) === LineVerdict.match ? "match" : "miss";
    results.push({ line, text, kind, untimed });
  });
  return results;
}

/** Runs the editor's filter over the pasted NDJSON lines and marks which of them it keeps. */
export function renderEvaluation(source: string, options: CompileOptions): void {
  const list = element("evaluate-results");
  const summary = element("evaluate-summary");
  const ndjson = element<HTMLTextAreaElement>("evaluate-input").value;
  const result = outcomes(source, options, ndjson);
  if (typeof result === "string") {
    const note = document.createElement("li");
    note.className = "note";
    note.textContent = result;
    list.replaceChildren(note);
    summary.textContent = "";
    return;
  }
  list.replaceChildren(
    ...result.map((outcome) => {
      const item = document.createElement("li");
      item.className = `outcome ${outcome.kind}`;
      item.dataset["line"] = String(outcome.line);
      const badge = document.createElement("span");
      badge.className = "verdict";
      badge.textContent =
        outcome.kind === "match" ? "match" : outcome.kind === "miss" ? "no match" : "invalid";
      const text = document.createElement("code");
      text.textContent =
        outcome.kind === "invalid"
          ? `${outcome.text} — ${outcome.reason}`
          : outcome.untimed.length > 0
            ? `${outcome.text} — not a time, compared as missing: ${outcome.untimed.join(", ")}`
            : outcome.text;
      item.append(badge, text);
      return item;
    }),
  );
  const matches = result.filter((o) => o.kind === "match").length;
  summary.textContent = result.length ? `${matches} of ${result.length} match` : "";
}
