/**
 * Every diagnostic filterc reports, with its stable code and its message beside it.
 * Codes never change meaning: E00xx input limits and options, E01xx syntax, E02xx names,
 * E03xx types and values, E04xx emitted-filter limits, E05xx decompiler input; W01xx warnings.
 */
export type Severity = "error" | "warning";

interface Kind<Args> {
  code: string;
  severity: Severity;
  message: (args: Args) => string;
}

function kind<Args = Record<string, never>>(
  code: string,
  severity: Severity,
  message: (args: Args) => string,
): Kind<Args> {
  return { code, severity, message };
}

const quote = (text: string) => `\`${text}\``;

export const DiagnosticKind = {
  // Input limits and options.
  SourceTooLong: kind<{ length: number; limit: number }>(
    "E0001",
    "error",
    (a) => `the source is ${a.length} characters long; the limit is ${a.limit} (option maxSourceLength)`,
  ),
  NestingTooDeep: kind<{ limit: number }>(
    "E0002",
    "error",
    (a) =>
      `the filter nests deeper than ${a.limit} levels (option maxDepth); flatten the parentheses or \`not\`s`,
  ),
  TooManyDiagnostics: kind<{ limit: number }>(
    "E0003",
    "error",
    (a) => `too many problems; only the first ${a.limit} are reported (option maxDiagnostics)`,
  ),
  UnknownDataset: kind<{ dataset: string; known: string }>(
    "E0004",
    "error",
    (a) => `unknown dataset ${quote(a.dataset)}; known datasets: ${a.known}`,
  ),

  // Syntax.
  UnexpectedCharacter: kind<{ text: string; hint: string }>(
    "E0101",
    "error",
    (a) => `unexpected character ${quote(a.text)}${a.hint}`,
  ),
  UnterminatedString: kind(
    "E0102",
    "error",
    () => "unterminated string; close it with the quote it starts with",
  ),
  InvalidEscape: kind<{ escape: string }>(
    "E0103",
    "error",
    (a) => `invalid escape ${quote(a.escape)} in string; use \\" \\' \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX`,
  ),
  Expected: kind<{ expected: string; found: string }>(
    "E0104",
    "error",
    (a) => `expected ${a.expected}, found ${a.found}`,
  ),
  UnexpectedAfterEnd: kind<{ found: string }>(
    "E0105",
    "error",
    (a) => `unexpected ${a.found} after the end of the filter; join comparisons with \`and\` or \`or\``,
  ),
  LeadingZero: kind<{ text: string; fixed: string }>(
    "E0106",
    "error",
    (a) => `number ${quote(a.text)} has a leading zero; write ${quote(a.fixed)}`,
  ),

  // Names: fields and operators.
  UnknownField: kind<{ field: string; dataset: string; hint: string }>(
    "E0201",
    "error",
    (a) => `unknown field ${quote(a.field)} in dataset ${a.dataset}${a.hint}`,
  ),
  FieldWrongCase: kind<{ field: string; correct: string }>(
    "E0202",
    "error",
    (a) =>
      `unknown field ${quote(a.field)}; field names are case-sensitive: did you mean ${quote(a.correct)}?`,
  ),
  ObjectField: kind<{ field: string; docType: string }>(
    "E0203",
    "error",
    (a) => `${quote(a.field)} is an ${a.docType} field, and Logpush cannot filter on objects`,
  ),
  NotFilterable: kind<{ field: string; dataset: string }>(
    "E0204",
    "error",
    (a) => `${quote(a.field)} cannot be used in filters of dataset ${a.dataset}`,
  ),
  UnknownOperator: kind<{ operator: string; hint: string }>(
    "E0205",
    "error",
    (a) => `unknown operator ${quote(a.operator)}${a.hint}`,
  ),
  NotBeforeOperator: kind<{ operator: string; replacement: string }>(
    "E0206",
    "error",
    (a) => `\`not ${a.operator}\` is not an operator; write ${quote(a.replacement)}`,
  ),
  FieldAsValue: kind<{ word: string }>(
    "E0207",
    "error",
    (a) => `${quote(a.word)} is a field; filters compare a field with a constant, not with another field`,
  ),

  // Types and values.
  OperatorNotForType: kind<{ operator: string; field: string; type: string; allowed: string }>(
    "E0301",
    "error",
    (a) => `${quote(a.operator)} cannot be used on ${quote(a.field)}, ${a.type} field; use ${a.allowed}`,
  ),
  ValueTypeMismatch: kind<{ field: string; type: string; found: string; hint: string }>(
    "E0302",
    "error",
    (a) => `${quote(a.field)} is ${a.type} field, but the value is ${a.found}${a.hint}`,
  ),
  UnquotedString: kind<{ word: string }>(
    "E0303",
    "error",
    (a) => `${quote(a.word)} is not a value; quote text: "${a.word}"`,
  ),
  ListRequired: kind<{ operator: string }>(
    "E0304",
    "error",
    (a) => `${quote(a.operator)} takes a list of values, like [200, 201]`,
  ),
  ListNotAllowed: kind<{ operator: string; hint: string }>(
    "E0305",
    "error",
    (a) => `${quote(a.operator)} takes one value, not a list${a.hint}`,
  ),
  EmptyList: kind<{ operator: string }>(
    "E0306",
    "error",
    (a) => `${quote(a.operator)} needs at least one value in its list`,
  ),
  IntegerOutOfRange: kind<{ text: string }>(
    "E0307",
    "error",
    (a) =>
      `integer ${a.text} does not fit 64 bits; values range from -9223372036854775808 to 18446744073709551615`,
  ),
  DecimalOnIntField: kind<{ field: string; text: string }>(
    "E0308",
    "error",
    (a) => `${quote(a.field)} holds whole numbers; ${a.text} has a fraction`,
  ),

  // Limits of the emitted filter.
  TooManyOperators: kind<{ count: number; limit: number }>(
    "E0401",
    "error",
    (a) =>
      `the filter has ${a.count} comparisons; Logpush accepts at most ${a.limit} (option maxOperators); this comparison crosses the limit`,
  ),
  TooManyBytes: kind<{ bytes: number; limit: number }>(
    "E0402",
    "error",
    (a) =>
      `the filter JSON is ${a.bytes} bytes; Logpush accepts at most ${a.limit} (option maxBytes); this comparison crosses the limit`,
  ),

  // Warnings.
  DeprecatedField: kind<{ field: string }>("W0101", "warning", (a) => `${quote(a.field)} is deprecated`),
  DuplicateListElement: kind<{ element: string }>(
    "W0102",
    "warning",
    (a) => `${a.element} appears more than once in the list`,
  ),
  NeverTrue: kind<{ field: string }>(
    "W0103",
    "warning",
    (a) =>
      `these comparisons of ${quote(a.field)} can never all hold, so this part of the filter is always false`,
  ),
  AlwaysTrue: kind<{ field: string }>(
    "W0104",
    "warning",
    (a) =>
      `one of these comparisons of ${quote(a.field)} always holds when the field is present, so this part is always true`,
  ),
} as const;

export type DiagnosticKindName = keyof typeof DiagnosticKind;
export type ArgsOf<K extends DiagnosticKindName> = Parameters<(typeof DiagnosticKind)[K]["message"]>[0];
