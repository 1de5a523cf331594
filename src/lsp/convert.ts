import {
  CompletionItemKind,
  DiagnosticSeverity,
  type CodeAction as LspCodeAction,
  type CompletionItem as LspCompletionItem,
  type Diagnostic as LspDiagnostic,
  type Hover as LspHover,
  type TextEdit as LspTextEdit,
  MarkupKind,
  type Range,
  SemanticTokensBuilder,
} from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { Diagnostic, Range as SourceRange } from "../diagnostics/index.js";
import {
  type CodeAction,
  type CompletionItem,
  type CompletionKind,
  type Hover,
  type OffsetRange,
  type SemanticToken,
  semanticTokenModifiers,
  semanticTokenTypes,
  type TextEdit,
} from "../service/index.js";

/*
 * The service speaks UTF-16 offsets; LSP speaks 0-based lines and UTF-16 characters. The text
 * document does the conversion, so positions agree with the editor's for every line ending.
 */

export function toRange(document: TextDocument, range: OffsetRange): Range {
  return { start: document.positionAt(range.start), end: document.positionAt(range.end) };
}

export function toOffsets(document: TextDocument, range: Range): OffsetRange {
  return { start: document.offsetAt(range.start), end: document.offsetAt(range.end) };
}

const lspSeverities = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  note: DiagnosticSeverity.Information,
} as const;

export function toLspDiagnostic(document: TextDocument, diagnostic: Diagnostic): LspDiagnostic {
  const offsets = (range: SourceRange) => ({ start: range.start.offset, end: range.end.offset });
  const converted: LspDiagnostic = {
    range: toRange(document, offsets(diagnostic.range)),
    severity: lspSeverities[diagnostic.severity],
    code: diagnostic.code,
    source: "filterc",
    message: diagnostic.message,
  };
  if (diagnostic.related)
    converted.relatedInformation = diagnostic.related.map((related) => ({
      location: { uri: document.uri, range: toRange(document, offsets(related.range)) },
      message: related.message,
    }));
  return converted;
}

const completionKinds: Record<CompletionKind, CompletionItemKind> = {
  field: CompletionItemKind.Field,
  operator: CompletionItemKind.Operator,
  keyword: CompletionItemKind.Keyword,
  value: CompletionItemKind.Value,
  punctuation: CompletionItemKind.Text,
};

export function toLspTextEdit(document: TextDocument, edit: TextEdit): LspTextEdit {
  return { range: toRange(document, edit.range), newText: edit.newText };
}

export function toLspCompletion(document: TextDocument, item: CompletionItem): LspCompletionItem {
  const converted: LspCompletionItem = {
    label: item.label,
    kind: completionKinds[item.kind],
    detail: item.detail,
    sortText: item.sortText,
    filterText: item.filterText,
    textEdit: toLspTextEdit(document, item.edit),
  };
  if (item.documentation) converted.documentation = { kind: MarkupKind.Markdown, value: item.documentation };
  return converted;
}

export function toLspHover(document: TextDocument, hover: Hover): LspHover {
  return {
    contents: { kind: MarkupKind.Markdown, value: hover.contents },
    range: toRange(document, hover.range),
  };
}

export function toLspCodeAction(document: TextDocument, action: CodeAction): LspCodeAction {
  return {
    title: action.title,
    kind: action.kind,
    diagnostics: [toLspDiagnostic(document, action.diagnostic)],
    isPreferred: true,
    edit: { changes: { [document.uri]: [toLspTextEdit(document, action.edit)] } },
  };
}

/** Encodes tokens as LSP's relative integers; no filterc token spans lines. */
export function toLspSemanticTokens(document: TextDocument, tokens: readonly SemanticToken[]) {
  const builder = new SemanticTokensBuilder();
  for (const token of tokens) {
    const start = document.positionAt(token.offset);
    const modifiers = token.modifiers.reduce((bits, m) => bits | (1 << semanticTokenModifiers.indexOf(m)), 0);
    builder.push(
      start.line,
      start.character,
      token.length,
      semanticTokenTypes.indexOf(token.type),
      modifiers,
    );
  }
  return builder.build();
}
