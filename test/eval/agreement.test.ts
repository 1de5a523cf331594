import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { check, isListOperator, operatorsFor } from "../../src/check/index.js";
import { decompile } from "../../src/decompile/index.js";
import { emit } from "../../src/emit/index.js";
import {
  compileBlockFilter,
  compileLineFilter,
  compilePredicate,
  LineVerdict,
} from "../../src/eval/index.js";
import { type JsonNode, mutate, mutation, shallowNode, whitespace, writeJson } from "./json-lines.js";

/** A few fields of http_requests per type, and value pools small enough that records often match. */
const fields = {
  string: ["ClientCountry", "ClientRequestHost", "ClientRequestPath"],
  int: ["EdgeResponseStatus", "BotScore", "EdgeStartTimestamp"],
  float: ["EdgeResponseCompressionRatio"],
  bool: ["CacheReserveUsed", "WorkerSubrequest"],
  stringArray: ["BotTags", "SecurityActions"],
  intArray: ["BotDetectionIDs"],
} as const;
type Kind = keyof typeof fields;
const kindOf = new Map<string, Kind>(
  Object.entries(fields).flatMap(([kind, names]) => names.map((name) => [name, kind as Kind])),
);

const strings = fc.constantFrom(
  "us",
  "ca",
  "",
  "/api",
  "/api/v1",
  "é",
  "😀",
  'a"b',
  "a\\b",
  "x y",
  "US",
  "api",
);
const ints = fc.oneof(
  fc.constantFrom(
    "0",
    "200",
    "500",
    "-1",
    "1700000000000000000",
    "18446744073709551615",
    "-9223372036854775808",
  ),
  fc.integer({ min: -1000, max: 1000 }).map(String),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }).map(String),
);
const floats = fc.constantFrom("0", "0.5", "1.5", "2", "-0.25", "10.125");

const quote = (text: string) => JSON.stringify(text);
const list = (values: string[]) => `[${[...new Set(values)].join(", ")}]`;

function leafSource(kind: Kind): fc.Arbitrary<string> {
  return fc.constantFrom(...fields[kind]).chain((field) => {
    switch (kind) {
      case "string":
        return fc.oneof(
          fc
            .tuple(fc.constantFrom(...operatorsFor("string").filter((op) => !isListOperator(op))), strings)
            .map(([op, v]) => `${field} ${op} ${quote(v)}`),
          fc
            .tuple(fc.constantFrom("in", "!in"), fc.array(strings, { minLength: 1, maxLength: 3 }))
            .map(([op, vs]) => `${field} ${op} ${list(vs.map(quote))}`),
        );
      case "int":
      case "float": {
        const values = kind === "int" ? ints : floats;
        return fc.oneof(
          fc
            .tuple(fc.constantFrom("eq", "!eq", "lt", "leq", "gt", "geq"), values)
            .map(([op, v]) => `${field} ${op} ${v}`),
          fc
            .tuple(fc.constantFrom("in", "!in"), fc.array(values, { minLength: 1, maxLength: 3 }))
            .map(([op, vs]) => `${field} ${op} ${list(vs)}`),
        );
      }
      case "bool":
        return fc.tuple(fc.constantFrom("eq", "!eq"), fc.boolean()).map(([op, v]) => `${field} ${op} ${v}`);
      case "stringArray":
        return fc.oneof(
          fc
            .tuple(fc.constantFrom("contains", "!contains"), strings)
            .map(([op, v]) => `${field} ${op} ${quote(v)}`),
          fc
            .tuple(fc.constantFrom("in", "!in"), fc.array(strings, { minLength: 1, maxLength: 3 }))
            .map(([op, vs]) => `${field} ${op} ${list(vs.map(quote))}`),
        );
      case "intArray":
        return fc.oneof(
          fc.tuple(fc.constantFrom("contains", "!contains"), ints).map(([op, v]) => `${field} ${op} ${v}`),
          fc
            .tuple(fc.constantFrom("in", "!in"), fc.array(ints, { minLength: 1, maxLength: 3 }))
            .map(([op, vs]) => `${field} ${op} ${list(vs)}`),
        );
    }
  });
}

const leaf = fc.constantFrom(...(Object.keys(fields) as Kind[])).chain(leafSource);
const { expr } = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.tuple(tie("expr"), fc.constantFrom("and", "or"), tie("expr")).map(([a, op, b]) => `(${a} ${op} ${b})`),
    tie("expr").map((a) => `not ${a}`),
  ),
}));

/** A value of the field's type, written as a log would: ints as JSON numbers or numeric strings. */
function fieldValue(kind: Kind): fc.Arbitrary<unknown> {
  const intValue = ints.chain((text) =>
    Number.isSafeInteger(Number(text))
      ? fc.constantFrom<unknown>(Number(text), text)
      : fc.constant<unknown>(text),
  );
  switch (kind) {
    case "string":
      return strings;
    case "int":
      return intValue;
    case "float":
      return floats.chain((text) => fc.constantFrom<unknown>(Number(text), text));
    case "bool":
      return fc.boolean();
    case "stringArray":
      return fc.array(strings, { maxLength: 3 });
    case "intArray":
      return fc.array(intValue, { maxLength: 3 });
  }
}

const filterWithRecord = expr.chain((source) => {
  const names = [...new Set(source.match(/\b[A-Z]\w+/g))].filter((name) => kindOf.has(name));
  // Fields missing too: `not` means its push-down, so the source and its JSON agree without them.
  const record = fc.record(Object.fromEntries(names.map((name) => [name, fieldValue(kindOf.get(name)!)])), {
    requiredKeys: [],
  });
  return fc.tuple(fc.constant(source), record);
});

describe("evaluating a source and its emitted JSON", () => {
  it("agree on every record, the referenced fields present with their types or missing", () => {
    fc.assert(
      fc.property(filterWithRecord, ([source, record]) => {
        const checked = check(source);
        expect(checked.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
        const emitted = emit(checked.condition!);
        fc.pre(emitted.filter !== null && emitted.diagnostics.length === 0);
        const decoded = decompile(emitted.filter);
        expect(decoded.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
        const fromSource = compilePredicate(checked.condition!)(record);
        expect(compilePredicate(decoded.condition!)(record)).toBe(fromSource);
        // The raw-line filter (quick rejection, then parse) agrees with the predicate too.
        const verdict = compileLineFilter(checked.condition)(JSON.stringify(record));
        expect(verdict).toBe(fromSource ? LineVerdict.match : LineVerdict.miss);
      }),
      { numRuns: 2000 },
    );
  });
});

/** A field value as JSON: integer strings sometimes as number literals, strings sometimes with every character escaped. */
function valueNode(value: unknown, style: number): JsonNode {
  if (typeof value === "string")
    return style === 2 && /^-?\d+$/.test(value)
      ? { kind: "number", text: value }
      : { kind: "string", value, style: style === 1 ? 1 : 0 };
  if (typeof value === "number") return { kind: "number", text: JSON.stringify(value) };
  if (typeof value === "boolean") return { kind: "literal", text: value ? "true" : "false" };
  if (Array.isArray(value)) return { kind: "array", items: value.map((item) => valueNode(item, style)) };
  return { kind: "literal", text: "null" };
}

/** A filter and log lines holding its fields (typed or not, nested, duplicated), then broken variants. */
const filterWithLines = expr.chain((source) => {
  const names = [...new Set(source.match(/\b[A-Z]\w+/g))].filter((name) => kindOf.has(name));
  const keys = fc.oneof(fc.constantFrom(...names, "Other"), fc.string({ maxLength: 3 }));
  const typed = fc
    .tuple(fc.constantFrom(...names), fc.nat(3))
    .chain(([name, style]) =>
      fieldValue(kindOf.get(name)!).map(
        (value) =>
          [{ value: name, style: 0 }, valueNode(value, style)] as [
            { value: string; style: number },
            JsonNode,
          ],
      ),
    );
  const other = fc.tuple(fc.record({ value: keys, style: fc.constant(0) }), shallowNode(keys));
  const object = fc
    .array(fc.oneof({ weight: 3, arbitrary: typed }, other), { maxLength: 8 })
    .map((members): JsonNode => ({ kind: "object", members }));
  const line = fc.tuple(object, whitespace).map(([node, ws]) => writeJson(node, ws));
  return fc.tuple(
    fc.constant(source),
    fc.array(line, { minLength: 1, maxLength: 4 }),
    fc.array(mutation, { maxLength: 3 }),
  );
});

describe("the field reader, the block filter and JSON.parse of every line", () => {
  it("give the same verdicts on log lines, with and without the prefilter", () => {
    fc.assert(
      fc.property(filterWithLines, ([source, wellFormed, mutations]) => {
        const condition = check(source).meaning!;
        const broken = mutations.map((change, i) => mutate(wellFormed[i % wellFormed.length]!, change));
        const lines = [...wellFormed, ...wellFormed, ...broken, ...wellFormed];
        for (const prefilter of [true, false]) {
          const scanned = compileLineFilter(condition, { prefilter });
          const parsed = compileLineFilter(condition, { prefilter, fieldReader: false });
          expect(lines.map(scanned)).toEqual(lines.map(parsed));
        }
        // The block filter, on the lines as eval reads them: one block of UTF-8, decoded.
        const bytes = Buffer.from(lines.map((line) => `${line}\n`).join(""));
        const text = bytes.toString();
        const parsed = compileLineFilter(condition, { fieldReader: false });
        const block = compileBlockFilter(condition, compileLineFilter(condition))!;
        expect(block.load(bytes, text)).toBe(true);
        const verdicts: LineVerdict[] = [];
        const expected: LineVerdict[] = [];
        for (let start = 0, charStart = 0; start < bytes.length; ) {
          const end = bytes.indexOf(10, start);
          const charEnd = text.indexOf("\n", charStart);
          verdicts.push(block.test(start, end, charStart, charEnd));
          expected.push(parsed(text.slice(charStart, charEnd)));
          start = end + 1;
          charStart = charEnd + 1;
        }
        expect(verdicts).toEqual(expected);
      }),
      // Each run builds six filters and a block filter (with timestamp readers): 500 runs take about
      // 30 s on two loaded cores, where 2,000 ran past any sensible timeout.
      { numRuns: 500 },
    );
  }, 120_000);
});
