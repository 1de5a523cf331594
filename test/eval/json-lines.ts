import fc from "fast-check";

/**
 * Log lines for property tests: JSON written in many ways (whitespace, escapes, number forms,
 * duplicate keys, nesting), and broken variants of it.
 */
export type JsonNode =
  | { kind: "literal"; text: "true" | "false" | "null" }
  | { kind: "number"; text: string }
  | { kind: "string"; value: string; style: number }
  | { kind: "array"; items: JsonNode[] }
  | { kind: "object"; members: [JsonKey, JsonNode][] };

export interface JsonKey {
  value: string;
  style: number;
}

/** How a string is written: 0 as JSON.stringify does, 1 every character as \uXXXX, 2 raw where allowed (lone surrogates too), `\/` for `/`. */
const STRING_STYLES = 3;

export const numberText: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
  fc.constantFrom(
    "0",
    "-0",
    "1e3",
    "1E3",
    "-1e-3",
    "1E+2",
    "0.5",
    "-0.0",
    "1.5e10",
    "1e400",
    "-1e400",
    "4.9e-325",
    "9007199254740993",
    "12345678901234567890",
    "-12345678901234567",
    "1234567890123456.5",
    "1234567890123456e1",
    "0.1e-1",
  ),
);

export const stringValue: fc.Arbitrary<string> = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.constantFrom(
    "",
    "us",
    'a"b',
    "a\\b",
    "/",
    "é",
    "😀",
    "\ud800",
    "\udc00x",
    "\u0000",
    "\u001f",
    "\t\n",
    "}",
    '",',
  ),
);

/** Mostly written as JSON.stringify does, sometimes with escapes where none are needed. */
const stringStyle = fc.oneof({ weight: 8, arbitrary: fc.constant(0) }, fc.nat(STRING_STYLES - 1));

const jsonKey = (keys: fc.Arbitrary<string>) => fc.record({ value: keys, style: stringStyle });

export const jsonScalar: fc.Arbitrary<JsonNode> = fc.oneof(
  fc.constantFrom("true", "false", "null").map((text) => ({ kind: "literal", text }) as JsonNode),
  numberText.map((text) => ({ kind: "number", text }) as JsonNode),
  fc.record({ value: stringValue, style: stringStyle }).map((s) => ({ kind: "string", ...s }) as JsonNode),
);

/** A scalar, or an array or object of scalars: a value of a log field. */
export function shallowNode(keys: fc.Arbitrary<string>): fc.Arbitrary<JsonNode> {
  return fc.oneof(
    { weight: 3, arbitrary: jsonScalar },
    fc.array(jsonScalar, { maxLength: 4 }).map((items) => ({ kind: "array", items }) as JsonNode),
    fc
      .array(fc.tuple(jsonKey(keys), jsonScalar), { maxLength: 4 })
      .map((members) => ({ kind: "object", members }) as JsonNode),
  );
}

/** A JSON tree of any depth; object keys come from `keys`. */
export function jsonNode(keys: fc.Arbitrary<string>): fc.Arbitrary<JsonNode> {
  const key = jsonKey(keys);
  const scalar = jsonScalar;
  const { node } = fc.letrec<{ node: JsonNode }>((tie) => ({
    node: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      scalar,
      fc.array(tie("node"), { maxLength: 4 }).map((items) => ({ kind: "array", items }) as JsonNode),
      fc
        .array(fc.tuple(key, tie("node")), { maxLength: 4 })
        .map((members) => ({ kind: "object", members }) as JsonNode),
    ),
  }));
  return node;
}

/**
 * A top-level object whose members have keys from `keys` and values from `value`; with `distinct`,
 * no key twice (as log lines are written).
 */
export function jsonObject(
  keys: fc.Arbitrary<string>,
  value: fc.Arbitrary<JsonNode>,
  distinct = false,
): fc.Arbitrary<JsonNode> {
  const members = fc.tuple(jsonKey(keys), value);
  return (
    distinct
      ? fc.uniqueArray(members, { maxLength: 8, selector: ([key]) => key.value })
      : fc.array(members, { maxLength: 8 })
  ).map((members) => ({ kind: "object", members }) as JsonNode);
}

/** Whitespace to put between tokens, used in turn. */
export const whitespace: fc.Arbitrary<string[]> = fc.oneof(
  fc.constant<string[]>([""]),
  fc.array(fc.constantFrom("", "", " ", "\t", "\n", "\r", "  ", " \r\n"), { minLength: 1, maxLength: 5 }),
);

/** JSON text for a tree, with the given whitespace between tokens (and around the whole). */
export function writeJson(node: JsonNode, whitespace: string[]): string {
  let turn = 0;
  const ws = () => whitespace[turn++ % whitespace.length]!;
  const write = (node: JsonNode): string => {
    switch (node.kind) {
      case "literal":
      case "number":
        return node.text;
      case "string":
        return writeString(node.value, node.style);
      case "array": {
        let out = `[${ws()}`;
        node.items.forEach((item, i) => {
          out += `${i > 0 ? `,${ws()}` : ""}${write(item)}${ws()}`;
        });
        return `${out}]`;
      }
      case "object": {
        let out = `{${ws()}`;
        node.members.forEach(([key, value], i) => {
          out += `${i > 0 ? `,${ws()}` : ""}${writeString(key.value, key.style)}${ws()}:${ws()}${write(value)}${ws()}`;
        });
        return `${out}}`;
      }
    }
  };
  return `${ws()}${write(node)}${ws()}`;
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};
const unicodeEscape = (unit: number) => `\\u${unit.toString(16).padStart(4, "0")}`;

export function writeString(value: string, style: number): string {
  if (style === 0) return JSON.stringify(value);
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    const char = value[i]!;
    if (style === 1) out += unicodeEscape(unit);
    else if (char === "/") out += "\\/";
    else if (SHORT_ESCAPES[char]) out += SHORT_ESCAPES[char];
    else out += unit < 0x20 ? unicodeEscape(unit) : char;
  }
  return `${out}"`;
}

/** Characters that break JSON in interesting places. */
const GARBAGE = [
  "{",
  "}",
  "[",
  "]",
  ",",
  ":",
  '"',
  "\\",
  " ",
  "\t",
  "\n",
  "0",
  "1",
  "9",
  "-",
  "+",
  ".",
  "e",
  "E",
  "t",
  "n",
  "x",
  "\u0000",
  "\u001f",
  "\ufeff",
  "é",
  "\ud800",
  "true",
  "null",
  '"a":1',
  "{}",
  "\\x",
  "\\u12",
  "\\U0041",
  "\\'",
];

export type Mutation =
  | { kind: "truncate"; at: number }
  | { kind: "insert"; at: number; text: string }
  | { kind: "delete"; at: number }
  | { kind: "replace"; at: number; text: string }
  | { kind: "wrap"; before: string; after: string }
  /** Inserts or replaces at the nth character of a class (digits, quotes, brackets…), where JSON is most fragile. */
  | { kind: "near"; target: number; nth: number; text: string; replace: boolean };

const TARGETS = [/[0-9]/, /"/, /\\/, /[[\]{}]/, /[,:]/, /[a-z]/, /[-.eE]/, /\s/];

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), text: fc.constantFrom(...GARBAGE) }),
  fc.record({ kind: fc.constant("delete" as const), at: fc.nat() }),
  fc.record({ kind: fc.constant("replace" as const), at: fc.nat(), text: fc.constantFrom(...GARBAGE) }),
  fc.record({
    kind: fc.constant("wrap" as const),
    before: fc.constantFrom("", "[", " ", "x", "\ufeff", "{"),
    after: fc.constantFrom("", "]", " ", "x", "}", ",", "\u0000", "{}"),
  }),
  fc.record({
    kind: fc.constant("near" as const),
    target: fc.nat(TARGETS.length - 1),
    nth: fc.nat(),
    text: fc.constantFrom(...GARBAGE, ""),
    replace: fc.boolean(),
  }),
);

export function mutate(line: string, change: Mutation): string {
  if (change.kind === "wrap") return change.before + line + change.after;
  if (change.kind === "near") {
    const target = TARGETS[change.target]!;
    const positions: number[] = [];
    for (let i = 0; i < line.length; i++) if (target.test(line[i]!)) positions.push(i);
    if (positions.length === 0) return line;
    const at = positions[change.nth % positions.length]!;
    return line.slice(0, at) + change.text + line.slice(change.replace ? at + 1 : at);
  }
  const at = change.at % (line.length + 1);
  switch (change.kind) {
    case "truncate":
      return line.slice(0, at);
    case "insert":
      return line.slice(0, at) + change.text + line.slice(at);
    case "delete":
      return line.slice(0, at) + line.slice(at + 1);
    case "replace":
      return line.slice(0, at) + change.text + line.slice(at + 1);
  }
}
