import { type FieldInfo, type FieldUnit, namedNumbersOf, unitOf } from "../catalog/index.js";
import { type Diagnostic, diagnose, type Range, type Suggestion, unreachable } from "../diagnostics/index.js";
import { type CanonicalOperator, numberClass, numberWithUnit, type UnitWord } from "../syntax/index.js";
import { canonicalNumber, fitsInt64Range } from "./numbers.js";
import { type Around, type FixSyntax, type Rewritten, writeRewrite } from "./rewrite.js";

/*
 * What a number field's value written as a word or a string most likely meant: a name of a
 * numbered code (`"AAAA"` for the DNS record type 28, E0309), a number with a unit (`50ms`, E0310),
 * or a status class (`5xx`, E0311). Each says what was meant and, where it is sure, fixes it.
 */

/** What the checker knows of the comparison a value stands in. */
export interface NumberWordContext {
  dataset: string;
  field: FieldInfo;
  operator: CanonicalOperator;
  /** The comparison's range, replaced by a fix that rewrites it, and whether it is the whole filter. */
  comparison: { range: Range; around: Around };
  /** Whether the value is the comparison's only value (not an element of a list). */
  alone: boolean;
  syntax: FixSyntax;
}

/** The nanoseconds in one of each time unit a field counts in. */
const NANOSECONDS: Partial<Record<FieldUnit, bigint>> = {
  nanoseconds: 1n,
  microseconds: 1000n,
  milliseconds: 1_000_000n,
  seconds: 1_000_000_000n,
};

const write = (replacement: string, range: Range): Suggestion => ({
  message: `write ${replacement}`,
  range,
  replacement,
});

/**
 * The diagnostic for a word or string `text` a number field cannot take, when it is one of these
 * mistakes; undefined otherwise (the caller reports the plain type mismatch).
 */
export function numberWordDiagnostic(
  text: string,
  written: string,
  range: Range,
  context: NumberWordContext,
): Diagnostic | undefined {
  const { field } = context;
  const named = namedNumbersOf(context.dataset, field.name)?.byName.get(text.toUpperCase());
  if (named !== undefined)
    return diagnose(
      "NameOfNumber",
      range,
      {
        value: written,
        what: namedNumbersOf(context.dataset, field.name)!.what,
        number: named,
        field: field.name,
      },
      write(named, range),
    );
  const withUnit = numberWithUnit(text);
  if (withUnit) return unitDiagnostic(text, withUnit, range, context);
  const span = numberClass(text);
  if (span) return classDiagnostic(text, span, range, context);
  return undefined;
}

function unitDiagnostic(
  text: string,
  written: { digits: string; unit: UnitWord },
  range: Range,
  context: NumberWordContext,
): Diagnostic {
  const { field } = context;
  const fieldUnit = unitOf(field);
  const holds = fieldUnit === undefined ? "a plain number" : `a plain number of ${fieldUnit}`;
  const report = (advice: string, replacement?: string) =>
    diagnose(
      "NumberWithUnit",
      range,
      { text, field: field.name, holds, advice },
      replacement === undefined ? undefined : write(replacement, range),
    );
  const { unit } = written;
  const fieldSize = fieldUnit === "bytes" ? 1n : fieldUnit === undefined ? undefined : NANOSECONDS[fieldUnit];
  const fieldKind = fieldUnit === undefined ? undefined : fieldUnit === "bytes" ? "bytes" : "time";
  if (fieldKind === undefined)
    return report(`write the number alone, in the unit \`${field.name}\` counts in`);
  if (fieldKind !== unit.kind) return report(`write a number of ${fieldUnit}, not of ${unit.name}`);
  if (unit.size === undefined)
    return report(
      `write the number of bytes (a ${unit.name.slice(0, -1)} is read as 1000 or as 1024 bytes; KiB, MiB and GiB are 1024-based)`,
    );
  const converted = convert(written.digits, unit.size, fieldSize!);
  if (converted === undefined)
    return report(`${written.digits} ${unit.name} is not a whole number of ${fieldUnit}`);
  if (!fitsInt64Range(converted))
    return report(`${written.digits} ${unit.name} is ${converted} ${fieldUnit}, which does not fit 64 bits`);
  return report(`write ${converted}`, converted);
}

/** `digits` (a decimal) of units of `size` in units of `into`, when it is a whole number. */
function convert(digits: string, size: bigint, into: bigint): string | undefined {
  const [whole, fraction = ""] = digits.split(".");
  const scale = 10n ** BigInt(fraction.length);
  const numerator = BigInt(`${whole}${fraction}`) * size;
  const denominator = scale * into;
  if (numerator % denominator !== 0n) return undefined;
  return canonicalNumber(String(numerator / denominator));
}

/** The comparisons a class such as `5xx` stands for with each operator (500 to 599). */
function classComparisons(
  operator: CanonicalOperator,
  low: string,
  high: string,
): { join: "and" | "or"; parts: [CanonicalOperator, string][] } | undefined {
  const above = String(BigInt(high) + 1n);
  switch (operator) {
    case "eq":
      return {
        join: "and",
        parts: [
          ["geq", low],
          ["lt", above],
        ],
      };
    case "!eq":
      return {
        join: "or",
        parts: [
          ["lt", low],
          ["geq", above],
        ],
      };
    case "lt":
      return { join: "and", parts: [["lt", low]] };
    case "leq":
      return { join: "and", parts: [["lt", above]] };
    case "gt":
      return { join: "and", parts: [["geq", above]] };
    case "geq":
      return { join: "and", parts: [["geq", low]] };
    // A class as a list element, a prefix or a substring is no range.
    case "in":
    case "!in":
    case "contains":
    case "!contains":
    case "startsWith":
    case "!startsWith":
    case "endsWith":
    case "!endsWith":
      return undefined;
    default:
      return unreachable(operator);
  }
}

function classDiagnostic(
  text: string,
  span: { low: string; high: string },
  range: Range,
  context: NumberWordContext,
): Diagnostic {
  const { field, operator } = context;
  const meant = context.alone ? classComparisons(operator, span.low, span.high) : undefined;
  const parts = meant ?? {
    join: "and" as const,
    parts: [
      ["geq", span.low],
      ["lt", String(BigInt(span.high) + 1n)],
    ] as [CanonicalOperator, string][],
  };
  const comparisons: Rewritten[] = parts.parts.map(([op, number]) => ({
    field,
    operator: op,
    value: { kind: "number", text: number },
  }));
  const rewrite = { join: parts.join, comparisons };
  const shown = writeRewrite(rewrite, "source", "nothing");
  const replacement = meant ? writeRewrite(rewrite, context.syntax, context.comparison.around) : undefined;
  return diagnose(
    "NumberClass",
    range,
    { text, low: span.low, high: span.high, replacement: `\`${shown}\`` },
    replacement === undefined
      ? undefined
      : { message: `write ${shown}`, range: context.comparison.range, replacement },
  );
}
