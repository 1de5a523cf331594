import type { Catalog } from "../catalog/index.js";
import { type Diagnostic, hasErrors } from "../diagnostics/index.js";
import type { Expr } from "../syntax/index.js";
import { Checker } from "./checker.js";
import type { Cond, Leaf, Meaning } from "./ir.js";
import { findConstantFilter } from "./meaning/constant-filter.js";
import { toNegationNormalForm } from "./negate.js";
import type { FixSyntax } from "./rewrite.js";
import { findConstantGroups } from "./satisfiability.js";

/** What a filter means, found once and passed forward to every later stage. */
export interface FilterAnalysis {
  /** The checked condition as written (`not` kept); null when the filter is empty or has errors. */
  condition: Cond | null;
  /**
   * What the filter means: the condition with every `not` pushed down, as the emitter writes it
   * and every later stage that evaluates or reasons reads it; null with `condition`.
   */
  meaning: Meaning | null;
  /** Every comparison that checked, in source order, even where the filter as a whole has errors. */
  comparisons: Leaf[];
}

/** The analysis of a filter that is empty, or was not analyzed (unknown dataset, invalid options). */
export function unanalyzed(): FilterAnalysis {
  return { condition: null, meaning: null, comparisons: [] };
}

/**
 * The analysis the compiler and the decompiler share: resolves the AST against the catalog and
 * the matrix, and when nothing is wrong (`prior` holds the errors found before, by the parser or
 * the JSON reader) computes the meaning (the negation normal form) once and warns, reading it, about
 * groups and whole filters that can never or always hold. Appends its diagnostics to `diagnostics`;
 * `syntax` says how fixes are written (as source, or as JSON for the decompiler).
 */
export function analyzeExpr(
  expr: Expr | null,
  catalog: Catalog,
  source: string,
  diagnostics: Diagnostic[],
  syntax: FixSyntax = "source",
): FilterAnalysis {
  if (!expr) return unanalyzed();
  const checker = new Checker(catalog, source, syntax, hasErrors(diagnostics));
  const checked = checker.checkExpr(expr);
  for (const diagnostic of checker.diagnostics) diagnostics.push(diagnostic);
  if (!checked || hasErrors(diagnostics))
    return { condition: null, meaning: null, comparisons: checker.comparisons };
  const meaning = toNegationNormalForm(checked);
  findConstantGroups(meaning, diagnostics);
  findConstantFilter(meaning, diagnostics);
  return { condition: checked, meaning, comparisons: checker.comparisons };
}
