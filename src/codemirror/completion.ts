import {
  autocompletion,
  type Completion,
  type CompletionContext,
  type CompletionResult,
  insertCompletionText,
} from "@codemirror/autocomplete";
import type { EditorView } from "@codemirror/view";
import { expectArgument, isObject, isOffset } from "../diagnostics/index.js";
import type { CompletionItem, CompletionKind } from "../service/index.js";
import { isState } from "./argument-shapes.js";
import { renderMarkdown } from "./markdown.js";
import { languageService } from "./service.js";

/** CodeMirror's icon for each kind of item. */
const typeOfKind: Record<CompletionKind, string> = {
  field: "property",
  operator: "keyword",
  keyword: "keyword",
  value: "constant",
  punctuation: "text",
};

/** The span the result replaces; an item whose own edit starts or ends elsewhere keeps that distance. */
interface ResultSpan {
  from: number;
  to: number;
}

function toCompletion(item: CompletionItem, span: ResultSpan): Completion {
  const completion: Completion = {
    label: item.filterText,
    displayLabel: item.label,
    detail: item.detail,
    type: typeOfKind[item.kind],
    apply: (view: EditorView, _completion: Completion, from: number, to: number) => {
      const start = from + item.edit.range.start - span.from;
      const end = to + item.edit.range.end - span.to;
      view.dispatch(insertCompletionText(view.state, item.edit.newText, start, end));
    },
  };
  if (item.documentation) {
    const documentation = item.documentation;
    completion.info = () => renderMarkdown(documentation);
  }
  return completion;
}

/** Completion from the language service: fields, the operators their type allows, values, keywords. */
export function filterCompletionSource(context: CompletionContext): CompletionResult | null {
  const isContext = (value: unknown): value is CompletionContext =>
    isObject(value) && isState(value["state"]) && isOffset(value["pos"]);
  expectArgument(
    context,
    isContext,
    "filterCompletionSource",
    "context",
    "a CompletionContext of CodeMirror",
  );
  const service = languageService(context.state);
  const items = service.completions(context.state.doc.toString(), context.pos);
  if (!items.length) return null;
  const sorted = [...items].sort((a, b) => (a.sortText < b.sortText ? -1 : a.sortText > b.sortText ? 1 : 0));
  let from = sorted[0]!.edit.range.start;
  let to = sorted[0]!.edit.range.end;
  // A loop, not Math.min(...items): a catalog of some 150,000 fields would overflow the stack as arguments.
  for (const item of sorted) {
    from = Math.min(from, item.edit.range.start);
    to = Math.max(to, item.edit.range.end);
  }
  if (!context.explicit && from === to && !/[\w!=<>]$/.test(context.state.sliceDoc(from - 1, from)))
    return null;
  // The list is the service's, in its order, as the language server gives it: asked again at every
  // key, not narrowed here. CodeMirror's own fuzzy narrowing of an earlier answer kept what the
  // service leaves out (`EdgeResp` kept EdgeStartTimestamp), depending on how fast one typed.
  return {
    from,
    to,
    options: sorted.map((item) => toCompletion(item, { from, to })),
    filter: false,
  };
}

export const filterCompletion = autocompletion({ override: [filterCompletionSource] });
