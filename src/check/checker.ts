import { type Catalog, type FieldInfo, insteadOfUnfilterable } from "../catalog/index.js";
import { closestMatch, type Diagnostic, diagnose, type Suggestion } from "../diagnostics/index.js";
import {
  CANONICAL_OPERATORS,
  type CanonicalOperator,
  type Comparison,
  type Expr,
  type FieldRef,
  negateOperator,
  OPERATOR_NAMES,
  OPERATOR_SPELLINGS,
  OPERATORS,
  type OperatorRef,
  operatorAccepts,
  operatorsFor,
  type Value,
} from "../syntax/index.js";
import type { Cond, Leaf } from "./ir.js";
import { likeFix } from "./like.js";
import { fittingOperator, replacementForNotBefore, suggestOperator } from "./operators.js";
import type { Around, FixSyntax } from "./rewrite.js";
import { lintComparison } from "./value-lints.js";
import { checkValue, typeWithArticle } from "./values.js";

/**
 * Walks the AST once, resolving fields and operators against the catalog and the matrix.
 * Returns the checked condition, or undefined where anything below was wrong (the reasons are
 * in `diagnostics`); it keeps walking after an error so that every mistake is reported.
 */
/** The operators with a `!` form, as messages list them: `eq`, `startsWith`, … */
const BANGED_OPERATORS = CANONICAL_OPERATORS.filter((operator) => OPERATORS[operator].negative)
  .map((operator) => `\`${OPERATORS[operator].positive}\``)
  .join(", ");

export class Checker {
  readonly diagnostics: Diagnostic[] = [];
  /** Every comparison that checked, in source order. */
  readonly comparisons: Leaf[] = [];

  constructor(
    private readonly catalog: Catalog,
    private readonly source: string,
    /** How fixes are written: as filter source, or as the Logpush JSON the checked text was read from. */
    private readonly syntax: FixSyntax = "source",
    /**
     * Whether the parser found errors: the warnings on what a value means (W0123–W0127) are given
     * only on a source that parsed, where their fixes cannot land in text that was misread.
     */
    private readonly parsedWithErrors = false,
  ) {}

  /** Checks an expression; `around` is what it stands in, which a fix rewriting a comparison reads. */
  checkExpr(expr: Expr, around: Around = "nothing"): Cond | undefined {
    switch (expr.kind) {
      case "error":
        return undefined;
      case "comparison":
        return this.checkComparison(expr, around);
      case "not": {
        const operand = this.checkExpr(expr.operand, "not");
        return operand && { kind: "not", operand, range: expr.range };
      }
      case "and":
      case "or": {
        const operands: Cond[] = [];
        let failed = false;
        for (const operand of expr.operands) {
          const checked = this.checkExpr(operand, expr.kind);
          if (checked) operands.push(checked);
          else failed = true;
        }
        return failed ? undefined : { kind: expr.kind, operands, range: expr.range };
      }
    }
  }

  private checkComparison(comparison: Comparison, around: Around): Leaf | undefined {
    const resolved = this.resolveField(comparison.field);
    // A misspelt field with a fix stands in for the field meant: the rest of the comparison is
    // checked against it, so that every mistake shows at once (`ClientIp eq 1.2.3.4`).
    const field = resolved.field ?? resolved.meant;
    // Said even when the operator is wrong too, so that fixing the operator brings no new error.
    const filterable = field !== undefined && this.checkFilterable(field, comparison.field);
    // So does a misspelt operator with a fix (`ClientIP equals 1.2.3.4`): the value is checked too.
    const resolvedOperator =
      comparison.operator.kind === "operator"
        ? this.resolveOperator(comparison.operator, filterable ? field : undefined, comparison)
        : {};
    const operator = resolvedOperator.op ?? resolvedOperator.meant;
    if (!field || !filterable || !operator || comparison.operator.kind !== "operator") return undefined;
    if (!operatorAccepts(operator, field.type)) {
      this.reportOperatorForType(operator, field, comparison.operator, comparison.value);
      return undefined;
    }
    const value = checkValue(comparison.value, {
      field,
      operator,
      operatorRef: comparison.operator,
      catalog: this.catalog,
      source: this.source,
      diagnostics: this.diagnostics,
      comparison: { range: comparison.range, around },
      syntax: this.syntax,
    });
    if (!value || !resolved.field || !resolvedOperator.op) return undefined;
    const leaf: Leaf = { kind: "leaf", field, operator, value, range: comparison.range };
    if (!this.parsedWithErrors)
      lintComparison({
        catalog: this.catalog,
        comparison,
        field,
        operator,
        value,
        syntax: this.syntax,
        around,
        diagnostics: this.diagnostics,
      });
    this.comparisons.push(leaf);
    return leaf;
  }

  /**
   * The field a name resolves to, or the field its fix names (`meant`) after reporting the name;
   * neither when the name has no fix.
   */
  private resolveField(ref: FieldRef): { field?: FieldInfo; meant?: FieldInfo } {
    const field = this.catalog.fields.get(ref.name);
    if (field) {
      if (field.deprecated)
        this.diagnostics.push(diagnose("DeprecatedField", ref.range, { field: field.name }));
      return { field };
    }
    const sameLetters = this.catalog.byLowerName.get(ref.name.toLowerCase());
    if (sameLetters) {
      this.diagnostics.push(
        diagnose(
          "FieldWrongCase",
          ref.range,
          { field: ref.name, correct: sameLetters.name },
          this.replace(ref, sameLetters.name),
        ),
      );
      return { meant: sameLetters };
    }
    const object = this.objectOfMember(ref.name);
    if (object) {
      this.diagnostics.push(diagnose("ObjectMember", ref.range, { name: ref.name, object: object.name }));
      return {};
    }
    const closest = closestMatch(ref.name, this.catalog.fields.keys());
    this.diagnostics.push(
      diagnose(
        "UnknownField",
        ref.range,
        { field: ref.name, dataset: this.catalog.dataset, meant: closest },
        closest ? this.replace(ref, closest) : undefined,
      ),
    );
    return closest === undefined ? {} : { meant: this.catalog.fields.get(closest)! };
  }

  /**
   * The operator `ref` names, or the operator its fix writes (`meant`) after reporting it; neither
   * when it has no fix. Each fix is the operator meant in the form that takes `field` (when known
   * and filterable) and `value`.
   */
  private resolveOperator(
    ref: OperatorRef,
    field: FieldInfo | undefined,
    comparison: Comparison,
  ): { op?: CanonicalOperator; meant?: CanonicalOperator | undefined } {
    if (ref.op) return { op: ref.op };
    const { value } = comparison;
    const like = likeFix(ref, comparison, field);
    if (like) {
      const args = { operator: ref.text, meant: like.operator, known: OPERATOR_NAMES };
      this.diagnostics.push(diagnose("UnknownOperator", ref.range, args, like.fix));
      return { meant: like.fix && like.operator };
    }
    const fitting = (meant: CanonicalOperator) => fittingOperator(meant, field, value);
    const notBefore = /^not\s+(\S+)$/i.exec(ref.text);
    if (notBefore) {
      const word = notBefore[1]!;
      const meant = replacementForNotBefore(word);
      if (meant) {
        const replacement = fitting(meant);
        this.diagnostics.push(
          diagnose(
            "NotBeforeOperator",
            ref.range,
            { operator: word, replacement: replacement ?? meant },
            replacement && this.replace(ref, replacement),
          ),
        );
        return { meant: replacement };
      }
    }
    // `!lt`: only the operators with a `!` form take one; the negation is another operator.
    const banged = /^!([A-Za-z]+)$/.exec(ref.text);
    const written = banged ? OPERATOR_SPELLINGS.get(banged[1]!) : undefined;
    if (banged && written && !OPERATOR_SPELLINGS.has(ref.text)) {
      const negation = negateOperator(written);
      const replacement = fitting(negation);
      this.diagnostics.push(
        diagnose(
          "BangBeforeOperator",
          ref.range,
          { operator: banged[1]!, replacement: replacement ?? negation, banged: BANGED_OPERATORS },
          replacement && this.replace(ref, replacement),
        ),
      );
      return { meant: replacement };
    }
    const guess = suggestOperator(ref.text);
    const suggestion = guess && fitting(guess);
    this.diagnostics.push(
      diagnose(
        "UnknownOperator",
        ref.range,
        { operator: ref.text, meant: suggestion, known: OPERATOR_NAMES },
        suggestion && this.replace(ref, suggestion),
      ),
    );
    return { meant: suggestion };
  }

  /**
   * The object field `name` reads a member of (`RequestHeaders.x-debug`, `Cookies.session`,
   * `RequestHeaders["x-debug"]`), if any.
   */
  private objectOfMember(name: string): FieldInfo | undefined {
    const prefix = /^([^.[]+)[.[]/.exec(name)?.[1];
    if (prefix === undefined) return undefined;
    const field = this.catalog.fields.get(prefix) ?? this.catalog.byLowerName.get(prefix.toLowerCase());
    return field && (field.type === "object" || field.elementType === "object") ? field : undefined;
  }

  private checkFilterable(field: FieldInfo, ref: FieldRef): boolean {
    if (field.filterable) return true;
    if (field.type === "object" || field.elementType === "object") {
      this.diagnostics.push(
        diagnose("ObjectField", ref.range, { field: field.name, docType: field.docType }),
      );
    } else {
      const { dataset } = this.catalog;
      const instead = insteadOfUnfilterable(dataset, field.name);
      this.diagnostics.push(diagnose("NotFilterable", ref.range, { field: field.name, dataset, instead }));
    }
    return false;
  }

  private reportOperatorForType(
    operator: CanonicalOperator,
    field: FieldInfo,
    ref: OperatorRef,
    value: Value,
  ): void {
    const allowed = operatorsFor(field.type);
    const allowedText = allowed.map((op) => `\`${op}\``).join(", ");
    // On arrays, equality means membership: offer `contains` (or `in` for a list).
    const replacement = field.type === "array" ? fittingOperator(operator, field, value) : undefined;
    this.diagnostics.push(
      diagnose(
        "OperatorNotForType",
        ref.range,
        { operator, field: field.name, type: typeWithArticle(field), allowed: allowedText },
        replacement ? this.replace(ref, replacement) : undefined,
      ),
    );
  }

  private replace(node: { range: Suggestion["range"] }, replacement: string): Suggestion {
    return { message: `replace with \`${replacement}\``, range: node.range, replacement };
  }
}
