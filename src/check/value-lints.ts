import {
  type Catalog,
  type FieldInfo,
  holdsAddresses,
  type ValueForm,
  valueFormOf,
} from "../catalog/index.js";
import { type Diagnostic, diagnose } from "../diagnostics/index.js";
import {
  type CanonicalOperator,
  type Comparison,
  isListOperator,
  isNegativeOperator,
  OPERATORS,
  type Scalar,
  stringLiteral,
} from "../syntax/index.js";
import { MAX_LISTED_ADDRESSES, MAX_LISTED_PREFIXES, parseRange, rangeText } from "./addresses.js";
import { type ScalarValue, sameScalar } from "./ir.js";
import { readPattern } from "./patterns.js";
import { type Around, type FixSyntax, type Rewrite, type Rewritten, writeRewrite } from "./rewrite.js";

/*
 * Warnings on comparisons that check but do not do what they seem to (W0123–W0127): `in` on an
 * array field, which the service's current operator table leaves out; an address range, a
 * wildcard or a value in the wrong letter case, none of which any logged value equals; and
 * several values written as one. Each fix says the same thing the way Logpush reads it.
 */

/** A checked comparison, with what a fix needs to rewrite it. */
export interface LintContext {
  catalog: Catalog;
  comparison: Comparison;
  field: FieldInfo;
  operator: CanonicalOperator;
  value: ScalarValue | ScalarValue[];
  syntax: FixSyntax;
  /** What the comparison stands in (a rewrite into several may need parentheses). */
  around: Around;
  diagnostics: Diagnostic[];
}

const asList = (value: ScalarValue | ScalarValue[]) => (Array.isArray(value) ? value : [value]);
const text = (value: string): ScalarValue => ({ kind: "string", value });

/** Warns about a checked comparison; reports nothing for most. */
export function lintComparison(context: LintContext): void {
  const { comparison, field, operator } = context;
  if (field.type === "array" && isListOperator(operator)) warnInOnArray(context);
  const takesText = field.type === "string" || (field.type === "array" && field.elementType === "string");
  if (!takesText) return;
  const elements = comparison.value.kind === "list" ? comparison.value.elements : [comparison.value];
  for (const element of elements) {
    if (element.kind !== "string") continue;
    if (warnAddressRange(element, context)) continue;
    if (warnPattern(element, context)) continue;
    const form = valueFormOf(context.catalog.dataset, field.name);
    if (form && !warnSeveralValues(element, form, context)) warnCase(element, form, context);
  }
}

/** A fix that rewrites the whole comparison. */
function rewriteFix(context: LintContext, rewrite: Rewrite, shown: string) {
  const replacement = writeRewrite(rewrite, context.syntax, context.around);
  return { message: `write ${shown}`, range: context.comparison.range, replacement };
}

/** `X in [a, b]` on an array field: `X contains a or X contains b` (`!in`: `!contains` joined by `and`). */
function warnInOnArray(context: LintContext): void {
  const { field, operator } = context;
  const negative = isNegativeOperator(operator);
  const rewrite: Rewrite = {
    join: negative ? "and" : "or",
    comparisons: asList(context.value).map((value) => ({
      field,
      operator: negative ? "!contains" : "contains",
      value,
    })),
  };
  const shown = writeRewrite(rewrite, "source", "nothing");
  const operatorRef = context.comparison.operator;
  context.diagnostics.push(
    diagnose(
      "InOnArrayField",
      operatorRef.range,
      { operator, field: field.name, replacement: `\`${shown}\`` },
      rewriteFix(context, rewrite, shown),
    ),
  );
}

/**
 * The comparisons that say what comparing with one element meant, beside the comparison of the
 * other elements of its list (if any); `others` joins into that list when it is one of addresses.
 */
function withElement(
  context: LintContext,
  element: ScalarValue,
  meant: Rewritten[],
  listed: ScalarValue[] = [],
): Rewrite {
  const { field, operator } = context;
  const negative = isNegativeOperator(operator);
  const rest = isListOperator(operator)
    ? asList(context.value).filter((value) => !sameScalar(value, element))
    : [];
  const values = [...rest, ...listed];
  const comparisons: Rewritten[] = [];
  if (values.length > 0) {
    const listOperator: CanonicalOperator =
      field.type === "array" ? (negative ? "!contains" : "contains") : negative ? "!in" : "in";
    if (field.type === "array")
      for (const value of values) comparisons.push({ field, operator: listOperator, value });
    else if (values.length === 1)
      comparisons.push({ field, operator: negative ? "!eq" : "eq", value: values[0]! });
    else comparisons.push({ field, operator: listOperator, value: values });
  }
  comparisons.push(...meant);
  return { join: negative ? "and" : "or", comparisons };
}

/** A number of addresses as a message gives it: in digits up to a million, as a power of two beyond. */
const countText = (count: bigint) =>
  count <= 1_000_000n ? String(count) : `2^${count.toString(2).length - 1}`;

/** W0124 for a CIDR compared with an address field; true when the element was one. */
function warnAddressRange(element: Extract<Scalar, { kind: "string" }>, context: LintContext): boolean {
  const { field, operator } = context;
  if (!holdsAddresses(field.name)) return false;
  const positive = OPERATORS[operator].positive;
  if (positive !== "eq" && positive !== "in" && positive !== "contains") return false;
  const range = parseRange(element.value);
  if (!range) return false;
  const written = rangeText(range);
  const negative = isNegativeOperator(operator);
  const literal = stringLiteral(element.value);
  let advice: string;
  let rewrite: Rewrite | undefined;
  if (written.kind === "prefixes" && field.type !== "array") {
    const prefixOperator = negative ? "!startsWith" : "startsWith";
    const meant = written.prefixes.map(
      (prefix) => ({ field, operator: prefixOperator, value: text(prefix) }) as const,
    );
    rewrite = withElement(context, text(element.value), [...meant]);
    const starts = written.prefixes.map((prefix) => stringLiteral(prefix)).join(" or ");
    advice = `its addresses are those whose text starts with ${starts}: write \`${writeRewrite(rewrite, "source", "nothing")}\``;
  } else if (written.kind === "addresses") {
    rewrite = withElement(context, text(element.value), [], written.addresses.map(text));
    const count = written.addresses.length;
    advice = `it holds ${count === 1 ? "one address" : `${count} addresses`}; list ${count === 1 ? "it" : "them"}: \`${writeRewrite(rewrite, "source", "nothing")}\``;
  } else {
    const count = written.kind === "too large" ? countText(written.addresses) : "";
    advice =
      written.kind === "prefixes"
        ? `an array's elements cannot be compared with startsWith; list the addresses with ${negative ? "`!contains`" : "`contains`"}`
        : `its ${count} addresses are more than a fix lists (${MAX_LISTED_ADDRESSES} addresses, or ${MAX_LISTED_PREFIXES} prefixes of whole octets or groups); compare with startsWith on a range of whole octets (/8, /16, /24) or list the addresses`;
  }
  const shown = rewrite && writeRewrite(rewrite, "source", "nothing");
  context.diagnostics.push(
    diagnose(
      "AddressRange",
      element.range,
      { range: literal, field: field.name, advice },
      rewrite && shown !== undefined ? rewriteFix(context, rewrite, shown) : undefined,
    ),
  );
  return true;
}

/** W0125 for a wildcard or anchor at an end of the value; true when there was one. */
function warnPattern(element: Extract<Scalar, { kind: "string" }>, context: LintContext): boolean {
  const { field, operator } = context;
  const reading = readPattern(element.value, operator);
  if (!reading) return false;
  let rewrite: Rewrite | undefined;
  const meant = reading.meant;
  // Array elements are compared whole (contains, in): only `eq` of the literal part says the same.
  if (meant && (field.type !== "array" || OPERATORS[meant.operator].positive === "eq")) {
    const operatorMeant: CanonicalOperator =
      field.type === "array"
        ? isNegativeOperator(meant.operator)
          ? "!contains"
          : "contains"
        : meant.operator;
    const negative = isNegativeOperator(operator);
    const replacement: Rewritten =
      isListOperator(operator) && OPERATORS[operatorMeant].positive === "eq"
        ? { field, operator: negative ? "!eq" : "eq", value: text(meant.text) }
        : { field, operator: operatorMeant, value: text(meant.text) };
    if (isListOperator(operator) && OPERATORS[operatorMeant].positive === "eq")
      rewrite = withElement(context, text(element.value), [], [text(meant.text)]);
    else rewrite = withElement(context, text(element.value), [replacement]);
  }
  const shown = rewrite && writeRewrite(rewrite, "source", "nothing");
  const advice =
    shown === undefined
      ? "Logpush has no pattern operator; compare the literal text with eq, startsWith, endsWith or contains"
      : `write \`${shown}\``;
  context.diagnostics.push(
    diagnose(
      "PatternCharacter",
      element.range,
      { character: reading.character, meaning: reading.meaning, advice },
      rewrite && shown !== undefined ? rewriteFix(context, rewrite, shown) : undefined,
    ),
  );
  return true;
}

/** The value as the field's documented form writes it, when it differs only in that. */
function asLogged(value: string, form: ValueForm): string | undefined {
  if (form.values?.includes(value)) return undefined;
  const lower = value.toLowerCase();
  const variant = Object.entries(form.variants ?? {}).find(([written]) => written.toLowerCase() === lower);
  if (variant) return variant[1];
  const known = form.values?.find((candidate) => candidate.toLowerCase() === lower);
  if (known !== undefined) return known;
  if (form.case === "lower" && value !== lower) return lower;
  if (form.case === "upper" && value !== value.toUpperCase()) return value.toUpperCase();
  return undefined;
}

/** W0126 for a value the logs never write so (`"US"` for a country code), with it as they do. */
function warnCase(element: Extract<Scalar, { kind: "string" }>, form: ValueForm, context: LintContext): void {
  const positive = OPERATORS[context.operator].positive;
  // A known value's case says nothing of a piece of one: only a case rule reaches startsWith and the like.
  const whole = positive === "eq" || positive === "in" || context.field.type === "array";
  const fixed = whole || form.case !== undefined ? asLogged(element.value, form) : undefined;
  if (fixed === undefined) return;
  const replacement = stringLiteral(fixed);
  context.diagnostics.push(
    diagnose(
      "ValueNotAsLogged",
      element.range,
      { value: stringLiteral(element.value), field: context.field.name, holds: form.holds, replacement },
      { message: `write ${replacement}`, range: element.range, replacement },
    ),
  );
}

/** W0127 for `"us,ca"` where the field's values hold no comma; true when it was one. */
function warnSeveralValues(
  element: Extract<Scalar, { kind: "string" }>,
  form: ValueForm,
  context: LintContext,
): boolean {
  const { field, operator } = context;
  const positive = OPERATORS[operator].positive;
  if (!(positive === "eq" || positive === "in" || field.type === "array")) return false;
  if (!element.value.includes(",") || form.values?.some((value) => value.includes(","))) return false;
  const parts = element.value.split(",").map((part) => part.trim());
  if (parts.some((part) => part === "")) return false;
  const values = [...new Set(parts.map((part) => asLogged(part, form) ?? part))].map(text);
  const rewrite = withElement(context, text(element.value), [], values);
  const shown = writeRewrite(rewrite, "source", "nothing");
  context.diagnostics.push(
    diagnose(
      "SeveralValuesInOne",
      element.range,
      { value: stringLiteral(element.value), field: field.name, replacement: `\`${shown}\`` },
      rewriteFix(context, rewrite, shown),
    ),
  );
  return true;
}
