import type { IToken } from "chevrotain";
import type { Range } from "../diagnostics/index.js";
import { type Comparison, type Expr, type Logical, tokenFacts } from "../syntax/index.js";
import type { Analysis } from "./analysis.js";
import type { OffsetRange } from "./types.js";

/*
 * What the outline, folding and selection providers read of the parsed source: node ranges as
 * offsets, a comparison without its parentheses, and the logic words of a group (the AST keeps
 * its operands, not the words between them).
 */

export function offsets(range: Range): OffsetRange {
  return { start: range.start.offset, end: range.end.offset };
}

/** A comparison from its field to the end of its value: its range without the parentheses around it. */
export function comparisonSpan(comparison: Comparison): OffsetRange {
  return { start: comparison.field.range.start.offset, end: comparison.value.range.end.offset };
}

/** The `and`/`or` words (or `&&`/`||`) of a group: the logic tokens inside it and outside its operands. */
export function logicWords(analysis: Analysis, group: Logical): IToken[] {
  const { start, end } = offsets(group.range);
  const words: IToken[] = [];
  for (const token of analysis.scanned.tokens) {
    if (token.startOffset < start) continue;
    if (token.startOffset >= end) break;
    const facts = tokenFacts(token);
    if (facts.class !== "logic" || facts.logic === "not") continue;
    const inOperand = group.operands.some(
      (operand) =>
        operand.range.start.offset <= token.startOffset && token.startOffset < operand.range.end.offset,
    );
    if (!inOperand) words.push(token);
  }
  return words;
}

/** Calls `visit` on each expression, outermost first, with whether an odd number of `not`s encloses it. */
export function walkExpressions(expr: Expr | null, visit: (expr: Expr, negated: boolean) => void): void {
  const walk = (node: Expr, negated: boolean) => {
    visit(node, negated);
    if (node.kind === "not") walk(node.operand, !negated);
    else if (node.kind === "and" || node.kind === "or")
      for (const operand of node.operands) walk(operand, negated);
  };
  if (expr) walk(expr, false);
}
