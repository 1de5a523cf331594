import type { EditorView } from "@codemirror/view";
import { toJsonStringLiteral } from "../src/emit/index.js";
import type { CompileResult, Diagnostic } from "../src/index.js";
import { element } from "./dom.js";

/** Fills a gauge: the figure against its limit, amber from 80 %, red past the limit. */
function renderGauge(id: string, used: number, limit: number): void {
  const gauge = element(id);
  gauge.querySelector(".gauge-value")!.textContent = `${used} / ${limit}`;
  const fill = gauge.querySelector<HTMLElement>(".gauge-fill")!;
  fill.style.width = `${Math.min(100, limit > 0 ? (used / limit) * 100 : 100)}%`;
  gauge.classList.toggle("near", used <= limit && used >= limit * 0.8);
  gauge.classList.toggle("over", used > limit);
}

function renderStatus(result: CompileResult): void {
  const status = element("status");
  const errors = result.diagnostics.filter((d) => d.severity === "error").length;
  status.className = `status ${errors ? "invalid" : "valid"}`;
  status.textContent = errors
    ? `${errors} error${errors === 1 ? "" : "s"}`
    : result.filter === null
      ? "empty filter"
      : "valid";
}

function applyFix(view: EditorView, diagnostic: Diagnostic): void {
  const fix = diagnostic.suggestion!;
  view.dispatch({
    changes: { from: fix.range.start.offset, to: fix.range.end.offset, insert: fix.replacement },
    userEvent: "input.fix",
  });
  view.focus();
}

/** One diagnostic as the list shows it: its code, place and message, a click to show it in the editor, its fix. */
export function diagnosticItem(view: EditorView, diagnostic: Diagnostic): HTMLLIElement {
  const item = document.createElement("li");
  item.className = `diagnostic ${diagnostic.severity}`;
  item.dataset["code"] = diagnostic.code;
  const { start, end } = diagnostic.range;
  item.innerHTML = `<span class="badge"></span><span class="where"></span><span class="message"></span>`;
  item.querySelector(".badge")!.textContent = diagnostic.code;
  item.querySelector(".where")!.textContent = `${start.line}:${start.column}`;
  item.querySelector(".message")!.textContent = diagnostic.message;
  item.title = "Show in the editor";
  item.addEventListener("click", () => {
    view.dispatch({ selection: { anchor: start.offset, head: end.offset }, scrollIntoView: true });
    view.focus();
  });
  if (diagnostic.suggestion) {
    const fix = document.createElement("button");
    fix.type = "button";
    fix.className = "fix";
    fix.textContent = diagnostic.suggestion.message;
    fix.addEventListener("click", (event) => {
      event.stopPropagation();
      applyFix(view, diagnostic);
    });
    item.append(fix);
  }
  return item;
}

/** Shows what the editor's filter compiles to: the JSON both ways, the gauges and the diagnostics. */
export function renderResult(view: EditorView, result: CompileResult): void {
  element("json-compact").textContent = result.filter ?? "";
  element("json-escaped").textContent = result.filter === null ? "" : toJsonStringLiteral(result.filter);
  renderGauge("gauge-operators", result.stats.operators, result.stats.maxOperators);
  renderGauge("gauge-bytes", result.stats.bytes, result.stats.maxBytes);
  renderStatus(result);
  const list = element("diagnostics");
  list.replaceChildren(...result.diagnostics.map((d) => diagnosticItem(view, d)));
  if (!result.diagnostics.length) {
    const none = document.createElement("li");
    none.className = "none";
    none.textContent = "No problems.";
    list.append(none);
  }
  element("diagnostic-count").textContent = result.diagnostics.length
    ? String(result.diagnostics.length)
    : "";
}
