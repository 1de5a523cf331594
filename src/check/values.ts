import {
  type Catalog,
  type FieldInfo,
  isTimestampField,
  rfc3339Nanoseconds,
  rfc3339TextOf,
} from "../catalog/index.js";
import { type Diagnostic, diagnose, type Range } from "../diagnostics/index.js";
import {
  type CanonicalOperator,
  isListOperator,
  OPERATORS,
  type OperatorRef,
  operatorAccepts,
  type Scalar,
  stringLiteral,
  type Value,
} from "../syntax/index.js";
import { Distinct } from "./distinct.js";
import { type ScalarValue, sameScalar, scalarKey } from "./ir.js";
import { numberWordDiagnostic } from "./number-words.js";
import { canonicalNumber, fitsInt64Range, isIntegerText, isNumberText } from "./numbers.js";
import type { Around, FixSyntax } from "./rewrite.js";

/** The type one value must have: the field's type, or for arrays the element type. */
type ValueType = "string" | "int" | "float" | "bool";

interface ValueContext {
  field: FieldInfo;
  operator: CanonicalOperator;
  operatorRef: OperatorRef;
  catalog: Catalog;
  source: string;
  diagnostics: Diagnostic[];
  /** The comparison's range (a fix may rewrite it whole) and whether it is the whole filter. */
  comparison: { range: Range; around: Around };
  syntax: FixSyntax;
}

function valueTypeOf(field: FieldInfo): ValueType {
  switch (field.type) {
    case "array":
      return field.elementType === "int" ? "int" : "string";
    case "int":
    case "float":
    case "string":
    case "bool":
      return field.type;
    case "object":
      return "string";
  }
}

function typeWithArticle(field: FieldInfo): string {
  if (field.type === "array") return `an ${field.docType}`;
  return field.type === "int" ? "an int" : `a ${field.type}`;
}

const textOf = (context: ValueContext, range: Range) =>
  context.source.slice(range.start.offset, range.end.offset);

/** Checks the value of one comparison against the operator and the field; returns the typed value when it is right. */
export function checkValue(value: Value, context: ValueContext): ScalarValue | ScalarValue[] | undefined {
  const { operator, operatorRef, diagnostics } = context;
  if (value.kind === "error") return undefined;
  if (isListOperator(operator)) {
    if (value.kind !== "list") {
      const elements = commaJoined(value, context) ?? [fixedScalar(value, context)];
      const replacement = elements.every((element) => element !== undefined)
        ? `[${elements.join(", ")}]`
        : undefined;
      diagnostics.push(
        diagnose(
          "ListRequired",
          value.range,
          { operator },
          replacement === undefined
            ? undefined
            : { message: `write ${replacement}`, range: value.range, replacement },
        ),
      );
      return undefined;
    }
    if (value.elements.length === 0) {
      diagnostics.push(diagnose("EmptyList", value.range, { operator }));
      return undefined;
    }
    return checkList(value.elements, value.range, context);
  }
  if (value.kind === "list") {
    const onList = OPERATORS[operator].onList;
    const listOperator = onList && operatorAccepts(onList, context.field.type) ? onList : undefined;
    const suggestion = listOperator
      ? { message: `use \`${listOperator}\``, range: operatorRef.range, replacement: listOperator }
      : undefined;
    diagnostics.push(diagnose("ListNotAllowed", value.range, { operator, listOperator }, suggestion));
    return undefined;
  }
  return checkScalar(value, context, true);
}

/**
 * `value` as it must be written to check: its text when it checks, the fix of its one error
 * otherwise (`us` → `"us"`); undefined when it has no such fix.
 */
function fixedScalar(
  value: Scalar,
  context: ValueContext,
  written = textOf(context, value.range),
): string | undefined {
  const found: Diagnostic[] = [];
  checkScalar(value, { ...context, diagnostics: found }, false);
  if (found.length === 0) return written;
  const only = found.length === 1 ? found[0]!.suggestion : undefined;
  const whole =
    only !== undefined &&
    only.range.start.offset === value.range.start.offset &&
    only.range.end.offset === value.range.end.offset;
  return whole ? only.replacement : undefined;
}

/**
 * The elements a string of comma-joined values stands for (`"us,ca"` for `in`, `"200,201"` on a
 * number field), each as it must be written, when the string is such a list: two or more parts,
 * none empty, none holding a space (a user agent's commas are text); undefined otherwise.
 */
function commaJoined(value: Scalar, context: ValueContext): (string | undefined)[] | undefined {
  if (value.kind !== "string" || !value.value.includes(",")) return undefined;
  const parts = value.value.split(",").map((part) => part.trim());
  if (parts.some((part) => part === "" || /\s/.test(part))) return undefined;
  return parts.map((part) =>
    fixedScalar({ kind: "string", value: part, range: value.range }, context, stringLiteral(part)),
  );
}

function checkList(elements: Scalar[], listRange: Range, context: ValueContext): ScalarValue[] | undefined {
  const values: ScalarValue[] = [];
  const distinct = new Distinct(sameScalar, scalarKey);
  let failed = false;
  for (let index = 0; index < elements.length; index++) {
    const element = elements[index]!;
    const value = checkScalar(element, context, false);
    if (!value) {
      failed = true;
      continue;
    }
    if (!distinct.add(value)) {
      // The fix removes the element with the comma before it; in values listed without brackets
      // (E0111) the brackets come first, or the one value left would be no list.
      const previous = elements[index - 1]!;
      const removal = { start: previous.range.end, end: element.range.end };
      const text = textOf(context, element.range);
      const bare = elements[0]!.range.start.offset === listRange.start.offset;
      context.diagnostics.push(
        diagnose(
          "DuplicateListElement",
          element.range,
          { element: text },
          bare ? undefined : { message: `remove ${text}`, range: removal, replacement: "" },
        ),
      );
      continue;
    }
    values.push(value);
  }
  return failed ? undefined : values;
}

/** Reports E0201 (a value of another type than the field's), with the value rewritten where there is one; returns undefined. */
function mismatch(value: Scalar, context: ValueContext, found: string, replacement?: string): undefined {
  const { field } = context;
  const suggestion =
    replacement === undefined
      ? undefined
      : { message: `write ${replacement}`, range: value.range, replacement };
  context.diagnostics.push(
    diagnose(
      "ValueTypeMismatch",
      value.range,
      { field: field.name, type: typeWithArticle(field), found, replacement },
      suggestion,
    ),
  );
  return undefined;
}

/**
 * Checks one value against the field; `alone` when it is the comparison's only value (not an
 * element of a list), so that a fix may rewrite the whole comparison.
 */
function checkScalar(value: Scalar, context: ValueContext, alone: boolean): ScalarValue | undefined {
  const { field, diagnostics } = context;
  const type = valueTypeOf(field);
  /** E0309–E0311 for a word or string a number field cannot take, when it is one of those mistakes. */
  const numberWord = (text: string, written: string) => {
    if (type !== "int" && type !== "float") return false;
    const found = numberWordDiagnostic(text, written, value.range, {
      dataset: context.catalog.dataset,
      field,
      operator: context.operator,
      comparison: context.comparison,
      alone,
      syntax: context.syntax,
    });
    if (found) diagnostics.push(found);
    return found !== undefined;
  };
  switch (value.kind) {
    case "error":
      return undefined;
    case "word": {
      if (context.catalog.fields.has(value.name)) {
        diagnostics.push(diagnose("FieldAsValue", value.range, { word: value.name }));
        return undefined;
      }
      const lower = value.name.toLowerCase();
      if (type === "bool" && (lower === "true" || lower === "false"))
        return mismatch(value, context, `the word \`${value.name}\``, lower);
      if (numberWord(value.name, `\`${value.name}\``)) return undefined;
      if (type !== "string") return mismatch(value, context, `the word \`${value.name}\``);
      const replacement = stringLiteral(value.name);
      diagnostics.push(
        diagnose(
          "UnquotedString",
          value.range,
          { word: value.name, quoted: replacement },
          { message: `write ${replacement}`, range: value.range, replacement },
        ),
      );
      return undefined;
    }
    case "string": {
      if (type === "string") return { kind: "string", value: value.value };
      const found = `the string ${textOf(context, value.range)}`;
      if (type === "int" && isIntegerText(value.value))
        return mismatch(value, context, found, canonicalNumber(value.value));
      if (type === "int" && isTimestampField(field))
        return mismatch(value, context, found, nanosecondsOf(value.value));
      if (type === "float" && isNumberText(value.value))
        return mismatch(value, context, found, canonicalNumber(value.value));
      if (type === "bool" && (value.value === "true" || value.value === "false"))
        return mismatch(value, context, found, value.value);
      if (numberWord(value.value, textOf(context, value.range))) return undefined;
      return mismatch(value, context, found);
    }
    case "int": {
      if (!fitsInt64Range(value.digits)) {
        diagnostics.push(diagnose("IntegerOutOfRange", value.range, { text: value.digits }));
        return undefined;
      }
      if (type === "int" || type === "float") {
        const text = canonicalNumber(value.digits);
        if (isTimestampField(field)) checkTimestampUnit(text, value.range, context);
        return { kind: "number", text };
      }
      if (type === "string")
        return mismatch(value, context, `the integer ${value.digits}`, JSON.stringify(value.digits));
      return mismatch(value, context, `the integer ${value.digits}`);
    }
    case "decimal": {
      if (type === "float") return { kind: "number", text: canonicalNumber(value.text) };
      if (type === "int") {
        diagnostics.push(diagnose("DecimalOnIntField", value.range, { field: field.name, text: value.text }));
        return undefined;
      }
      if (type === "string")
        return mismatch(value, context, `the number ${value.text}`, JSON.stringify(value.text));
      return mismatch(value, context, `the number ${value.text}`);
    }
    case "bool": {
      if (type === "bool") return { kind: "bool", value: value.value };
      const text = String(value.value);
      if (type === "string") return mismatch(value, context, text, JSON.stringify(text));
      return mismatch(value, context, text);
    }
  }
}

/** RFC 3339 text's instant as the integer of nanoseconds a filter compares, when it is a whole one within 64 bits. */
function nanosecondsOf(text: string): string | undefined {
  const time = rfc3339Nanoseconds(text);
  const nanoseconds = time && !time.between ? String(time.nanoseconds) : undefined;
  return nanoseconds !== undefined && fitsInt64Range(nanoseconds) ? nanoseconds : undefined;
}

/**
 * The units a timestamp constant under 10^17 nanoseconds (before 1973-03-03) is likely written in,
 * by its size: seconds up to the year 5138, then milliseconds, then microseconds.
 */
const OTHER_UNITS = [
  { below: 10n ** 11n, unit: "seconds", nanoseconds: 10n ** 9n },
  { below: 10n ** 14n, unit: "milliseconds", nanoseconds: 10n ** 6n },
  { below: 10n ** 17n, unit: "microseconds", nanoseconds: 10n ** 3n },
];

/** Warns of a timestamp constant that reads as a time in another unit than nanoseconds, with that time in nanoseconds as the fix. */
function checkTimestampUnit(text: string, range: Range, context: ValueContext): void {
  const value = BigInt(text);
  const magnitude = value < 0n ? -value : value;
  const other = value === 0n ? undefined : OTHER_UNITS.find((unit) => magnitude < unit.below);
  if (!other) return;
  const nanoseconds = value * other.nanoseconds;
  const asUnit = rfc3339TextOf(nanoseconds);
  const replacement = String(nanoseconds);
  context.diagnostics.push(
    diagnose(
      "TimestampInOtherUnit",
      range,
      { value: text, field: context.field.name, instant: rfc3339TextOf(value), unit: other.unit, asUnit },
      fitsInt64Range(replacement)
        ? { message: `write ${asUnit} in nanoseconds`, range, replacement }
        : undefined,
    ),
  );
}

export { typeWithArticle };
