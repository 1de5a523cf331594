import { type Diagnostic, DiagnosticKind } from "../diagnostics/index.js";
import { CANONICAL_OPERATORS, OPERATOR_SPELLINGS, OPERATORS } from "../syntax/index.js";

/*
 * Which fixes `filterc check --fix` applies without asking, to filter source and to the Logpush
 * JSON of a Terraform job (src/terraform/filter-check.ts) alike: those with one
 * reading of what was written, which keep what it says (a spelling, a value in the form Logpush
 * reads, a range written as comparisons). A fix that guesses (a field by edit distance, the end of
 * an unterminated string, a timestamp's unit by its size) or that changes which records a filter
 * that compiles selects (an address range, a wildcard, a value's letter case) is left to the
 * editor, where it is read before it is taken.
 */

const code = (name: keyof typeof DiagnosticKind) => DiagnosticKind[name].code;

/** Codes whose every fix is safe. */
const ALWAYS_SAFE = new Set([
  code("LeadingZero"),
  code("BangBeforeOperator"),
  code("ExponentNumber"),
  code("CurlyQuotes"),
  code("WrongBrackets"),
  code("KeywordSlip"),
  code("FieldWrongCase"),
  code("NotBeforeOperator"),
  code("ValueTypeMismatch"),
  code("UnquotedString"),
  code("ListRequired"),
  code("ListNotAllowed"),
  code("NameOfNumber"),
  code("NumberWithUnit"),
  code("NumberClass"),
  code("DuplicateListElement"),
  code("UnseenCharacterInString"),
  code("InOnArrayField"),
  // In Logpush JSON: a comparison wrapped in {"where": …}, "500,502" as a JSON array.
  code("MissingWhere"),
  code("CommaJoinedList"),
]);

/** `and`, `or` and their symbols: what a stray `&`, `∧` or `｜｜` between comparisons is fixed to. */
const JOINERS = new Set(["&&", "||", "and", "or"]);

/** Every spelling the vocabulary declares for an operator, near misses included, in small letters. */
const DECLARED = new Set(
  [
    ...OPERATOR_SPELLINGS.keys(),
    ...CANONICAL_OPERATORS.flatMap((operator) => OPERATORS[operator].nearMisses),
  ].map((spelling) => spelling.toLowerCase()),
);

/** Whether `--fix` applies the diagnostic's fix to `source`, the text its range is in. */
export function isSafeFix(diagnostic: Diagnostic, source: string): boolean {
  const suggestion = diagnostic.suggestion;
  if (!suggestion) return false;
  if (ALWAYS_SAFE.has(diagnostic.code)) return true;
  const replaced = source.slice(suggestion.range.start.offset, suggestion.range.end.offset);
  switch (diagnostic.code) {
    case code("UnexpectedCharacter"):
      // A joiner typed another way, or characters that cannot be seen, deleted.
      return JOINERS.has(suggestion.replacement) || suggestion.replacement === "";
    case code("UnknownOperator"):
      return isOperatorRespelled(replaced, suggestion.replacement);
    case code("UnknownJsonOperator"):
      // The same, each a JSON string.
      return isOperatorRespelled(jsonString(replaced), jsonString(suggestion.replacement));
    default:
      return false;
  }
}

/**
 * The operator in another letter case, or a spelling the vocabulary declares (`neq`, `≥`), not
 * one guessed by edit distance, nor `like`'s rewrite of the value.
 */
function isOperatorRespelled(written: string | undefined, replacement: string | undefined): boolean {
  if (written === undefined || replacement === undefined) return false;
  const spelled = written.trim().toLowerCase();
  return (
    OPERATOR_SPELLINGS.has(replacement) && (spelled === replacement.toLowerCase() || DECLARED.has(spelled))
  );
}

/** The text of a JSON string literal; undefined for other JSON or none. */
function jsonString(text: string): string | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}
