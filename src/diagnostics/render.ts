import type { Diagnostic } from "./diagnostic.js";
import { LineIndex } from "./range.js";

export interface RenderOptions {
  /** Shown after `-->`; "<stdin>" when reading standard input. */
  fileName?: string;
  /** ANSI colours (the CLI turns them on for terminals without NO_COLOR). */
  color?: boolean;
}

const ansi = { red: "\x1b[31m", yellow: "\x1b[33m", blue: "\x1b[34m", bold: "\x1b[1m", reset: "\x1b[0m" };

/**
 * Renders one diagnostic like rustc: the header, the place, the source line with carets under
 * the range (first line only for multi-line ranges) and the suggested fix.
 */
export function renderDiagnostic(
  diagnostic: Diagnostic,
  source: string,
  options: RenderOptions = {},
  lines = new LineIndex(source),
): string {
  const paint = (code: string, text: string) => (options.color ? `${code}${text}${ansi.reset}` : text);
  const { start, end } = diagnostic.range;
  const severityColor = diagnostic.severity === "error" ? ansi.red : ansi.yellow;
  const gutter = String(start.line).length;
  const bar = paint(ansi.blue, `${" ".repeat(gutter)} |`);
  const out: string[] = [];
  out.push(
    `${paint(ansi.bold + severityColor, `${diagnostic.severity}[${diagnostic.code}]`)}${paint(ansi.bold, `: ${diagnostic.message}`)}`,
  );
  out.push(
    `${" ".repeat(gutter)}${paint(ansi.blue, "-->")} ${options.fileName ?? "<input>"}:${start.line}:${start.column}`,
  );
  if (source.length > 0 || start.line === 1) {
    const text = lines.lineText(start.line);
    const shown = text.length > 200 ? text.slice(0, 200) : text;
    const caretStart = Math.min(start.column - 1, shown.length);
    const caretEnd = end.line === start.line ? Math.min(end.column - 1, shown.length) : shown.length;
    const carets = "^".repeat(Math.max(1, caretEnd - caretStart));
    out.push(bar);
    out.push(`${paint(ansi.blue, `${start.line} |`)} ${shown.replace(/\t/g, " ")}`);
    out.push(`${bar} ${" ".repeat(caretStart)}${paint(severityColor, carets)}`);
  }
  if (diagnostic.suggestion) {
    const replacement = diagnostic.suggestion.replacement;
    const help =
      replacement === "" ? diagnostic.suggestion.message : `${diagnostic.suggestion.message}: ${replacement}`;
    out.push(`${" ".repeat(gutter)} ${paint(ansi.blue, "=")} ${paint(ansi.bold, "help")}: ${help}`);
  }
  return out.join("\n");
}

export function renderDiagnostics(
  diagnostics: readonly Diagnostic[],
  source: string,
  options: RenderOptions = {},
): string {
  const lines = new LineIndex(source);
  return diagnostics.map((d) => `${renderDiagnostic(d, source, options, lines)}\n`).join("\n");
}
