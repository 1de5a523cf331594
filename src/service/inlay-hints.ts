import { DiagnosticKind, optionLabel } from "../diagnostics/index.js";
import { negateOperator } from "../syntax/index.js";
import type { Analysis } from "./analysis.js";
import { logicWords, walkExpressions } from "./syntax-tree.js";
import type { InlayHint, OffsetRange } from "./types.js";

/**
 * Labels for what the text does not show: after each operator under an odd number of `not`s,
 * the operator Logpush runs in its place (`startsWith` → `!startsWith`, `lt` → `geq`), and after
 * each `and`/`or` there, the word it becomes (De Morgan); at the end of the line whose comparison
 * takes the filter past a limit, which limit. Only the hints within `range`, when one is given.
 */
export function inlayHints(analysis: Analysis, range?: OffsetRange): InlayHint[] {
  const { compiled } = analysis;
  const hints: InlayHint[] = [];
  walkExpressions(compiled.ast.expr, (expr, negated) => {
    if (!negated) return;
    if (expr.kind === "comparison" && expr.operator.kind === "operator") {
      const { start, end } = expr.range;
      const checked = compiled.comparisons.find(
        (leaf) => leaf.range.start.offset === start.offset && leaf.range.end.offset === end.offset,
      );
      const operator = checked?.operator ?? expr.operator.op;
      if (!operator) return;
      const runs = negateOperator(operator);
      hints.push({
        offset: expr.operator.range.end.offset,
        label: `→ ${runs}`,
        tooltip: `Under \`not\`, Logpush runs this comparison with \`${runs}\`: its JSON has no \`not\`.`,
        kind: "negation",
      });
    }
    if (expr.kind === "and" || expr.kind === "or") {
      const becomes = expr.kind === "and" ? "or" : "and";
      for (const word of logicWords(analysis, expr))
        hints.push({
          offset: word.startOffset + word.image.length,
          label: `→ ${becomes}`,
          tooltip: `Under \`not\`, this \`${expr.kind}\` runs as \`${becomes}\` (De Morgan): its JSON has no \`not\`.`,
          kind: "negation",
        });
    }
  });
  const { maxOperators, maxBytes } = compiled.stats;
  const labels = analysis.options.optionLabels;
  for (const diagnostic of compiled.diagnostics) {
    const crossing =
      diagnostic.code === DiagnosticKind.TooManyOperators.code
        ? `comparison ${maxOperators + 1}: past the limit of ${maxOperators} (${optionLabel(labels, "maxOperators") ?? "maxOperators"})`
        : diagnostic.code === DiagnosticKind.TooManyBytes.code
          ? `past ${maxBytes} bytes of JSON (${optionLabel(labels, "maxBytes") ?? "maxBytes"})`
          : undefined;
    if (crossing === undefined) continue;
    hints.push({
      offset: lineEnd(analysis.text, diagnostic.range.end.offset),
      label: `◀ ${crossing}`,
      tooltip: diagnostic.message,
      kind: "limit",
    });
  }
  return hints
    .filter((hint) => range === undefined || (range.start <= hint.offset && hint.offset <= range.end))
    .sort((a, b) => a.offset - b.offset);
}

/** The offset of the end of the line holding `offset`, before any CR. */
function lineEnd(text: string, offset: number): number {
  const newline = text.indexOf("\n", offset);
  const end = newline === -1 ? text.length : newline;
  return text[end - 1] === "\r" ? end - 1 : end;
}
