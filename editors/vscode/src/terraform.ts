import * as vscode from "vscode";
import {
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
} from "vscode-languageclient/node";

/*
 * Terraform documents go to the language server for their diagnostics alone: the filters and
 * custom-field rules in them, as `filterc check` reports them. They are not in the client's
 * document selector, so that the client registers no formatting, hover, completion, colours or
 * outline for them, which would stand beside (or in the way of) HashiCorp's extension there; the
 * extension sends their text itself, and the client shows the diagnostics the server publishes.
 */

/** The language ids of Terraform's files, as HashiCorp's extension (and this one) name them. */
export const TERRAFORM_LANGUAGES = ["terraform", "terraform-vars"];

/** What the sync needs of a language client: to send a notification. */
export interface Notifier {
  sendNotification(type: unknown, params: unknown): Promise<void>;
}

const isTerraform = (document: vscode.TextDocument) =>
  TERRAFORM_LANGUAGES.includes(document.languageId) && document.uri.scheme === "file";

/** Keeps the server's copy of each Terraform file open in the editor, whole text at each change. */
export class TerraformSync implements vscode.Disposable {
  private readonly subscriptions: vscode.Disposable[];
  private readonly opened = new Set<string>();

  constructor(private client: () => Notifier) {
    this.subscriptions = [
      vscode.workspace.onDidOpenTextDocument((document) => void this.open(document)),
      vscode.workspace.onDidChangeTextDocument((change) => void this.change(change.document)),
      vscode.workspace.onDidCloseTextDocument((document) => void this.close(document)),
    ];
  }

  /** Sends every open Terraform document: at start, and to a server started again. */
  async openAll(): Promise<void> {
    this.opened.clear();
    for (const document of vscode.workspace.textDocuments) await this.open(document);
  }

  private async open(document: vscode.TextDocument): Promise<void> {
    if (!isTerraform(document)) return;
    this.opened.add(document.uri.toString());
    await this.client().sendNotification(DidOpenTextDocumentNotification.type, {
      textDocument: {
        uri: document.uri.toString(),
        languageId: document.languageId,
        version: document.version,
        text: document.getText(),
      },
    });
  }

  private async change(document: vscode.TextDocument): Promise<void> {
    if (!this.opened.has(document.uri.toString())) return;
    await this.client().sendNotification(DidChangeTextDocumentNotification.type, {
      textDocument: { uri: document.uri.toString(), version: document.version },
      contentChanges: [{ text: document.getText() }],
    });
  }

  private async close(document: vscode.TextDocument): Promise<void> {
    if (!this.opened.delete(document.uri.toString())) return;
    await this.client().sendNotification(DidCloseTextDocumentNotification.type, {
      textDocument: { uri: document.uri.toString() },
    });
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
