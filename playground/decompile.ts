import type { EditorView } from "@codemirror/view";
import { decompile } from "../src/decompile/index.js";
import { element } from "./dom.js";

/**
 * Reads the pasted JSON (a filter, a job, or the escaped string a job stores) back into the
 * language; "Open in editor" replaces the editor's text with it.
 */
export function setUpDecompilePane(view: EditorView, dataset: () => string): () => void {
  const input = element<HTMLTextAreaElement>("decompile-input");
  const output = element("decompile-output");
  const problems = element("decompile-diagnostics");
  const open = element<HTMLButtonElement>("decompile-open");
  let source: string | null = null;

  const render = () => {
    const result = input.value.trim() ? decompile(input.value, { dataset: dataset() }) : null;
    source = result?.source ?? null;
    output.textContent = source === "" ? "(no filter)" : (source ?? "");
    open.disabled = source === null;
    problems.replaceChildren(
      ...(result?.diagnostics ?? []).map((diagnostic) => {
        const item = document.createElement("li");
        item.className = diagnostic.severity;
        item.dataset["code"] = diagnostic.code;
        const { line, column } = diagnostic.range.start;
        item.textContent = `${diagnostic.code} ${line}:${column} ${diagnostic.message}`;
        return item;
      }),
    );
  };

  input.addEventListener("input", render);
  open.addEventListener("click", () => {
    if (source === null) return;
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: source } });
    view.focus();
  });
  return render;
}
