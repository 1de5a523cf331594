import type { Expr } from "../syntax/index.js";
import type { Analysis } from "./analysis.js";
import { offsets, walkExpressions } from "./syntax-tree.js";
import type { FoldingRange, OffsetRange } from "./types.js";

/**
 * What an editor may fold in a filter: each group, `not` and list written over several lines (the
 * whole filter excepted: folding it would hide all there is), and each run of two or more comment
 * lines. A closing bracket that starts its line stays visible, as editors fold braces; of ranges
 * that start on one line, the outermost is kept.
 */
export function foldingRanges(analysis: Analysis): FoldingRange[] {
  const { text } = analysis;
  const { ast } = analysis.compiled;
  const ranges: FoldingRange[] = [];
  const add = (span: OffsetRange, kind?: "comment") => {
    let end = span.end - 1;
    const last = text[end];
    if ((last === ")" || last === "]") && text.slice(lineStart(text, end), end).trim() === "")
      end = lineStart(text, end) - 1;
    if (text.slice(span.start, Math.max(end, span.start)).includes("\n"))
      ranges.push(kind ? { start: span.start, end, kind } : { start: span.start, end });
  };
  walkExpressions(ast.expr, (expr: Expr) => {
    if (expr === ast.expr) return;
    if (expr.kind === "and" || expr.kind === "or" || expr.kind === "not") add(offsets(expr.range));
  });
  walkExpressions(ast.expr, (expr) => {
    if (expr.kind === "comparison" && expr.value.kind === "list") add(offsets(expr.value.range));
  });
  let run: OffsetRange | undefined;
  let runLines = 0;
  for (const comment of ast.comments) {
    const span = offsets(comment.range);
    const ownLine = text.slice(lineStart(text, span.start), span.start).trim() === "";
    const next =
      run !== undefined &&
      ownLine &&
      !text.slice(run.end, span.start).trim() &&
      lineCount(text, run.end, span.start) === 1;
    if (next) {
      run!.end = span.end;
      runLines++;
      continue;
    }
    if (run && runLines > 1) add(run, "comment");
    run = ownLine ? { ...span } : undefined;
    runLines = ownLine ? 1 : 0;
  }
  if (run && runLines > 1) add(run, "comment");
  // Editors fold by line, one range per starting line: the outermost (`not (` holds its group).
  ranges.sort((a, b) => a.start - b.start || b.end - a.end);
  return ranges.filter(
    (range, index) => index === 0 || lineCount(text, ranges[index - 1]!.start, range.start) > 0,
  );
}

/** The offset at which the line holding `offset` starts. */
function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

/** How many line ends lie between two offsets. */
function lineCount(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf("\n", from); at !== -1 && at < to; at = text.indexOf("\n", at + 1)) count++;
  return count;
}
