import { RangeSetBuilder } from "@codemirror/state";
import {
  Decoration,
  type DecorationSet,
  type EditorView,
  ViewPlugin,
  type ViewUpdate,
} from "@codemirror/view";
import { scan } from "../syntax/lexer.js";
import { canonicalOfToken } from "../syntax/tokens.js";

/** The class of each token kind that is not an operator; operators are found by their canonical form. */
const classOfToken: Record<string, string> = {
  Identifier: "cm-lpf-field",
  And: "cm-lpf-logic",
  Or: "cm-lpf-logic",
  Not: "cm-lpf-logic",
  AmpAmp: "cm-lpf-logic",
  PipePipe: "cm-lpf-logic",
  Bang: "cm-lpf-logic",
  True: "cm-lpf-bool",
  False: "cm-lpf-bool",
  DoubleQuoted: "cm-lpf-string",
  SingleQuoted: "cm-lpf-string",
  UnterminatedString: "cm-lpf-string",
  Integer: "cm-lpf-number",
  Decimal: "cm-lpf-number",
  LParen: "cm-lpf-punctuation",
  RParen: "cm-lpf-punctuation",
  LBracket: "cm-lpf-punctuation",
  RBracket: "cm-lpf-punctuation",
  Comma: "cm-lpf-punctuation",
};

const marks = new Map<string, Decoration>();
function mark(className: string): Decoration {
  let decoration = marks.get(className);
  if (!decoration) {
    decoration = Decoration.mark({ class: className });
    marks.set(className, decoration);
  }
  return decoration;
}

/** Decorations from the compiler's own scanner, so the colours never disagree with the parser. */
function tokenDecorations(source: string): DecorationSet {
  const scanned = scan(source);
  const spans: { from: number; to: number; className: string }[] = [];
  for (const token of scanned.tokens) {
    const name = token.tokenType.name;
    const className = name in canonicalOfToken ? "cm-lpf-operator" : classOfToken[name];
    if (className)
      spans.push({ from: token.startOffset, to: token.startOffset + token.image.length, className });
  }
  for (const comment of scanned.comments)
    spans.push({
      from: comment.startOffset,
      to: comment.startOffset + comment.image.length,
      className: "cm-lpf-comment",
    });
  for (const error of scanned.errors)
    spans.push({ from: error.offset, to: error.offset + error.length, className: "cm-lpf-invalid" });
  spans.sort((a, b) => a.from - b.from);
  const builder = new RangeSetBuilder<Decoration>();
  for (const span of spans) if (span.to > span.from) builder.add(span.from, span.to, mark(span.className));
  return builder.finish();
}

/** Token colouring: fields, operators, logic words, literals, comments and characters no token starts with. */
export const filterHighlighting = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = tokenDecorations(view.state.doc.toString());
    }
    update(update: ViewUpdate) {
      if (update.docChanged) this.decorations = tokenDecorations(update.state.doc.toString());
    }
  },
  { decorations: (plugin) => plugin.decorations },
);
