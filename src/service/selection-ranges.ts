import type { Expr, Value } from "../syntax/index.js";
import type { Analysis } from "./analysis.js";
import { comparisonSpan, offsets } from "./syntax-tree.js";
import type { OffsetRange } from "./types.js";

/**
 * For each offset, the spans an editor's "expand selection" steps through, smallest first: the
 * word (a field, an operator, a value), the list, the comparison, the comparison with its
 * parentheses, each group and `not` around it, the whole filter, the whole text. A comment gives
 * the comment, then the whole text.
 */
export function selectionRanges(analysis: Analysis, positions: readonly number[]): OffsetRange[][] {
  return positions.map((offset) => selectionAt(analysis, offset));
}

function selectionAt(analysis: Analysis, offset: number): OffsetRange[] {
  const { ast } = analysis.compiled;
  const outward: OffsetRange[] = [];
  const comment = ast.comments.find((c) => within(offsets(c.range), offset));
  if (comment) outward.push(offsets(comment.range));
  else if (ast.expr) outward.push(...expressionPath(ast.expr, offset).reverse());
  outward.push({ start: 0, end: analysis.text.length });
  return outward.filter(
    (range, index) =>
      index === 0 || range.start !== outward[index - 1]!.start || range.end !== outward[index - 1]!.end,
  );
}

/** The spans holding `offset`, outermost first. */
function expressionPath(expr: Expr, offset: number): OffsetRange[] {
  const range = offsets(expr.range);
  if (!within(range, offset)) return [];
  switch (expr.kind) {
    case "comparison": {
      const path = [range, comparisonSpan(expr)];
      const operator = expr.operator;
      for (const part of [expr.field, operator])
        if (within(offsets(part.range), offset)) path.push(offsets(part.range));
      path.push(...valuePath(expr.value, offset));
      return path;
    }
    case "not":
      return [range, ...expressionPath(expr.operand, offset)];
    case "and":
    case "or":
      for (const operand of expr.operands) {
        const inner = expressionPath(operand, offset);
        if (inner.length > 0) return [range, ...inner];
      }
      return [range];
    case "error":
      return [range];
  }
}

function valuePath(value: Value, offset: number): OffsetRange[] {
  const range = offsets(value.range);
  if (!within(range, offset)) return [];
  if (value.kind !== "list") return [range];
  const element = value.elements.find((candidate) => within(offsets(candidate.range), offset));
  return element ? [range, offsets(element.range)] : [range];
}

/** Whether `offset` is in the span or at its end (a cursor just after a word selects it). */
function within(range: OffsetRange, offset: number): boolean {
  return range.start <= offset && offset <= range.end;
}
