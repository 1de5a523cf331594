import { type Comparison, type Expr, tokenFacts } from "../syntax/index.js";
import type { Analysis } from "./analysis.js";
import { comparisonSpan, logicWords, offsets } from "./syntax-tree.js";
import type { DocumentSymbol, OffsetRange } from "./types.js";

/** A comparison's name in the outline is cut to this many characters (a long list of values). */
const MAX_NAME_LENGTH = 80;

/**
 * The outline of a filter: the `# dataset:` directive, then the filter's tree, each `and`/`or`
 * group and `not` holding what it joins, down to each comparison. Parts the parser could not read
 * are left out (their diagnostics say what is wrong).
 */
export function documentSymbols(analysis: Analysis): DocumentSymbol[] {
  const { ast } = analysis.compiled;
  const symbols: DocumentSymbol[] = [];
  if (ast.directive) {
    const name = offsets(ast.directive.range);
    const line = ast.comments.find(
      (comment) => comment.range.start.offset <= name.start && name.end <= comment.range.end.offset,
    );
    symbols.push({
      name: `dataset ${ast.directive.dataset}`,
      detail:
        analysis.catalog?.dataset === ast.directive.dataset
          ? `${analysis.catalog.fields.size} fields`
          : "unknown dataset",
      kind: "dataset",
      range: line ? offsets(line.range) : name,
      selectionRange: name,
      children: [],
    });
  }
  const tree = ast.expr && symbolOf(analysis, ast.expr);
  if (tree) symbols.push(tree);
  return symbols;
}

function symbolOf(analysis: Analysis, expr: Expr): DocumentSymbol | undefined {
  switch (expr.kind) {
    case "comparison":
      return comparisonSymbol(analysis, expr);
    case "not": {
      const operand = symbolOf(analysis, expr.operand);
      const range = offsets(expr.range);
      return {
        name: "not",
        detail: "",
        kind: "negation",
        range,
        selectionRange: notWord(analysis, range),
        children: operand ? [operand] : [],
      };
    }
    case "and":
    case "or": {
      const range = offsets(expr.range);
      const word = logicWords(analysis, expr)[0];
      const children = expr.operands.flatMap((operand) => symbolOf(analysis, operand) ?? []);
      return {
        name: expr.kind,
        detail: `${expr.operands.length} parts`,
        kind: "group",
        range,
        selectionRange: word ? { start: word.startOffset, end: word.startOffset + word.image.length } : range,
        children,
      };
    }
    case "error":
      return undefined;
  }
}

function comparisonSymbol(analysis: Analysis, comparison: Comparison): DocumentSymbol {
  const span = comparisonSpan(comparison);
  const written = analysis.text.slice(span.start, span.end).replace(/\s+/g, " ");
  const name = written.length > MAX_NAME_LENGTH ? `${written.slice(0, MAX_NAME_LENGTH - 1)}…` : written;
  const field = analysis.catalog?.fields.get(comparison.field.name);
  return {
    name,
    detail: field ? field.docType : "",
    kind: "comparison",
    range: offsets(comparison.range),
    selectionRange: offsets(comparison.field.range),
    children: [],
  };
}

/** The `not` (or `!`) that starts a negation: its first logic word, after any parentheses. */
function notWord(analysis: Analysis, range: OffsetRange): OffsetRange {
  const token = analysis.scanned.tokens.find((candidate) => {
    if (candidate.startOffset < range.start || candidate.startOffset >= range.end) return false;
    const facts = tokenFacts(candidate);
    return facts.class === "logic" && facts.logic === "not";
  });
  return token ? { start: token.startOffset, end: token.startOffset + token.image.length } : range;
}
