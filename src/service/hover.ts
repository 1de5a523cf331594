import type { FieldInfo } from "../catalog/index.js";
import type { Range } from "../diagnostics/index.js";
import { comparisonJson } from "../emit/index.js";
import { type Comparison, type Expr, LOGIC, negateOperator, OPERATORS, tokenFacts } from "../syntax/index.js";
import type { Analysis } from "./analysis.js";
import type { Hover, OffsetRange } from "./types.js";

/** A logic word in words; a symbol (`&&`) also names the word it stands for. */
function logicMeaning(word: keyof typeof LOGIC, written: string): string {
  const { word: name, meaning } = LOGIC[word];
  return written.toLowerCase() === name
    ? `**${name}**: ${meaning}`
    : `**${written}**: \`${name}\`; ${meaning}`;
}

/** What the thing under the cursor is: a field's type and description, an operator's meaning, and the JSON a comparison emits. */
export function hover(analysis: Analysis, offset: number): Hover | null {
  const expr = analysis.compiled.ast.expr;
  const found = expr ? comparisonAt(expr, offset, false) : null;
  if (found) {
    const { comparison, negated } = found;
    const field = analysis.catalog?.fields.get(comparison.field.name);
    const emitted = emittedLeaf(analysis, comparison, negated);
    if (contains(comparison.field.range, offset)) {
      if (!field) return null;
      return { contents: join(fieldText(field), emitted), range: offsets(comparison.field.range) };
    }
    const operator = comparison.operator;
    if (operator.kind === "operator" && contains(operator.range, offset)) {
      if (!operator.op) return null;
      const alias =
        operator.text === operator.op
          ? ""
          : `\`${operator.text}\` is written \`${operator.op}\` in Logpush JSON.`;
      return {
        contents: join(`**${operator.op}**: ${OPERATORS[operator.op].meaning}.`, alias, emitted),
        range: offsets(operator.range),
      };
    }
    if (contains(comparison.value.range, offset) && emitted) {
      return {
        contents: join(field ? fieldText(field) : "", emitted),
        range: offsets(comparison.value.range),
      };
    }
  }
  for (const token of analysis.scanned.tokens) {
    if (token.startOffset > offset) break;
    const facts = tokenFacts(token);
    const end = token.startOffset + token.image.length;
    if (facts.class === "logic" && offset < end)
      return { contents: logicMeaning(facts.logic, token.image), range: { start: token.startOffset, end } };
  }
  return null;
}

function fieldText(field: FieldInfo): string {
  const deprecated = field.deprecated ? "\n\n*Deprecated.*" : "";
  const description = field.description ? `\n\n${field.description}` : "";
  return `**${field.name}**: \`${field.docType}\`${description}${deprecated}`;
}

function join(...parts: string[]): string {
  return parts.filter((part) => part !== "").join("\n\n");
}

/** The comparison's leaf in the emitted JSON, negated when an odd number of `not`s encloses it. */
function emittedLeaf(analysis: Analysis, comparison: Comparison, negated: boolean): string {
  const { start, end } = comparison.range;
  const leaf = analysis.compiled.comparisons.find(
    (checked) => checked.range.start.offset === start.offset && checked.range.end.offset === end.offset,
  );
  if (!leaf) return "";
  const written = negated ? { ...leaf, operator: negateOperator(leaf.operator) } : leaf;
  return `Emits${negated ? " (negated by the enclosing `not`)" : ""}:\n\`\`\`json\n${comparisonJson(written)}\n\`\`\``;
}

function comparisonAt(
  expr: Expr,
  offset: number,
  negated: boolean,
): { comparison: Comparison; negated: boolean } | null {
  if (!contains(expr.range, offset)) return null;
  switch (expr.kind) {
    case "comparison":
      return { comparison: expr, negated };
    case "not":
      return comparisonAt(expr.operand, offset, !negated);
    case "and":
    case "or":
      for (const operand of expr.operands) {
        const found = comparisonAt(operand, offset, negated);
        if (found) return found;
      }
      return null;
    case "error":
      return null;
  }
}

function contains(range: Range, offset: number): boolean {
  return range.start.offset <= offset && offset < range.end.offset;
}

function offsets(range: Range): OffsetRange {
  return { start: range.start.offset, end: range.end.offset };
}
