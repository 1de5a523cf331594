import { RangeSetBuilder } from "@codemirror/state";
import {
  Decoration,
  type DecorationSet,
  type EditorView,
  ViewPlugin,
  type ViewUpdate,
} from "@codemirror/view";
import type { HighlightKind } from "../service/index.js";
import { languageService } from "./service.js";

const marks = new Map<HighlightKind, Decoration>();
function mark(kind: HighlightKind): Decoration {
  let decoration = marks.get(kind);
  if (!decoration) {
    decoration = Decoration.mark({ class: `cm-lpf-${kind}` });
    marks.set(kind, decoration);
  }
  return decoration;
}

/** Decorations from the language service's highlights, so the colours never disagree with the parser or the LSP. */
function tokenDecorations(view: EditorView): DecorationSet {
  const builder = new RangeSetBuilder<Decoration>();
  for (const span of languageService(view.state).highlights(view.state.doc.toString()))
    if (span.length > 0) builder.add(span.offset, span.offset + span.length, mark(span.kind));
  return builder.finish();
}

/** Token colouring: fields, operators, logic words, literals, comments and characters no token starts with. */
export const filterHighlighting = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = tokenDecorations(view);
    }
    update(update: ViewUpdate) {
      if (update.docChanged) this.decorations = tokenDecorations(update.view);
    }
  },
  { decorations: (plugin) => plugin.decorations },
);
