import type { Diagnostic } from "./diagnostic.js";
import { type Cell, layOutLine } from "./line-layout.js";
import { LineIndex, type Range } from "./range.js";
import { terminalName, terminalText } from "./terminal-text.js";

interface RenderOptions {
  /** Shown after `-->`; "<stdin>" when reading standard input. */
  fileName?: string;
  /** ANSI colours (the CLI turns them on for terminals without NO_COLOR). */
  color?: boolean;
}

const ansi = {
  red: "\x1b[31m",
  yellow: "\x1b[33m",
  blue: "\x1b[34m",
  cyan: "\x1b[36m",
  bold: "\x1b[1m",
  reset: "\x1b[0m",
};

const severityColors = { error: ansi.red, warning: ansi.yellow, note: ansi.cyan } as const;

/** The widest excerpt of a source line, in terminal columns; longer lines show a window around the range. */
const EXCERPT_WIDTH = 100;
/** How much of the line before the range a window keeps, in columns. */
const EXCERPT_CONTEXT = 30;
const ELLIPSIS = "…";

/**
 * Renders one diagnostic like rustc: the header, the place, the source line with carets under
 * the range (first line only for multi-line ranges) and the suggested fix. Everything from the
 * source or the diagnostic is made safe for a terminal (see terminal-text.ts). Never throws: a
 * range outside the source is clamped into it.
 */
function renderDiagnostic(
  diagnostic: Diagnostic,
  source: string,
  options: RenderOptions = {},
  lines = new LineIndex(source),
): string {
  const paint = (code: string, text: string) => (options.color ? `${code}${text}${ansi.reset}` : text);
  const severityColor = severityColors[diagnostic.severity];
  const related = diagnostic.related ?? [];
  const lineOf = (range: Range) => lines.positionAt(clampOffset(range.start.offset, source)).line;
  const gutter = String(Math.max(lineOf(diagnostic.range), ...related.map((r) => lineOf(r.range)))).length;
  const out: string[] = [];
  out.push(
    `${paint(ansi.bold + severityColor, `${diagnostic.severity}[${diagnostic.code}]`)}${paint(ansi.bold, `: ${terminalName(diagnostic.message)}`)}`,
  );
  /** The place, the source line and a mark under the range: carets for the diagnostic, dashes for a related place. */
  const excerpt = (range: Range, mark: string, color: string) => {
    const startOffset = clampOffset(range.start.offset, source);
    const start = lines.positionAt(startOffset);
    const end = lines.positionAt(Math.max(startOffset, clampOffset(range.end.offset, source)));
    const bar = paint(ansi.blue, `${" ".repeat(gutter)} |`);
    out.push(
      `${" ".repeat(gutter)}${paint(ansi.blue, "-->")} ${terminalName(options.fileName ?? "<input>")}:${start.line}:${start.column}`,
    );
    const text = lines.lineText(start.line);
    const from = Math.min(start.column - 1, text.length);
    const to = end.line === start.line ? Math.min(Math.max(end.column - 1, from), text.length) : text.length;
    const shown = excerptOf(layOutLine(text), from, to);
    out.push(bar);
    out.push(`${paint(ansi.blue, `${String(start.line).padStart(gutter)} |`)} ${shown.text}`);
    out.push(`${bar} ${" ".repeat(shown.caretColumn)}${paint(color, mark.repeat(shown.caretWidth))}`);
  };
  // A message is one line, whatever a name in it holds; a fix's replacement may span several.
  const note = (label: string, text: string, oneLine = true) =>
    out.push(
      `${" ".repeat(gutter)} ${paint(ansi.blue, "=")} ${paint(ansi.bold, label)}: ${oneLine ? terminalName(text) : terminalText(text)}`,
    );
  excerpt(diagnostic.range, "^", severityColor);
  if (diagnostic.suggestion) {
    const replacement = diagnostic.suggestion.replacement;
    note(
      "help",
      replacement === "" ? diagnostic.suggestion.message : `${diagnostic.suggestion.message}: ${replacement}`,
      false,
    );
  }
  for (const place of related) {
    note("note", place.message);
    excerpt(place.range, "-", ansi.blue);
  }
  return out.join("\n");
}

function clampOffset(offset: number, source: string): number {
  return Number.isFinite(offset) ? Math.max(0, Math.min(offset, source.length)) : 0;
}

/**
 * The part of a laid-out line to show, and where the carets go under it (in columns), for the
 * range [from, to) of UTF-16 offsets in the line. A line wider than EXCERPT_WIDTH is cut to a
 * window that starts EXCERPT_CONTEXT columns before the range, with `…` where it was cut.
 */
function excerptOf(
  cells: Cell[],
  from: number,
  to: number,
): { text: string; caretColumn: number; caretWidth: number } {
  const columnAt: number[] = [];
  let column = 0;
  for (const cell of cells) {
    columnAt.push(column);
    column += cell.width;
  }
  const lineWidth = column;
  const columnOf = (offset: number) => {
    const index = cells.findIndex((cell) => cell.to > offset);
    return index < 0 ? lineWidth : columnAt[index]!;
  };
  const caretStart = columnOf(from);
  const caretEnd = Math.max(caretStart, columnOf(to));
  let windowStart = 0;
  let windowEnd = lineWidth;
  if (lineWidth > EXCERPT_WIDTH) {
    windowStart = Math.max(0, Math.min(caretStart - EXCERPT_CONTEXT, lineWidth - EXCERPT_WIDTH));
    windowEnd = windowStart + EXCERPT_WIDTH;
  }
  // Whole cells inside the window; the cut ends are marked with an ellipsis one column wide.
  let text = windowStart > 0 ? ELLIPSIS : "";
  let shownStart: number | undefined;
  for (let i = 0; i < cells.length; i++) {
    if (columnAt[i]! < windowStart || columnAt[i]! + cells[i]!.width > windowEnd) continue;
    shownStart ??= columnAt[i]!;
    text += cells[i]!.text;
  }
  if (windowEnd < lineWidth) text += ELLIPSIS;
  const offsetColumns = (shownStart ?? windowStart) - (windowStart > 0 ? 1 : 0);
  const caretColumn = Math.max(0, caretStart - offsetColumns);
  const visibleEnd = Math.min(caretEnd, windowEnd) - offsetColumns;
  return { text, caretColumn, caretWidth: Math.max(1, visibleEnd - caretColumn) };
}

export function renderDiagnostics(
  diagnostics: readonly Diagnostic[],
  source: string,
  options: RenderOptions = {},
): string {
  const lines = new LineIndex(source);
  return diagnostics.map((d) => `${renderDiagnostic(d, source, options, lines)}\n`).join("\n");
}
