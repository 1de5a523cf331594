/**
 * `filterc check --format github`: one GitHub Actions workflow command per diagnostic
 * (`::error file=…,line=…,col=…,title=E0202::message`), which the runner turns into an annotation
 * on the line of the pull request's diff. Values are escaped as the Actions toolkit escapes them
 * (`escapeProperty`, `escapeData`), so a path or message holding `:`, `,`, `%` or a line break reads
 * back as it is; characters no terminal should get raw are shown as code points first.
 */
import { type Diagnostic, type Severity, terminalText } from "../diagnostics/index.js";
import type { ReportedFile } from "./sarif.js";

const commands: Record<Severity, string> = { error: "error", warning: "warning", note: "notice" };

/** The toolkit's escaping of a command's message. */
export const escapeData = (text: string) =>
  text.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");

/** The toolkit's escaping of a property's value (`,` separates properties, `::` ends them). */
export const escapeProperty = (text: string) =>
  escapeData(text).replaceAll(":", "%3A").replaceAll(",", "%2C");

function annotation(file: string, d: Diagnostic): string {
  const { start, end } = d.range;
  const properties: [string, string | number][] = [
    ["file", file],
    ["line", start.line],
    ["endLine", end.line],
    ["col", start.column],
    ["endColumn", end.column],
    ["title", d.code],
  ];
  const fix = d.suggestion ? ` (fix: ${d.suggestion.message})` : "";
  const shown = properties.map(([key, value]) => `${key}=${escapeProperty(terminalText(String(value)))}`);
  return `::${commands[d.severity]} ${shown.join(",")}::${escapeData(terminalText(d.message + fix))}\n`;
}

/** The workflow commands of the files' diagnostics, one line each. */
export function githubAnnotations(files: readonly ReportedFile[]): string {
  return files.flatMap((file) => file.diagnostics.map((d) => annotation(file.name, d))).join("");
}
