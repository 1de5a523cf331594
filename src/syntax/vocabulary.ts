import type { FieldType } from "../catalog/index.js";

/*
 * The vocabulary of the filter language: every operator with its spellings, negation, matrix row
 * and words; the logic words; the classes tokens fall into. The lexer's keyword tables, the
 * parser's operator tokens, the checker's matrix and near misses, explain, hover, completion,
 * semantic tokens and editor colours all derive from here. A new operator is one declaration
 * below plus its semantics in the evaluator.
 */

interface OperatorDeclaration {
  /** Other spellings the language accepts (symbols, short words); Logpush JSON takes only the canonical one. */
  aliases: readonly string[];
  /**
   * Spellings from other languages and the Instant Logs docs that mean it, and the same typed as
   * other characters (`≥`, full-width `＝＝`): offered as the fix, never accepted. The lexer scans
   * the symbols among them as one token, so `<>` is one unknown operator.
   */
  nearMisses: readonly string[];
  /** The operator that holds exactly when this one does not, for a present field. */
  negation: string;
  /** The value is a list. */
  list: boolean;
  /** `Field not OP value` means its negation. */
  infixNot: boolean;
  /** The field types it compares; on an array field it tests the elements. */
  accepts: readonly FieldType[];
  /** The operator meant when the value is a list (`eq [..]` → `in`) or the field an array (`eq` → `contains`). */
  onList?: string;
  onArray?: string;
  /** How a comparison reads in words (explain): for a field holding one value, and for an array field when it differs. */
  reads: { one: string; array?: string };
  /** What it does, for hover and completion. */
  meaning: string;
  /** The seed's name for it (its operator table, the dashboard's Operator list), in small letters. */
  label: string;
}

const scalarTypes = ["string", "int", "float", "bool"] as const;
const numberTypes = ["int", "float"] as const;

/** The 14 operators Logpush accepts, spelled as Logpush spells them, in the order lists show them. */
const declarations = {
  eq: {
    aliases: ["=="],
    nearMisses: ["equals", "equal", "is", "===", "=", "＝＝", "＝"],
    negation: "!eq",
    list: false,
    infixNot: false,
    accepts: scalarTypes,
    onList: "in",
    onArray: "contains",
    reads: { one: "is" },
    meaning: "equals the value",
    label: "equal",
  },
  "!eq": {
    aliases: ["!=", "ne"],
    nearMisses: ["neq", "nq", "noteq", "<>", "!==", "=!", "≠", "！＝"],
    negation: "eq",
    list: false,
    infixNot: false,
    accepts: scalarTypes,
    onList: "!in",
    onArray: "!contains",
    reads: { one: "is not" },
    meaning: "does not equal the value",
    label: "not equal",
  },
  lt: {
    aliases: ["<"],
    nearMisses: ["＜"],
    negation: "geq",
    list: false,
    infixNot: false,
    accepts: numberTypes,
    reads: { one: "is less than" },
    meaning: "is less than the value",
    label: "less than",
  },
  leq: {
    aliases: ["<=", "le"],
    nearMisses: ["lte", "=<", "≤", "⩽", "≦", "＜＝"],
    negation: "gt",
    list: false,
    infixNot: false,
    accepts: numberTypes,
    reads: { one: "is at most" },
    meaning: "is less than or equal to the value",
    label: "less than or equal",
  },
  gt: {
    aliases: [">"],
    nearMisses: ["＞"],
    negation: "leq",
    list: false,
    infixNot: false,
    accepts: numberTypes,
    reads: { one: "is greater than" },
    meaning: "is greater than the value",
    label: "greater than",
  },
  geq: {
    aliases: [">=", "ge"],
    nearMisses: ["gte", "=>", "≥", "⩾", "≧", "＞＝"],
    negation: "lt",
    list: false,
    infixNot: false,
    accepts: numberTypes,
    reads: { one: "is at least" },
    meaning: "is greater than or equal to the value",
    label: "greater than or equal",
  },
  startsWith: {
    aliases: [],
    nearMisses: ["prefix", "beginsWith"],
    negation: "!startsWith",
    list: false,
    infixNot: true,
    accepts: ["string"],
    reads: { one: "starts with" },
    meaning: "starts with the text",
    label: "starts with",
  },
  endsWith: {
    aliases: [],
    nearMisses: ["suffix"],
    negation: "!endsWith",
    list: false,
    infixNot: true,
    accepts: ["string"],
    reads: { one: "ends with" },
    meaning: "ends with the text",
    label: "ends with",
  },
  "!startsWith": {
    aliases: [],
    nearMisses: [],
    negation: "startsWith",
    list: false,
    infixNot: false,
    accepts: ["string"],
    reads: { one: "does not start with" },
    meaning: "does not start with the text",
    label: "does not start with",
  },
  "!endsWith": {
    aliases: [],
    nearMisses: [],
    negation: "endsWith",
    list: false,
    infixNot: false,
    accepts: ["string"],
    reads: { one: "does not end with" },
    meaning: "does not end with the text",
    label: "does not end with",
  },
  contains: {
    aliases: [],
    nearMisses: ["like", "has"],
    negation: "!contains",
    list: false,
    infixNot: true,
    accepts: ["string", "array"],
    reads: { one: "contains the text", array: "has an element" },
    meaning: "contains the text; on an array field, has the element",
    label: "contains",
  },
  "!contains": {
    aliases: [],
    nearMisses: ["notcontains", "not_contains"],
    negation: "contains",
    list: false,
    infixNot: false,
    accepts: ["string", "array"],
    reads: { one: "does not contain the text", array: "has no element" },
    meaning: "does not contain the text; on an array field, lacks the element",
    label: "does not contain",
  },
  in: {
    aliases: [],
    nearMisses: [],
    negation: "!in",
    list: true,
    infixNot: true,
    accepts: ["string", "int", "float", "array"],
    reads: { one: "is one of", array: "has an element that is one of" },
    meaning: "is one of the listed values; on an array field, has one of them",
    label: "value is in a set of values",
  },
  "!in": {
    aliases: [],
    nearMisses: ["nin", "notin", "not_in"],
    negation: "in",
    list: true,
    infixNot: false,
    accepts: ["string", "int", "float", "array"],
    reads: { one: "is none of", array: "has no element that is one of" },
    meaning: "is none of the listed values; on an array field, has none of them",
    label: "value is not in a set of values",
  },
} as const satisfies Record<string, OperatorDeclaration>;

/** One of the 14 operators the Logpush filter JSON takes (`eq`, `!eq`, `lt`, … `in`, `!in`). */
export type CanonicalOperator = keyof typeof declarations;

/** The operators that fail for a record lacking the field; each `!` operator is the negation of one of them. */
export type PositiveOperator = Exclude<CanonicalOperator, `!${string}`>;

/**
 * The positive operators that compare a field of `type` (on an array field, its elements), as
 * their declarations' `accepts` say: a stage's table of what each does on that type is keyed by
 * it, so a new operator is a type error in every table that lacks it.
 */
export type PositiveOperatorOn<Type extends FieldType> = {
  [Operator in PositiveOperator]: Type extends (typeof declarations)[Operator]["accepts"][number]
    ? Operator
    : never;
}[PositiveOperator];

/** Everything the stages know about one operator. */
export interface OperatorFacts {
  canonical: CanonicalOperator;
  aliases: readonly string[];
  nearMisses: readonly string[];
  negation: CanonicalOperator;
  /** Holds for a record that lacks the field: the `!` operators. */
  negative: boolean;
  /** The operator itself, or for a `!` operator the one it negates. */
  positive: PositiveOperator;
  list: boolean;
  infixNot: boolean;
  accepts: readonly FieldType[];
  onList?: CanonicalOperator;
  onArray?: CanonicalOperator;
  reads: { one: string; array?: string };
  meaning: string;
  label: string;
}

/** The 14 operators of the Logpush filter JSON. */
export const CANONICAL_OPERATORS = Object.keys(declarations) as CanonicalOperator[];

/**
 * The vocabulary: for each canonical operator, its aliases, near misses, negation, the field types it accepts and
 * its words.
 */
export const OPERATORS = {} as Record<CanonicalOperator, OperatorFacts>;
for (const canonical of CANONICAL_OPERATORS) {
  const declared: OperatorDeclaration = declarations[canonical];
  const negative = isNegativeOperator(canonical);
  OPERATORS[canonical] = {
    ...declared,
    canonical,
    negation: declared.negation as CanonicalOperator,
    negative,
    positive: (negative ? declared.negation : canonical) as PositiveOperator,
    onList: declared.onList as CanonicalOperator | undefined,
    onArray: declared.onArray as CanonicalOperator | undefined,
  };
}

/**
 * OPERATORS by name in a map: the checker and the meaning analysis look an operator up per
 * comparison, and a map read by a name that varies costs about half an object's.
 */
const factsByName: ReadonlyMap<string, OperatorFacts> = new Map(
  CANONICAL_OPERATORS.map((operator) => [operator, OPERATORS[operator]]),
);

/** Every operator, for messages: "eq, !eq, lt, … and !in". */
export const OPERATOR_NAMES = `${CANONICAL_OPERATORS.slice(0, -1).join(", ")} and ${CANONICAL_OPERATORS[CANONICAL_OPERATORS.length - 1]}`;

export function isCanonicalOperator(text: string): text is CanonicalOperator {
  return factsByName.has(text);
}

/** Every spelling the language accepts for an operator (canonical ones and aliases), with its canonical operator. */
export const OPERATOR_SPELLINGS: ReadonlyMap<string, CanonicalOperator> = new Map(
  CANONICAL_OPERATORS.flatMap((canonical) => [
    [canonical, canonical] as const,
    ...OPERATORS[canonical].aliases.map((alias) => [alias, canonical] as const),
  ]),
);

/**
 * The operator × type matrix: whether `operator` compares a field of `type`. Object fields take
 * nothing, and anything but one of the 14 canonical operators accepts nothing.
 */
export function operatorAccepts(operator: CanonicalOperator, type: FieldType): boolean {
  return factsByName.get(operator)?.accepts.includes(type) === true;
}

/** Whether a positive operator compares a field of `type`: narrows it to PositiveOperatorOn that type. */
export function isOperatorOn<Type extends FieldType>(
  operator: PositiveOperator,
  type: Type,
): operator is PositiveOperatorOn<Type> {
  return operatorAccepts(operator, type);
}

/** The operators a field of `type` accepts, in canonical order. */
export function operatorsFor(type: FieldType): CanonicalOperator[] {
  return CANONICAL_OPERATORS.filter((operator) => operatorAccepts(operator, type));
}

/** The operator that holds exactly when `operator` does not (for a present field): the pairs Logpush JSON needs for `not`. */
export function negateOperator(operator: CanonicalOperator): CanonicalOperator {
  return factsByName.get(operator)!.negation;
}

export function isListOperator(operator: CanonicalOperator): boolean {
  return factsByName.get(operator)!.list;
}

/** Whether the operator holds for a record that lacks the field: the `!` operators do, the others do not. */
export function isNegativeOperator(operator: CanonicalOperator): boolean {
  // The `!` its name starts with: the facts' lookup by a name that varies costs about 20 ns, a char
  // code 8 (the whole-filter search asks per comparison).
  return operator.charCodeAt(0) === 33;
}

/** The canonical operators with a `not` infix form (`Field not in [...]`), in canonical order. */
export const INFIX_NOT_OPERATORS = CANONICAL_OPERATORS.filter((operator) => OPERATORS[operator].infixNot);

/** The logic words: their spellings (the word in any letter case, then the symbol) and meaning. */
export const LOGIC = {
  and: { word: "and", symbol: "&&", meaning: "both sides must hold. Binds tighter than `or`." },
  or: { word: "or", symbol: "||", meaning: "either side must hold." },
  not: {
    word: "not",
    symbol: "!",
    meaning:
      "negates what follows, as the JSON a job runs does: Logpush JSON has no `not`, so the negation is pushed down to the comparisons (De Morgan), `eq` becoming `!eq`, `lt` becoming `geq` and so on. `not X lt 5` is `X geq 5`, which a record without `X` fails.",
  },
} as const;

type LogicWord = keyof typeof LOGIC;

/** The value words (case-sensitive). */
export const BOOLEAN_WORDS = ["true", "false"] as const;

/**
 * The punctuation of the language; braces are scanned only to say that a list takes `[ ]`
 * (`in {"us", "ca"}`, E0111).
 */
export const PUNCTUATION = ["(", ")", "[", "]", ",", "{", "}"] as const;
export type Punctuation = (typeof PUNCTUATION)[number];

/**
 * What a token is, as every stage after the parser sees it (none of them reads a token's name):
 * a field name, an operator, a logic word, a value, or punctuation.
 */
export type TokenFacts =
  | { class: "field" }
  | { class: "operator"; operator: CanonicalOperator }
  | { class: "logic"; logic: LogicWord }
  | { class: "value"; value: "string" | "number" | "bool"; unterminated?: true }
  | { class: "punctuation"; punctuation: Punctuation };
