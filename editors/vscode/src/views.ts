import * as vscode from "vscode";
import type { CompileAnswer, KeptSamples } from "../../../src/lsp/protocol.js";

/*
 * What a filter compiles to, shown in read-only documents of the extension's own scheme, that
 * follow the filter as it is edited: its Logpush JSON, its explanation, and the sample lines it
 * keeps (the evaluation lens). Nothing is saved or asked to be: closing one just closes it, and
 * showing one again shows the same document.
 */

export const VIEW_SCHEME = "filterc-view";

/** What a view shows, and the name its document ends in (which gives its language). */
export const VIEWS = {
  json: { file: "logpush.json", label: "Logpush JSON" },
  explain: { file: "explained.txt", label: "explained" },
  kept: { file: "kept-samples.txt", label: "kept sample lines" },
} as const;

export type ViewKind = keyof typeof VIEWS;

/** What the views ask of the language server, for the filter document at `uri`. */
export interface ViewSource {
  compile(uri: string): Promise<CompileAnswer | null>;
  keptSamples(uri: string): Promise<KeptSamples | null>;
}

/** The view of `kind` of the filter document `source`: `filterc-view:/errors.lpf/logpush.json?<source>`. */
export function viewUri(kind: ViewKind, source: vscode.Uri): vscode.Uri {
  const name = source.path.split("/").pop() || "filter";
  return vscode.Uri.from({
    scheme: VIEW_SCHEME,
    path: `/${name}/${VIEWS[kind].file}`,
    query: source.toString(),
  });
}

function kindOf(view: vscode.Uri): ViewKind | undefined {
  const file = view.path.split("/").pop();
  return (Object.keys(VIEWS) as ViewKind[]).find((kind) => VIEWS[kind].file === file);
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

/** The text of a view, from the server's answer for its source. */
export async function viewText(kind: ViewKind, source: string, server: ViewSource): Promise<string> {
  if (kind === "kept") {
    const kept = await server.keptSamples(source);
    if (!kept) return 'No sample logs: name them in filterc.json ("samples": "logs/*.ndjson").\n';
    const more = kept.more > 0 ? `… and ${plural(kept.more, "more kept line")}\n` : "";
    return `# ${kept.title}\n${kept.lines.map((line) => `${line.text}\n`).join("")}${more}`;
  }
  const answer = await server.compile(source);
  if (!answer) return "The filter file is closed.\n";
  if (!answer.ok) return `The filter has ${plural(answer.errors, "error")}; see the Problems panel.\n`;
  if (kind === "explain") return answer.explanation ?? "";
  return answer.filter === null ? "No filter: every log line is pushed.\n" : `${answer.filter}\n`;
}

/** The content provider of the views, and the means to tell their documents that a source changed. */
export class FilterViews implements vscode.TextDocumentContentProvider {
  private readonly changes = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changes.event;
  /** The views shown, as strings of their URIs. */
  private readonly shown = new Set<string>();

  constructor(private readonly server: ViewSource) {}

  provideTextDocumentContent(view: vscode.Uri): Promise<string> {
    const kind = kindOf(view);
    if (!kind) return Promise.resolve("");
    return viewText(kind, view.query, this.server);
  }

  /** Opens the view beside the editor (once per view: showing it again shows the same document). */
  async show(kind: ViewKind, source: vscode.Uri): Promise<void> {
    const uri = viewUri(kind, source);
    if (this.shown.has(uri.toString())) this.changes.fire(uri);
    this.shown.add(uri.toString());
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document, {
      viewColumn: vscode.ViewColumn.Beside,
      preview: true,
      preserveFocus: true,
    });
  }

  /** The filter at `source` changed (or its settings did): its views ask for their text again. */
  sourceChanged(source: string): void {
    for (const view of this.shown) {
      const uri = vscode.Uri.parse(view);
      if (uri.query === source) this.changes.fire(uri);
    }
  }

  /** A view's document was closed: it is no longer followed. */
  closed(document: vscode.TextDocument): void {
    this.shown.delete(document.uri.toString());
  }

  dispose(): void {
    this.changes.dispose();
  }
}
