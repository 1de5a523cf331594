/**
 * Every diagnostic filterc reports, with its stable code and its message beside it.
 * Codes never change meaning: E00xx input limits and options, E01xx syntax, E02xx names,
 * E03xx types and values, E04xx emitted-filter limits, E05xx decompiler input,
 * E06xx custom-field and job settings (API module; E068x files a command writes), E07xx comparing
 * filters, E08xx SQL, E09xx Terraform files; W01xx warnings; W09xx notes on Terraform files.
 *
 * A project tunes the warnings and notes (docs/diagnostics.md): turns one off, makes it a note, a
 * warning or an error, or silences it in one place. No error is tunable: each one means the filter
 * has no JSON, or JSON that Logpush or the API refuses, or an input that is not read at all, and
 * `whyNotTunable` says which, for the message that refuses to turn one off.
 */
/** A note says what was not checked, and why: it is neither a mistake nor a risk. */
export type Severity = "error" | "warning" | "note";

interface Kind<Args> {
  code: string;
  severity: Severity;
  message: (args: Args) => string;
  /** The note beside each related location, for kinds that name several places. */
  related?: (args: Args) => string;
}

function kind<Args = Record<string, never>>(
  code: string,
  severity: Severity,
  message: (args: Args) => string,
  related?: (args: Args) => string,
): Kind<Args> {
  return related ? { code, severity, message, related } : { code, severity, message };
}

const quote = (text: string) => `\`${text}\``;

/** What each range of error codes means for the filter, which is why a project cannot tune its errors. */
const ERROR_CONSEQUENCES: Record<string, string> = {
  E00: "the input or an option is not read as given",
  E01: "the filter cannot be read, so it has no JSON",
  E02: "the filter names what Logpush does not filter on, so it has no JSON",
  E03: "the filter compares a value Logpush refuses or reads otherwise, so it has no JSON",
  E04: "Logpush refuses JSON past its limits",
  E05: "the Logpush JSON cannot be read",
  E06: "the API refuses the setting",
  E068: "the file is not written as asked",
  E07: "the filters cannot be compared",
  E08: "the SQL would not mean what the filter means",
  E09: "the Terraform file cannot be checked as written",
};

/**
 * Why a code cannot be tuned: what its error means for the filter; undefined for a warning or a
 * note, which a project may tune. The one place that says which codes are tunable.
 */
export function whyNotTunable(code: string, severity: Severity): string | undefined {
  if (severity !== "error") return undefined;
  return (
    ERROR_CONSEQUENCES[code.slice(0, 4)] ??
    ERROR_CONSEQUENCES[code.slice(0, 3)] ??
    "an error means the filter is wrong"
  );
}

/**
 * Where a limit is set, after it: ` (option maxBytes)` for a library caller, ` (--max-bytes)` on the
 * command line; nothing where the caller's user cannot change it (see OptionLabels).
 */
const setBy = (option: string | undefined) => (option === undefined ? "" : ` (${option})`);
/** The longest name a message repeats whole: every catalog's names are shorter (the longest is 37). */
const NAME_SHOWN = 64;

/** A name as a message repeats it: a longer one (pasted text, a whole line) cut with `…`, as the excerpt shows it all. */
const brief = (name: string) => (name.length > NAME_SHOWN ? `${name.slice(0, NAME_SHOWN)}…` : name);
/** A name as Logpush JSON writes it. */
const jsonQuote = (text: string) => JSON.stringify(text);

/**
 * "did you mean …?" after a message, with the name quoted as where it goes writes it: in backticks
 * for filter source, in double quotes for JSON. Every such hint is worded here.
 */
const didYouMean = (meant: string | undefined, quoted: (text: string) => string) =>
  meant === undefined ? "" : `; did you mean ${quoted(meant)}?`;

/** The rule of a zone's custom fields a message enforces (the seed's rules 1–4, listed in docs/api.md). */
const customFieldRule = (rule: 1 | 2 | 3 | 4) => ` (custom-field rule ${rule})`;

export const DiagnosticKind = {
  // Input limits and options.
  SourceTooLong: kind<{ length: number; limit: number; option: string | undefined }>(
    "E0001",
    "error",
    (a) => `the source is ${a.length} characters long; the limit is ${a.limit}${setBy(a.option)}`,
  ),
  NestingTooDeep: kind<{ limit: number; option: string | undefined }>(
    "E0002",
    "error",
    (a) =>
      `the filter nests deeper than ${a.limit} levels${setBy(a.option)}; flatten the parentheses or \`not\`s`,
  ),
  TooManyDiagnostics: kind<{ limit: number; option: string | undefined }>(
    "E0003",
    "error",
    (a) => `too many problems; only the first ${a.limit} are reported${setBy(a.option)}`,
  ),
  UnknownDataset: kind<{ dataset: string; known: string }>(
    "E0004",
    "error",
    (a) => `unknown dataset ${quote(brief(a.dataset))}; known datasets: ${a.known}`,
  ),
  NestingExhaustsStack: kind<{ limit: number; option: string | undefined }>(
    "E0005",
    "error",
    (a) =>
      `the filter nests too deeply for the parser before reaching the ${a.limit} levels${setBy(a.option)}; flatten the parentheses or \`not\`s${a.option === undefined ? "" : `, or lower ${a.option}`}`,
  ),
  InvalidOption: kind<{ problem: string }>("E0006", "error", (a) => a.problem),
  DirectiveAfterFilter: kind(
    "E0007",
    "error",
    () =>
      "`# dataset:` comes after the filter has begun; it names the dataset of the whole file: move it above the filter",
  ),
  DatasetConflict: kind<{ named: string; given: string }>(
    "E0008",
    "error",
    (a) =>
      `this file names the dataset ${quote(brief(a.named))}, but it is checked against ${quote(brief(a.given))} (--dataset, the dataset option, or the job's dataset); make them agree, or remove one`,
  ),
  DuplicateDirective: kind(
    "E0009",
    "error",
    () => "the file names its dataset twice; keep one `# dataset:` line",
    () => "the dataset is first named here",
  ),
  EmptyDirective: kind(
    "E0010",
    "error",
    () => "`# dataset:` names no dataset; write its name after the colon, like `# dataset: gateway_http`",
  ),
  UnknownDiagnosticCode: kind<{ setting: string; code: string; meant?: string | undefined; known: string }>(
    "E0015",
    "error",
    (a) =>
      `${a.setting} names ${quote(brief(a.code))}, which is no code of a warning or note (those that can be tuned are ${a.known}, and \`warnings\` for every warning)${didYouMean(a.meant, quote)}`,
  ),
  InvalidDiagnosticLevel: kind<{ setting: string; code: string; level: string }>(
    "E0016",
    "error",
    (a) =>
      `${a.setting} sets ${quote(brief(a.code))} to ${brief(a.level)}; a level is "off", "note", "warning" or "error"`,
  ),
  DiagnosticNotTunable: kind<{ setting: string; code: string; why: string }>(
    "E0017",
    "error",
    (a) =>
      `${a.setting} names ${quote(a.code)}, an error, which cannot be tuned: ${a.why}; only warnings and notes can`,
  ),

  // Syntax.
  UnexpectedCharacter: kind<{ text: string; hint: string }>(
    "E0101",
    "error",
    (a) => `unexpected character ${quote(a.text)}${a.hint}`,
  ),
  UnterminatedString: kind<{ quote: string; hint: string }>(
    "E0102",
    "error",
    (a) => `unterminated string: the line ends before its closing ${quote(a.quote)}${a.hint}`,
  ),
  InvalidEscape: kind<{ escape: string }>(
    "E0103",
    "error",
    (a) =>
      `invalid escape ${quote(a.escape)} in string; use \\" \\' \\\\ \\/ \\b \\f \\n \\r \\t or \\u and four hex digits`,
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
  BangBeforeOperator: kind<{ operator: string; replacement: string; banged: string }>(
    "E0107",
    "error",
    (a) =>
      `\`!${a.operator}\` is not an operator: \`!\` goes before ${a.banged} only; for the opposite of \`${a.operator}\` write ${quote(a.replacement)}`,
  ),
  ExponentNumber: kind<{ text: string; hint: string }>(
    "E0108",
    "error",
    (a) => `number ${quote(a.text)} has an exponent; Logpush takes plain digits${a.hint}`,
  ),
  CurlyQuotes: kind<{ text: string; replacement: string }>(
    "E0109",
    "error",
    (a) => `${quote(a.text)} is in curly quotes; filters take straight quotes: write ${a.replacement}`,
  ),
  NestedList: kind(
    "E0110",
    "error",
    () => 'lists do not nest; write the values in one list, like ["a", "b"]',
  ),
  WrongBrackets: kind<{ brackets: string | undefined; list: boolean; replacement: string | undefined }>(
    "E0111",
    "error",
    (a) =>
      `${a.list ? `a list is written in \`[ ]\`${a.brackets === undefined ? "" : `, not in \`${a.brackets}\``}` : `a value is written without \`${a.brackets}\``}${a.replacement === undefined ? "" : `: write ${a.replacement}`}`,
  ),
  KeywordSlip: kind<{ word: string; keyword: string }>(
    "E0112",
    "error",
    (a) => `${quote(a.word)} is not a keyword; did you mean ${quote(a.keyword)}?`,
  ),
  SourceNotText: kind<{ found: string }>(
    "E0113",
    "error",
    (a) => `the source must be a string (the filter's text), not ${a.found}`,
  ),

  // Names: fields and operators.
  UnknownField: kind<{ field: string; dataset: string; meant?: string }>(
    "E0201",
    "error",
    (a) => `unknown field ${quote(brief(a.field))} in dataset ${a.dataset}${didYouMean(a.meant, quote)}`,
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
  NotFilterable: kind<{ field: string; dataset: string; instead?: string | undefined }>(
    "E0204",
    "error",
    (a) =>
      `${quote(a.field)} cannot be used in filters of dataset ${a.dataset}: Logpush's documentation lists it among the fields a filter cannot use${a.instead === undefined ? "" : `; ${a.instead}`}`,
  ),
  UnknownOperator: kind<{ operator: string; meant?: string; known: string }>(
    "E0205",
    "error",
    (a) =>
      `unknown operator ${quote(brief(a.operator))}${
        a.meant === undefined ? `; operators are ${a.known}` : didYouMean(a.meant, quote)
      }`,
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
  ObjectMember: kind<{ name: string; object: string }>(
    "E0208",
    "error",
    (a) =>
      `${quote(a.name)} is a member of the object field ${quote(a.object)}, and Logpush cannot filter on what objects hold, custom fields' values included: a job can only deliver them`,
  ),

  // Types and values.
  OperatorNotForType: kind<{ operator: string; field: string; type: string; allowed: string }>(
    "E0301",
    "error",
    (a) => `${quote(a.operator)} cannot be used on ${quote(a.field)}, ${a.type} field; use ${a.allowed}`,
  ),
  ValueTypeMismatch: kind<{ field: string; type: string; found: string; replacement?: string | undefined }>(
    "E0302",
    "error",
    (a) =>
      `${quote(a.field)} is ${a.type} field, but the value is ${a.found}${a.replacement === undefined ? "" : `; write ${a.replacement}`}`,
  ),
  UnquotedString: kind<{ word: string; quoted: string }>(
    "E0303",
    "error",
    (a) => `${quote(a.word)} is not a value; quote text: ${a.quoted}`,
  ),
  ListRequired: kind<{ operator: string }>(
    "E0304",
    "error",
    (a) => `${quote(a.operator)} takes a list of values, like [200, 201]`,
  ),
  ListNotAllowed: kind<{ operator: string; listOperator?: string | undefined }>(
    "E0305",
    "error",
    (a) =>
      `${quote(a.operator)} takes one value, not a list${a.listOperator === undefined ? "" : `; to match any of several values, use ${quote(a.listOperator)}`}`,
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
  NameOfNumber: kind<{ value: string; what: string; number: string; field: string }>(
    "E0309",
    "error",
    (a) =>
      `${a.value} names the ${a.what} ${a.number}, and ${quote(a.field)} holds the number: write ${a.number}`,
  ),
  NumberWithUnit: kind<{ text: string; field: string; holds: string; advice: string }>(
    "E0310",
    "error",
    (a) => `${quote(a.text)} is a number with a unit, and ${quote(a.field)} holds ${a.holds}: ${a.advice}`,
  ),
  NumberClass: kind<{ text: string; low: string; high: string; replacement: string }>(
    "E0311",
    "error",
    (a) =>
      `${quote(a.text)} is not a number: it stands for ${a.low} to ${a.high}, which a filter compares as a range: ${a.replacement}`,
  ),

  // Limits of the emitted filter.
  TooManyOperators: kind<{
    count: number;
    limit: number;
    option: string | undefined;
    help: string | undefined;
  }>(
    "E0401",
    "error",
    (a) =>
      `the filter has ${a.count} comparisons; Logpush accepts at most ${a.limit}${setBy(a.option)}; this comparison crosses the limit${a.help === undefined ? "" : `; ${a.help}`}`,
  ),
  TooManyBytes: kind<{ bytes: number; limit: number; option: string | undefined; help: string | undefined }>(
    "E0402",
    "error",
    (a) =>
      `the filter JSON is ${a.bytes} bytes; Logpush accepts at most ${a.limit}${setBy(a.option)}; this comparison crosses the limit${a.help === undefined ? "" : `; ${a.help}`}`,
  ),

  // Decompiler input: Logpush JSON read back. `at` is the JSON pointer with ": " after it, or "" at the top.
  InputTooLong: kind<{ length: number; limit: number; option: string | undefined }>(
    "E0501",
    "error",
    (a) => `the input is ${a.length} characters long; the limit is ${a.limit}${setBy(a.option)}`,
  ),
  InvalidJson: kind<{ problem: string }>("E0502", "error", (a) => `invalid JSON: ${a.problem}`),
  NotAFilter: kind<{ at: string; found: string }>(
    "E0503",
    "error",
    (a) =>
      `${a.at}expected a filter {"where": …}, a job record with "filter", or the string a job stores; found ${a.found}`,
  ),
  MissingWhere: kind<{ at: string }>(
    "E0504",
    "error",
    (a) => `${a.at}the filter has no "where"; a filter is {"where": <comparison or group>}`,
  ),
  UnknownKey: kind<{ at: string; key: string; meant?: string; note?: string }>(
    "E0505",
    "error",
    (a) =>
      `${a.at}unknown key ${jsonQuote(a.key)}${a.note === undefined ? didYouMean(a.meant, jsonQuote) : `; ${a.note}`}`,
  ),
  NotNode: kind<{ at: string; key: string }>(
    "E0506",
    "error",
    (a) =>
      `${a.at}Logpush JSON has no ${JSON.stringify(a.key)}; negate the operators instead (eq → !eq, in → !in, lt → geq, …) and swap "and" with "or"`,
  ),
  MixedNode: kind<{ at: string; keys: string }>(
    "E0507",
    "error",
    (a) =>
      `${a.at}a node is either a comparison {"key", "operator", "value"} or one group {"and": […]} or {"or": […]}; this one has ${a.keys}`,
  ),
  MissingMember: kind<{ at: string; member: string }>(
    "E0508",
    "error",
    (a) =>
      `${a.at}the comparison has no ${JSON.stringify(a.member)}; a comparison is {"key", "operator", "value"}`,
  ),
  EmptyGroup: kind<{ at: string; group: string }>(
    "E0509",
    "error",
    (a) => `${a.at}${JSON.stringify(a.group)} needs at least one condition`,
  ),
  WrongJsonType: kind<{ at: string; what: string; expected: string; found: string }>(
    "E0510",
    "error",
    (a) => `${a.at}${a.what} must be ${a.expected}, found ${a.found}`,
  ),
  UnknownJsonOperator: kind<{ at: string; operator: string; meant?: string; known: string }>(
    "E0511",
    "error",
    (a) =>
      `${a.at}unknown operator ${jsonQuote(a.operator)}${
        a.meant === undefined ? `; Logpush operators are ${a.known}` : didYouMean(a.meant, jsonQuote)
      }`,
  ),
  CommaJoinedList: kind<{ at: string; operator: string; replacement: string }>(
    "E0512",
    "error",
    (a) =>
      `${a.at}${JSON.stringify(a.operator)} takes a JSON array, not a comma-joined string (Logpush rejects it); write ${a.replacement}`,
  ),
  NumberNotPlain: kind<{ at: string; text: string }>(
    "E0513",
    "error",
    (a) => `${a.at}the number ${a.text} has an exponent; write it with plain digits`,
  ),
  DuplicateKey: kind<{ at: string; key: string }>(
    "E0514",
    "error",
    (a) => `${a.at}${JSON.stringify(a.key)} appears more than once in this object`,
  ),

  // Custom log fields and job settings, checked before an API call (no source range: `path` names the setting).
  // A custom-fields rule's kinds end with the number of the rule they enforce (docs/api.md lists them).
  NoCustomFields: kind(
    "E0601",
    "error",
    () =>
      `no custom fields given; set at least one request header, response header or cookie (the rule needs one list), or remove them all with fields clear${customFieldRule(4)}`,
  ),
  InvalidHeaderName: kind<{ name: string }>(
    "E0602",
    "error",
    (a) =>
      `${JSON.stringify(a.name)} is not a valid header name; use letters, digits and !#$%&'*+-.^_\`|~ only${customFieldRule(2)}`,
  ),
  InvalidCookieName: kind<{ name: string }>(
    "E0603",
    "error",
    (a) =>
      `${JSON.stringify(a.name)} is not a valid cookie name; use letters, digits and !#$%&'*+-.^_\`|~ only${customFieldRule(2)}`,
  ),
  UnsupportedHeader: kind<{ name: string }>(
    "E0604",
    "error",
    (a) => `the ${quote(a.name)} request header cannot be logged as a custom field${customFieldRule(2)}`,
  ),
  DuplicateCustomField: kind<{ name: string }>(
    "E0605",
    "error",
    (a) => `${JSON.stringify(a.name)} is listed more than once${customFieldRule(3)}`,
  ),
  RawAndTransformed: kind<{ name: string }>(
    "E0606",
    "error",
    (a) =>
      `the header ${JSON.stringify(a.name)} is listed both raw and transformed; a header is logged one way, not both${customFieldRule(3)}`,
  ),
  TooManyCustomFields: kind<{ count: number; limit: number }>(
    "E0607",
    "error",
    (a) =>
      `${a.count} custom fields given; a zone takes at most ${a.limit} across all lists${customFieldRule(4)}`,
  ),
  InvalidDestination: kind<{ destination: string; reason: string }>(
    "E0610",
    "error",
    (a) => `invalid destination ${JSON.stringify(a.destination)}: ${a.reason}`,
  ),
  NoJobFields: kind(
    "E0611",
    "error",
    () =>
      "no fields given; a job selects at least one field of its dataset (e.g. ClientIP,EdgeStartTimestamp)",
  ),
  UnknownJobField: kind<{ field: string; dataset: string; meant?: string }>(
    "E0612",
    "error",
    (a) => `unknown field ${quote(a.field)} in dataset ${quote(a.dataset)}${didYouMean(a.meant, quote)}`,
  ),
  DuplicateJobField: kind<{ field: string }>(
    "E0613",
    "error",
    (a) => `the field ${quote(a.field)} is selected more than once`,
  ),
  InvalidTimestamps: kind<{ value: string; known: string }>(
    "E0614",
    "error",
    (a) => `unknown timestamp format ${JSON.stringify(a.value)}; use one of ${a.known}`,
  ),
  UnknownJobDataset: kind<{ dataset: string; known: string }>(
    "E0615",
    "error",
    (a) => `unknown dataset ${quote(a.dataset)}; filterc checks jobs for ${a.known}`,
  ),
  InvalidFilter: kind<{ errors: number }>(
    "E0616",
    "error",
    (a) =>
      `the filter has ${a.errors} error${a.errors === 1 ? "" : "s"}; fix ${a.errors === 1 ? "it" : "them"} before sending the job`,
  ),
  InvalidIdentifier: kind<{ what: string; value: string; expected: string }>(
    "E0617",
    "error",
    (a) => `invalid ${a.what} ${JSON.stringify(a.value)}; expected ${a.expected}`,
  ),
  InvalidJobOption: kind<{ option: string; value: string; accepted: string }>(
    "E0618",
    "error",
    (a) => `${quote(a.option)} takes ${a.accepted}, not ${a.value}`,
  ),
  JobOptionNotForDataset: kind<{ option: string; dataset: string; datasets: string }>(
    "E0619",
    "error",
    (a) => `${quote(a.option)} applies to ${a.datasets} only, not to the dataset ${quote(a.dataset)}`,
  ),
  JobOptionCreateOnly: kind<{ option: string }>(
    "E0620",
    "error",
    (a) => `${quote(a.option)} is set when a job is created; a job's ${quote(a.option)} cannot change`,
  ),
  DatasetNotInScope: kind<{ dataset: string; scope: string; scopes: string; flag: string }>(
    "E0621",
    "error",
    (a) =>
      `the dataset ${quote(a.dataset)} has no ${a.scope}-level jobs; it exists at ${a.scopes} level (give ${a.flag})`,
  ),
  UnknownJobOption: kind<{ option: string; known: string }>(
    "E0622",
    "error",
    (a) => `unknown job option ${quote(a.option)}; known options: ${a.known}`,
  ),
  InvalidRecordTemplate: kind<{ reason: string }>(
    "E0623",
    "error",
    (a) =>
      `invalid record_template: ${a.reason}; a template holds text and actions {{ .Field }} or {{ "text" }} only`,
  ),
  JobOptionConflict: kind<{ option: string; other: string; reason: string }>(
    "E0624",
    "error",
    (a) => `${quote(a.option)} cannot be combined with ${quote(a.other)}: ${a.reason}`,
  ),
  InvalidLogpullOptions: kind<{ reason: string }>(
    "E0625",
    "error",
    (a) =>
      `invalid logpull_options: ${a.reason}; the older form is a query string such as fields=ClientIP,RayID&timestamps=rfc3339`,
  ),
  NeedsOutputOptions: kind<{ option: string }>(
    "E0626",
    "error",
    (a) =>
      `the job uses logpull_options (the older form), which has no ${quote(a.option)}; convert the job to output_options first (--to-output-options, or toOutputOptions: true)`,
  ),
  OwnershipChallengeRequired: kind<{ destination: string; command: string }>(
    "E0627",
    "error",
    (a) =>
      `the destination ${JSON.stringify(a.destination)} needs the token of its ownership challenge: run ${a.command}, then give the token from the file it names with --ownership-challenge-file FILE (ownershipChallenge)`,
  ),
  CustomFieldNotConfigured: kind<{ name: string; what: string; configured?: string }>(
    "E0628",
    "error",
    (a) =>
      `${JSON.stringify(a.name)} is not a configured ${a.what}, so it cannot be removed${a.configured === undefined ? "" : `; the zone has ${a.configured}`}`,
  ),
  InvalidCustomFieldRule: kind<{ member: string; value: string; expected: string }>(
    "E0629",
    "error",
    (a) =>
      `the custom-fields rule's ${a.member} is ${a.value}; it must be ${a.expected}${customFieldRule(1)}`,
  ),
  HeaderNotLowerCase: kind<{ name: string }>(
    "E0630",
    "error",
    (a) =>
      `the header name ${JSON.stringify(a.name)} is not lower case; write ${JSON.stringify(a.name.toLowerCase())}${customFieldRule(2)}`,
  ),
  InvalidCustomFieldShape: kind<{ reason: string }>(
    "E0631",
    "error",
    (a) => `${a.reason}${customFieldRule(1)}`,
  ),
  TooManyInCustomFieldList: kind<{ count: number; what: string; list: string; limit: number }>(
    "E0632",
    "error",
    (a) =>
      `${a.count} ${a.what} given (${a.list}); the service takes at most ${a.limit} in each list${customFieldRule(4)}`,
  ),
  // Log Explorer datasets and Instant Logs sessions (the API module).
  ExplorerDatasetNotFound: kind<{ scope: string; dataset: string; known: string }>(
    "E0650",
    "error",
    (a) => `the ${a.scope} has no Log Explorer dataset of type ${quote(a.dataset)}; it has ${a.known}`,
  ),
  ExplorerDatasetsOfOneType: kind<{ dataset: string; ids: string }>(
    "E0651",
    "error",
    (a) =>
      `several Log Explorer datasets are of type ${quote(a.dataset)} (${a.ids}); name one by its ID (--id, datasetId)`,
  ),
  InvalidInstantLogsSample: kind<{ value: string; most: number }>(
    "E0652",
    "error",
    (a) =>
      `an Instant Logs sample is a whole number from 1 (every record) to ${a.most} (one record in ${a.most}), not ${a.value}`,
  ),

  // Files a command writes (check --fix, fmt --write, jobs pull): each left as it is, and why.
  FileChangedSinceRead: kind(
    "E0680",
    "error",
    () =>
      "not written: the file changed after filterc read it, so it is left as it now is; run the command again on what it holds now",
  ),
  WriteOutsideNamedPaths: kind(
    "E0681",
    "error",
    () =>
      "not written: the file is outside the paths named on the command line (reached through `file()` or a symbolic link); name it, or a folder holding it, for it to be written",
  ),
  FileNotWritten: kind<{ reason: string }>(
    "E0682",
    "error",
    (a) => `not written: ${a.reason}; the file is left as it is`,
  ),

  // Comparing filters (diff, test).
  DatasetsDiffer: kind<{ dataset: string; other: string; otherName: string }>(
    "E0700",
    "error",
    (a) =>
      `this filter is read with the dataset ${a.dataset}, and ${a.otherName} with ${a.other}: filters of different datasets select different records`,
  ),

  // SQL (filterc sql, toSql).
  NotExpressibleInSql: kind<{ engine: string; field: string; problem: string }>(
    "E0800",
    "error",
    (a) => `this comparison of ${quote(a.field)} cannot be written exactly in ${a.engine} SQL: ${a.problem}`,
  ),
  NoSuchColumn: kind<{ field: string; columns: string }>(
    "E0801",
    "error",
    (a) => `the table has no column ${quote(a.field)}; its columns are ${a.columns}`,
  ),

  // Terraform files (`filterc check` on .tf): problems where the configuration writes them.
  HclSyntax: kind<{ problem: string }>("E0900", "error", (a) => `invalid HCL: ${a.problem}`),
  TerraformFileNotRead: kind<{ reason: string }>(
    "E0901",
    "error",
    (a) => `the file is not checked: ${a.reason}`,
  ),
  HclTooDeep: kind<{ limit: number }>(
    "E0902",
    "error",
    (a) => `the file nests values deeper than ${a.limit} levels; it is not checked`,
  ),
  FilterNotString: kind<{ found: string }>(
    "E0903",
    "error",
    (a) =>
      `a job's filter is a string holding the filter JSON, not ${a.found}; write jsonencode({ where = … }) or a JSON string`,
  ),
  JobScope: kind<{ problem: string }>(
    "E0904",
    "error",
    (a) => `a job belongs to a zone or to an account: ${a.problem}`,
  ),
  DuplicateCustomFieldsRuleset: kind<{ first: string }>(
    "E0905",
    "error",
    (a) =>
      `the zone already has an http_log_custom_fields ruleset (${a.first}); a zone has one ruleset of a phase: keep its rules in one`,
  ),
  FileNotFilter: kind<{ file: string; problem: string; start: string }>(
    "E0906",
    "error",
    (a) => `the file ${a.file} that file() reads holds no filter (${a.problem}); it begins ${a.start}`,
  ),
  FilterBlock: kind(
    "E0907",
    "error",
    () =>
      "a job's filter is a string holding the filter JSON, not a block: the provider refuses filter { … }; write filter = jsonencode({ where = … })",
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
    (a) => `another comparison of ${quote(a.field)} that cannot hold with it`,
  ),
  AlwaysTrue: kind<{ field: string }>(
    "W0104",
    "warning",
    (a) =>
      `one of these comparisons of ${quote(a.field)} always holds when the field is present, so this part is always true`,
    (a) => `another comparison of ${quote(a.field)} that together with it always holds`,
  ),
  ComparisonNeverTrue: kind<{ field: string }>(
    "W0105",
    "warning",
    (a) =>
      `this comparison of ${quote(a.field)} holds for no value, so this part of the filter is always false`,
  ),
  ComparisonAlwaysTrue: kind<{ field: string }>(
    "W0106",
    "warning",
    (a) =>
      `this comparison of ${quote(a.field)} holds for every value when the field is present, so this part is always true`,
  ),
  UnseenCharacterInString: kind<{ name: string }>(
    "W0107",
    "warning",
    (a) =>
      `the string holds ${a.name}, a character that cannot be seen (a control, bidi or zero-width character); if it is meant, write it as an escape`,
  ),
  FilterNeverMatches: kind(
    "W0115",
    "warning",
    () => "no record can pass this filter, whatever its fields hold: the job would push nothing",
  ),
  FilterAlwaysMatches: kind(
    "W0116",
    "warning",
    () => "every record passes this filter, with its fields missing or holding any value: it filters nothing",
  ),
  TimestampInOtherUnit: kind<{ value: string; field: string; instant: string; unit: string; asUnit: string }>(
    "W0120",
    "warning",
    (a) =>
      `${a.value} compared with ${quote(a.field)} is ${a.instant} in unix nanoseconds, the unit Logpush compares timestamps in; read as ${a.unit} it would be ${a.asUnit}`,
  ),
  NearMissDirective: kind<{ dataset: string }>(
    "W0122",
    "warning",
    (a) =>
      `this comment is not read as a dataset directive, so the file is not checked against ${a.dataset}; write \`# dataset: ${a.dataset}\``,
  ),
  InOnArrayField: kind<{ operator: string; field: string; replacement: string }>(
    "W0123",
    "warning",
    (a) =>
      `Logpush's current documentation does not list ${quote(a.operator)} for array fields such as ${quote(a.field)} (the seed's operator table does, so filterc accepts it); the same filter with ${a.operator === "in" ? "`contains`" : "`!contains`"} is listed: ${a.replacement}`,
  ),
  AddressRange: kind<{ range: string; field: string; advice: string }>(
    "W0124",
    "warning",
    (a) =>
      `${a.range} is a range of addresses, but Logpush compares ${quote(a.field)} as text, and no address is written as a range: ${a.advice}`,
  ),
  PatternCharacter: kind<{ character: string; meaning: string; advice: string }>(
    "W0125",
    "warning",
    (a) =>
      `${quote(a.character)} is ${a.meaning} elsewhere, but Logpush compares text exactly, so here it stands for itself: ${a.advice}`,
  ),
  ValueNotAsLogged: kind<{ value: string; field: string; holds: string; replacement: string }>(
    "W0126",
    "warning",
    (a) =>
      `${quote(a.field)} holds ${a.holds}, and none of its values is written ${a.value}: write ${a.replacement}`,
  ),
  SeveralValuesInOne: kind<{ value: string; field: string; replacement: string }>(
    "W0127",
    "warning",
    (a) =>
      `${a.value} is one value holding commas, and no value of ${quote(a.field)} holds one; to match any of several values, list them: ${a.replacement}`,
  ),

  // `filterc-ignore` comments, which silence a warning or note on the line (or Terraform argument) after them.
  UnusedIgnore: kind<{ code: string }>(
    "W0150",
    "warning",
    (a) => `this \`filterc-ignore\` silences no ${a.code}: none is reported where it applies`,
  ),
  IgnoreWithoutReason: kind(
    "W0151",
    "warning",
    () =>
      "this `filterc-ignore` gives no reason; say why after a colon, like `# filterc-ignore W0120: the value is seconds`",
  ),
  MalformedIgnore: kind<{ problem: string }>(
    "W0152",
    "warning",
    (a) => `this \`filterc-ignore\` is not read: ${a.problem}`,
  ),
  IgnoreOfError: kind<{ code: string; why: string }>(
    "W0153",
    "warning",
    (a) => `${quote(a.code)} is an error, which no comment can silence: ${a.why}; fix what it reports`,
  ),
  IgnoreOfUnknownCode: kind<{ code: string; meant?: string | undefined }>(
    "W0154",
    "warning",
    (a) =>
      `${quote(brief(a.code))} is no code of a warning or note, so this \`filterc-ignore\` cannot silence it${didYouMean(a.meant, quote)}`,
  ),

  // Terraform files: notes (severity note), what could not be checked without running Terraform.
  NotReadStatically: kind<{ what: string; reason: string }>(
    "W0900",
    "note",
    (a) => `${a.what} is not checked: ${a.reason}`,
  ),
  JobNotice: kind<{ notice: string }>("W0901", "note", (a) => a.notice),
  FileOutsideFolder: kind<{ path: string; what: string; reason: string }>(
    "W0902",
    "warning",
    (a) =>
      `file(${a.path}) is not read, so ${a.what} is not checked: ${a.reason} (file() may read only files inside the folder checked or the repository that holds it)`,
  ),
  FilterDatasetUnknown: kind<{ dataset: string }>(
    "W0903",
    "note",
    (a) =>
      `this filter is checked against ${a.dataset}: it is no job's filter argument, and no dataset written as a string beside it says which dataset it filters`,
  ),
} as const;

export type DiagnosticKindName = keyof typeof DiagnosticKind;
export type ArgsOf<K extends DiagnosticKindName> = Parameters<(typeof DiagnosticKind)[K]["message"]>[0];
