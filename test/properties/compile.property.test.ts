import { readFileSync } from "node:fs";
import Ajv from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { operatorAccepts } from "../../src/check/index.js";
import { decompile } from "../../src/decompile/index.js";
import { renderDiagnostics } from "../../src/diagnostics/index.js";
import {
  CANONICAL_OPERATORS,
  type Catalog,
  compile,
  type FieldInfo,
  getCatalog,
  type LogpushNode,
  parse,
} from "../../src/index.js";

const RUNS = 1000;
const catalog = getCatalog("http_requests") as Catalog;
const filterSchema = JSON.parse(
  readFileSync(new URL("../fixtures/reference/openapi/filter.schema.json", import.meta.url), "utf8"),
);
const validateFilter = new Ajv({ strict: false }).compile(filterSchema);

/** Line and column of an offset, computed independently of the parser: \n, \r\n and \r end lines. */
function positionOf(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = source[i];
    if (c === "\n" || (c === "\r" && source[i + 1] !== "\n")) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

type Ranged = { range: { start: Position; end: Position } };
type Position = { offset: number; line: number; column: number };

/** Every object with a `range` under `value`: AST nodes and diagnostics (with their suggestions). */
function rangedNodes(value: unknown, found: Ranged[] = []): Ranged[] {
  if (Array.isArray(value)) for (const item of value) rangedNodes(item, found);
  else if (value && typeof value === "object") {
    if ("range" in value) found.push(value as Ranged);
    for (const [key, child] of Object.entries(value)) if (key !== "range") rangedNodes(child, found);
  }
  return found;
}

function expectRangesInside(source: string, value: unknown): void {
  for (const node of rangedNodes(value)) {
    const { start, end } = node.range;
    expect(0 <= start.offset && start.offset <= end.offset && end.offset <= source.length).toBe(true);
    expect({ line: start.line, column: start.column }).toEqual(positionOf(source, start.offset));
    expect({ line: end.line, column: end.column }).toEqual(positionOf(source, end.offset));
  }
}

const languageTokens = [
  ...CANONICAL_OPERATORS,
  ...["==", "!=", "<", "<=", ">", ">=", "ne", "le", "ge", "not", "NOT", "and", "Or", "or", "&&", "||", "!"],
  ...["(", ")", "[", "]", ",", "=", "&", "|", "{", "}", ":", "#c\n", "\n", "\r\n", "\r", "\t"],
  ...["EdgeResponseStatus", "ClientIP", "ClientIp", "BotTags", "RequestHeaders", "true", "false", "x"],
  ...['"a"', "'b'", '"\\u00e9"', '"\\q"', '"open', "'", '"', "\\", "0", "007", "-1", "1.5", "-", "."],
  ...["18446744073709551616", "😀", "é", "\u2028", "\u0000"],
];

const tokenSoup = fc
  .array(fc.tuple(fc.constantFrom(...languageTokens), fc.constantFrom("", " ", "  ")), { maxLength: 40 })
  .map((parts) => parts.map(([token, space]) => token + space).join(""));
const nested = fc
  .tuple(fc.nat(130), fc.nat(130), fc.constantFrom("(", "not ", "!", "not ("), tokenSoup)
  .map(([open, close, opener, middle]) => opener.repeat(open) + middle + ")".repeat(close));
// A comparison whose list has empty slots, stray commas and brackets: `in [4,,2]`, `in [,]`, `in [[1]`.
const listSoup = fc
  .tuple(
    fc.constantFrom("EdgeResponseStatus", "ClientCountry", "BotTags", "ClientRequestHost"),
    fc.constantFrom("in", "!in", "eq", "contains"),
    fc.array(fc.constantFrom("4", '"a"', "true", "x", ",", ",", " ", "[", "]", "(", ")", "", "1.5"), {
      maxLength: 12,
    }),
    fc.constantFrom("]", "", "] and EdgeResponseStatus eq 1", ",]"),
  )
  .map(([field, operator, parts, close]) => `${field} ${operator} [${parts.join("")}${close}`);
const anyText = fc.oneof(
  listSoup,
  fc.string({ unit: "binary", maxLength: 200 }),
  fc.string({ unit: "grapheme", maxLength: 200 }),
  tokenSoup,
  nested,
);

describe("properties of the parser", () => {
  it("never throws, and every range lies inside the input with consistent line and column", () => {
    fc.assert(
      fc.property(anyText, (source) => {
        const parsed = parse(source);
        expectRangesInside(source, parsed);
        const compiled = compile(source);
        expectRangesInside(source, compiled.diagnostics);
        expect(typeof renderDiagnostics(compiled.diagnostics, source)).toBe("string");
      }),
      { numRuns: RUNS },
    );
  });
});

// Logpush JSON soup: the decompiler's input, broken in every way a hand or a tool breaks it.
const jsonTokens = [
  ...["{", "}", "[", "]", ",", ":", '"where"', '"and"', '"or"', '"not"', '"key"', '"operator"', '"value"'],
  ...['"BotScore"', '"ClientCountry"', '"lt"', '"in"', '"neq"', '"30"', "30", "1e3", "-0", "true", "null"],
  ...['"a,b"', '"\\u00e9"', '"\\q', '"', "\n", "\r\n", " ", "\uFEFF", "😀", "/*c*/", "//c\n"],
];
const jsonSoup = fc.array(fc.constantFrom(...jsonTokens), { maxLength: 40 }).map((parts) => parts.join(""));
const jsonText = fc.oneof(
  jsonSoup,
  jsonSoup.map((inner) => `{"where":${inner}}`),
  jsonSoup.map((inner) => JSON.stringify(`{"where":${inner}}`)),
);

describe("properties of the decompiler", () => {
  it("never throws; every range lies inside the input, and rendering it never throws", () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        const result = decompile(text);
        expectRangesInside(text, result.diagnostics);
        expect(typeof renderDiagnostics(result.diagnostics, text)).toBe("string");
      }),
      { numRuns: RUNS },
    );
  });
});

// Well-typed sources over the real catalog: a field, an operator its type takes, a value of its type.
const filterable = [...catalog.fields.values()].filter((field) => field.filterable);

const stringValue = fc.oneof(
  fc.constantFrom("", "a", "ab", "b", "/a", "é"),
  fc.string({ unit: "grapheme", maxLength: 12 }),
);
const intDigits = fc.oneof(
  fc.integer({ min: -3, max: 3 }).map(String),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }).map(String),
);
const floatText = fc.constantFrom("0", "0.5", "1.5", "-2.25", "10");

function scalarSource(field: FieldInfo): fc.Arbitrary<string> {
  const type = field.type === "array" ? field.elementType : field.type;
  switch (type) {
    case "int":
      return intDigits;
    case "float":
      return floatText;
    case "bool":
      return fc.constantFrom("true", "false");
    default:
      return stringValue.map((text) => JSON.stringify(text));
  }
}

const comparisonSource = (fields: FieldInfo[], values: (field: FieldInfo) => fc.Arbitrary<string>) =>
  fc.constantFrom(...fields).chain((field) => {
    const operators = CANONICAL_OPERATORS.filter((operator) => operatorAccepts(operator, field.type));
    return fc
      .constantFrom(...operators)
      .chain((operator) =>
        operator === "in" || operator === "!in"
          ? fc
              .uniqueArray(values(field), { minLength: 1, maxLength: 4 })
              .map((list) => `${field.name} ${operator} [${list.join(", ")}]`)
          : values(field).map((value) => `${field.name} ${operator} ${value}`),
      );
  });

function expressionSource(comparison: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const { expr } = fc.letrec<{ expr: string }>((tie) => ({
    expr: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      comparison,
      tie("expr").map((e) => `not (${e})`),
      fc
        .tuple(
          fc.constantFrom("and", "or", "&&", "||"),
          fc.array(tie("expr"), { minLength: 2, maxLength: 3 }),
        )
        .map(([join, operands]) => `(${operands.join(` ${join} `)})`),
    ),
  }));
  return expr;
}

const unlimited = { maxOperators: Number.POSITIVE_INFINITY, maxBytes: Number.POSITIVE_INFINITY };

function numberFieldNames(): Set<string> {
  return new Set(
    filterable
      .filter(
        (field) =>
          field.type === "int" ||
          field.type === "float" ||
          (field.type === "array" && field.elementType === "int"),
      )
      .map((field) => field.name),
  );
}

/** The seed's shape, beyond the schema: key order, string scalars, number lists for number fields, flat groups. */
function expectSeedShape(node: LogpushNode, numberFields: Set<string>, parent?: "and" | "or"): void {
  if ("key" in node) {
    expect(Object.keys(node)).toEqual(["key", "operator", "value"]);
    if (node.operator === "in" || node.operator === "!in") {
      expect(Array.isArray(node.value)).toBe(true);
      const elementType = numberFields.has(node.key) ? "number" : "string";
      for (const element of node.value as unknown[]) expect(typeof element).toBe(elementType);
    } else {
      expect(typeof node.value).toBe("string");
    }
    return;
  }
  const kind = "and" in node ? "and" : "or";
  expect(Object.keys(node)).toEqual([kind]);
  expect(kind).not.toBe(parent);
  const operands = "and" in node ? node.and : node.or;
  expect(operands.length).toBeGreaterThanOrEqual(2);
  for (const operand of operands) expectSeedShape(operand, numberFields, kind);
}

describe("properties of the emitted JSON", () => {
  const numberFields = numberFieldNames();
  const source = expressionSource(comparisonSource(filterable, scalarSource));

  it("validates against filter.schema.json and has the seed's exact shape", () => {
    fc.assert(
      fc.property(source, fc.boolean(), (text, optimize) => {
        const result = compile(text, { ...unlimited, optimize });
        expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
        const json = JSON.parse(result.filter!);
        expect(validateFilter(json)).toBe(true);
        expect(Object.keys(json)).toEqual(["where"]);
        expectSeedShape(json.where, numberFields);
        expect(result.stats.bytes).toBe(new TextEncoder().encode(result.filter!).length);
      }),
      { numRuns: RUNS },
    );
  });
});

/*
 * Negation push-down keeps the meaning. A tiny reference evaluator reads the source's AST (with
 * `not`); another reads the emitted JSON (without). On records holding every field with a value
 * of its type they must agree. Values come from small domains so that comparisons often hold.
 */
type FieldValue = string | number | boolean | (string | number)[];
type LogRecord = Record<string, FieldValue>;

const meaningFields = [
  "ClientRequestHost",
  "ClientCountry",
  "EdgeResponseStatus",
  "BotScore",
  "EdgeResponseCompressionRatio",
  "CacheTieredFill",
  "SecurityActions",
  "BotDetectionIDs",
].map((name) => catalog.fields.get(name)!);

const smallStrings = ["", "a", "ab", "b", "/a"];
const smallInts = [-1, 0, 1, 2, 3];
const smallFloats = [0, 0.5, 1.5];

function smallValueSource(field: FieldInfo): fc.Arbitrary<string> {
  const type = field.type === "array" ? field.elementType : field.type;
  if (type === "int") return fc.constantFrom(...smallInts).map(String);
  if (type === "float") return fc.constantFrom("0", "0.5", "1.50");
  if (type === "bool") return fc.constantFrom("true", "false");
  return fc.constantFrom(...smallStrings).map((text) => JSON.stringify(text));
}

function recordValue(field: FieldInfo): fc.Arbitrary<FieldValue> {
  switch (field.type) {
    case "int":
      return fc.constantFrom(...smallInts);
    case "float":
      return fc.constantFrom(...smallFloats);
    case "bool":
      return fc.boolean();
    case "array":
      return field.elementType === "int"
        ? fc.array(fc.constantFrom(...smallInts), { maxLength: 3 })
        : fc.array(fc.constantFrom(...smallStrings), { maxLength: 3 });
    default:
      return fc.constantFrom(...smallStrings);
  }
}

const logRecord = fc.record(
  Object.fromEntries(meaningFields.map((field) => [field.name, recordValue(field)])) as Record<
    string,
    fc.Arbitrary<FieldValue>
  >,
) as fc.Arbitrary<LogRecord>;

/** One operator on a present value; `in`/`contains` on an array hold when any element does. */
function holds(operator: string, actual: FieldValue, operand: FieldValue): boolean {
  if (operator.startsWith("!")) return !holds(operator.slice(1), actual, operand);
  if (Array.isArray(actual)) {
    if (operator === "in") return actual.some((element) => (operand as FieldValue[]).includes(element));
    return actual.includes(operand as string | number);
  }
  switch (operator) {
    case "eq":
      return actual === operand;
    case "in":
      return (operand as FieldValue[]).includes(actual as string | number);
    case "lt":
      return actual < operand;
    case "leq":
      return actual <= operand;
    case "gt":
      return actual > operand;
    case "geq":
      return actual >= operand;
    case "startsWith":
      return String(actual).startsWith(String(operand));
    case "endsWith":
      return String(actual).endsWith(String(operand));
    case "contains":
      return String(actual).includes(String(operand));
    default:
      throw new Error(`no such operator ${operator}`);
  }
}

/** A JSON value of a field as the record holds it: numbers for number fields, booleans for bool fields. */
function typed(field: FieldInfo, value: string): string | number | boolean {
  const type = field.type === "array" ? field.elementType : field.type;
  if (type === "int" || type === "float") return Number(value);
  if (type === "bool") return value === "true";
  return value;
}

type AstNode = ReturnType<typeof parse>["filter"]["expr"];

function evaluateSource(node: AstNode, record: LogRecord): boolean {
  switch (node!.kind) {
    case "and":
      return node!.operands.every((operand) => evaluateSource(operand, record));
    case "or":
      return node!.operands.some((operand) => evaluateSource(operand, record));
    case "not":
      return !evaluateSource(node!.operand, record);
    case "comparison": {
      const field = catalog.fields.get(node!.field.name)!;
      const operator = node!.operator.kind === "operator" ? node!.operator.op! : "";
      const scalar = (value: (typeof node & { kind: "comparison" })["value"]): string | number | boolean => {
        switch (value.kind) {
          case "string":
            return typed(field, value.value);
          case "int":
            return typed(field, value.digits);
          case "decimal":
            return typed(field, value.text);
          case "bool":
            return value.value;
          default:
            throw new Error(`unexpected value ${value.kind}`);
        }
      };
      const value = node!.value;
      const operand = value.kind === "list" ? value.elements.map(scalar) : scalar(value);
      return holds(operator, record[field.name]!, operand as FieldValue);
    }
    default:
      throw new Error(`unexpected node ${node!.kind}`);
  }
}

function evaluateJson(node: LogpushNode, record: LogRecord): boolean {
  if ("and" in node) return node.and.every((operand) => evaluateJson(operand, record));
  if ("or" in node) return node.or.some((operand) => evaluateJson(operand, record));
  const field = catalog.fields.get(node.key)!;
  const operand = Array.isArray(node.value)
    ? node.value.map((v) => typed(field, String(v)))
    : typed(field, node.value);
  return holds(node.operator, record[node.key]!, operand as FieldValue);
}

describe("properties of negation push-down", () => {
  const source = expressionSource(comparisonSource(meaningFields, smallValueSource));

  it("the emitted JSON means what the source means, with the optimizer on and off", () => {
    fc.assert(
      fc.property(source, fc.array(logRecord, { minLength: 1, maxLength: 8 }), (text, records) => {
        const ast = parse(text).filter.expr;
        for (const optimize of [true, false]) {
          const result = compile(text, { ...unlimited, optimize });
          expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
          const where = JSON.parse(result.filter!).where as LogpushNode;
          for (const record of records) expect(evaluateJson(where, record)).toBe(evaluateSource(ast, record));
        }
      }),
      { numRuns: RUNS },
    );
  });
});
