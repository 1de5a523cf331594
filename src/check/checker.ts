import type { Catalog, FieldInfo } from "../catalog/index.js";
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
import { fittingOperator, replacementForNotBefore, suggestOperator } from "./operators.js";
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
  ) {}

  checkExpr(expr: Expr): Cond | undefined {
    switch (expr.kind) {
      case "error":
        return undefined;
      case "comparison":
        return this.checkComparison(expr);
      case "not": {
        const operand = this.checkExpr(expr.operand);
        return operand && { kind: "not", operand, range: expr.range };
      }
      case "and":
      case "or": {
        const operands: Cond[] = [];
        let failed = false;
        for (const operand of expr.operands) {
          const checked = this.checkExpr(operand);
          if (checked) operands.push(checked);
          else failed = true;
        }
        return failed ? undefined : { kind: expr.kind, operands, range: expr.range };
      }
    }
  }

  private checkComparison(comparison: Comparison): Leaf | undefined {
    const field = this.resolveField(comparison.field);
    // Said even when the operator is wrong too, so that fixing the operator brings no new error.
    const filterable = field !== undefined && this.checkFilterable(field, comparison.field);
    const operator =
      comparison.operator.kind === "operator"
        ? this.resolveOperator(comparison.operator, filterable ? field : undefined, comparison.value)
        : undefined;
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
    });
    if (!value) return undefined;
    const leaf: Leaf = { kind: "leaf", field, operator, value, range: comparison.range };
    this.comparisons.push(leaf);
    return leaf;
  }

  private resolveField(ref: FieldRef): FieldInfo | undefined {
    const field = this.catalog.fields.get(ref.name);
    if (field) {
      if (field.deprecated)
        this.diagnostics.push(diagnose("DeprecatedField", ref.range, { field: field.name }));
      return field;
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
      return undefined;
    }
    const object = this.objectOfMember(ref.name);
    if (object) {
      this.diagnostics.push(diagnose("ObjectMember", ref.range, { name: ref.name, object: object.name }));
      return undefined;
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
    return undefined;
  }

  /**
   * The operator `ref` names, or undefined after reporting what it should be. Each fix is the
   * operator meant in the form that takes `field` (when known and filterable) and `value`.
   */
  private resolveOperator(
    ref: OperatorRef,
    field: FieldInfo | undefined,
    value: Value,
  ): CanonicalOperator | undefined {
    if (ref.op) return ref.op;
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
        return undefined;
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
      return undefined;
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
    return undefined;
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
      this.diagnostics.push(
        diagnose("NotFilterable", ref.range, { field: field.name, dataset: this.catalog.dataset }),
      );
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
