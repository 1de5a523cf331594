import type { Diagnostic as LspDiagnostic } from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { DiagnosticSettings } from "../diagnostics/index.js";
import { checkTerraform } from "../terraform/index.js";
import { toLspDiagnostic } from "./convert.js";
import { localPath } from "./document-path.js";

/** Language ids editors give Terraform documents; a URI ending in `.tf` or `.tfvars` counts too. */
export const TERRAFORM_LANGUAGE_IDS: readonly string[] = ["terraform", "terraform-vars"];

export function isTerraformDocument(document: TextDocument): boolean {
  return TERRAFORM_LANGUAGE_IDS.includes(document.languageId) || /\.tf(vars)?$/i.test(document.uri);
}

/**
 * The diagnostics `filterc check` reports in a Terraform document, read as the editor holds it
 * (the rest of its module from disk). A document that is no local file has none: its module
 * is unknown. `diagnostics` gives the levels in a file (the client's settings under its folder's
 * filterc.json), as for filter documents.
 */
export async function terraformDiagnostics(
  document: TextDocument,
  diagnostics: (path: string) => Promise<DiagnosticSettings | undefined>,
): Promise<LspDiagnostic[]> {
  const path = localPath(document.uri);
  if (path === undefined) return [];
  const texts = new Map([[path, document.getText()]]);
  const files = await checkTerraform([path], "/", { texts, diagnostics });
  return files
    .filter((file) => file.file.path === path)
    .flatMap((file) => file.diagnostics.map((diagnostic) => toLspDiagnostic(document, diagnostic)));
}
