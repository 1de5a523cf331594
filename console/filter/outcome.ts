import type { EditorView } from "@codemirror/view";
import { diagnosticItem } from "../../playground/output.js";
import type { CompileResult } from "../../src/compile.js";
import { explain } from "../../src/print/index.js";

/** Where a view shows what its filter compiles to. */
export interface OutcomePlaces {
  /** The badge: valid, empty, or the count of errors. */
  status: HTMLElement;
  /** The filter in words (as `filterc explain` says it) and its JSON. */
  words: HTMLElement;
  json: HTMLElement;
  diagnostics: HTMLUListElement;
}

/** The filter in words, or why there are none: its errors. */
export function filterWords(result: CompileResult): string {
  return result.ok || result.filter === null ? explain(result.normal, result.stats) : "the filter has errors";
}

/**
 * What a view's Filter section compiles to, drawn into its own places (the Connect a service view
 * has its own, with the gauges): the badge, the words, the JSON and every diagnostic, each with its
 * place in the text and its fix.
 */
export function showOutcome(places: OutcomePlaces): (view: EditorView, result: CompileResult) => void {
  return (view, result) => {
    const errors = result.diagnostics.filter((d) => d.severity === "error").length;
    places.status.className = `status ${errors ? "invalid" : "valid"}`;
    places.status.textContent = errors
      ? `${errors} error${errors === 1 ? "" : "s"}`
      : result.filter === null
        ? "empty filter"
        : "valid";
    places.words.textContent = filterWords(result);
    places.json.textContent = result.filter ?? "no filter";
    places.diagnostics.replaceChildren(...result.diagnostics.map((d) => diagnosticItem(view, d)));
    if (result.diagnostics.length === 0) {
      const none = document.createElement("li");
      none.className = "none";
      none.textContent = "No problems.";
      places.diagnostics.append(none);
    }
  };
}
