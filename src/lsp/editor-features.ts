import {
  type Connection,
  FoldingRangeKind,
  type DocumentLink as LspDocumentLink,
  type DocumentSymbol as LspDocumentSymbol,
  type FoldingRange as LspFoldingRange,
  type InlayHint as LspInlayHint,
  type SelectionRange,
  type ServerCapabilities,
  SymbolKind,
} from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { DocumentSymbolKind, LanguageService, OffsetRange } from "../service/index.js";
import { toOffsets } from "./convert.js";
import { SHOW_KEPT_SAMPLES_COMMAND } from "./protocol.js";
import { keptSamples, type Samples } from "./sample-lens.js";

/*
 * The editor features of the language service that need nothing of the server but the document
 * and its service: the outline, folding, selection ranges, inlay hints, links to the field
 * documentation, and the evaluation lens's command. Each answers for filter documents only:
 * a Terraform document keeps its own extension's outline, folding and the rest.
 */

/** The capabilities the features here add to the server's. */
export const EDITOR_FEATURE_CAPABILITIES: ServerCapabilities = {
  documentSymbolProvider: { label: "filterc" },
  foldingRangeProvider: true,
  selectionRangeProvider: true,
  inlayHintProvider: { resolveProvider: false },
  documentLinkProvider: { resolveProvider: false },
  executeCommandProvider: { commands: [SHOW_KEPT_SAMPLES_COMMAND] },
};

/** What the features need of the server: a filter document's service, and its samples. */
export interface FeatureContext {
  serviceOf(uri: string): Promise<{ document: TextDocument; service: LanguageService } | undefined>;
  samplesFor(uri: string): Promise<Samples | undefined>;
}

const symbolKinds: Record<DocumentSymbolKind, SymbolKind> = {
  dataset: SymbolKind.Module,
  group: SymbolKind.Operator,
  negation: SymbolKind.Operator,
  comparison: SymbolKind.Field,
};

export function registerEditorFeatures(connection: Connection, context: FeatureContext): void {
  const range = (document: TextDocument, span: OffsetRange) => ({
    start: document.positionAt(span.start),
    end: document.positionAt(span.end),
  });

  connection.onDocumentSymbol(async (params) => {
    const found = await context.serviceOf(params.textDocument.uri);
    if (!found) return null;
    const { document, service } = found;
    const convert = (symbol: ReturnType<LanguageService["documentSymbols"]>[number]): LspDocumentSymbol => ({
      name: symbol.name,
      ...(symbol.detail && { detail: symbol.detail }),
      kind: symbolKinds[symbol.kind],
      range: range(document, symbol.range),
      selectionRange: range(document, symbol.selectionRange),
      children: symbol.children.map(convert),
    });
    return service.documentSymbols(document.getText()).map(convert);
  });

  connection.onFoldingRanges(async (params) => {
    const found = await context.serviceOf(params.textDocument.uri);
    if (!found) return null;
    const { document, service } = found;
    return service.foldingRanges(document.getText()).map(
      (fold): LspFoldingRange => ({
        startLine: document.positionAt(fold.start).line,
        endLine: document.positionAt(fold.end).line,
        ...(fold.kind && { kind: FoldingRangeKind.Comment }),
      }),
    );
  });

  connection.onSelectionRanges(async (params) => {
    const found = await context.serviceOf(params.textDocument.uri);
    if (!found) return null;
    const { document, service } = found;
    const offsets = params.positions.map((position) => document.offsetAt(position));
    return service
      .selectionRanges(document.getText(), offsets)
      .map(
        (spans) =>
          spans.reduceRight<SelectionRange | undefined>(
            (parent, span) => ({ range: range(document, span), ...(parent && { parent }) }),
            undefined,
          )!,
      );
  });

  connection.languages.inlayHint.on(async (params) => {
    const found = await context.serviceOf(params.textDocument.uri);
    if (!found) return null;
    const { document, service } = found;
    return service.inlayHints(document.getText(), toOffsets(document, params.range)).map(
      (hint): LspInlayHint => ({
        position: document.positionAt(hint.offset),
        label: hint.label,
        tooltip: { kind: "markdown", value: hint.tooltip },
        paddingLeft: true,
      }),
    );
  });

  connection.onDocumentLinks(async (params) => {
    const found = await context.serviceOf(params.textDocument.uri);
    if (!found) return null;
    const { document, service } = found;
    return service.documentLinks(document.getText()).map(
      (link): LspDocumentLink => ({
        range: range(document, link.range),
        target: link.target,
        tooltip: link.tooltip,
      }),
    );
  });

  connection.onExecuteCommand(async (params, token) => {
    const uri = params.arguments?.[0];
    if (params.command !== SHOW_KEPT_SAMPLES_COMMAND || typeof uri !== "string") return null;
    const found = await context.serviceOf(uri);
    if (!found) return null;
    return keptSamples(found.document, found.service, await context.samplesFor(uri), token);
  });
}
