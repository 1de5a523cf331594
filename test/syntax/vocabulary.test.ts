import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createLanguageService } from "../../src/service/index.js";
import {
  CANONICAL_OPERATORS,
  INFIX_NOT_OPERATORS,
  isNegativeOperator,
  negateOperator,
  OPERATOR_SPELLINGS,
  OPERATORS,
  operatorsFor,
  parse,
  scan,
  tokenFacts,
} from "../../src/syntax/index.js";

describe("the vocabulary", () => {
  it("declares the 14 Logpush operators, each negation a pair, each ! operator the negation of its positive one", () => {
    expect(CANONICAL_OPERATORS).toEqual([
      "eq",
      "!eq",
      "lt",
      "leq",
      "gt",
      "geq",
      "startsWith",
      "endsWith",
      "!startsWith",
      "!endsWith",
      "contains",
      "!contains",
      "in",
      "!in",
    ]);
    for (const operator of CANONICAL_OPERATORS) {
      expect(negateOperator(negateOperator(operator))).toBe(operator);
      const { positive, negative } = OPERATORS[operator];
      expect(negative).toBe(isNegativeOperator(operator));
      if (negative) expect(negateOperator(operator)).toBe(positive);
      else expect(positive).toBe(operator);
    }
  });

  it("holds the operator × type matrix", () => {
    expect(
      Object.fromEntries(
        ["string", "int", "float", "bool", "array", "object"].map((type) => [
          type,
          operatorsFor(type as never),
        ]),
      ),
    ).toEqual({
      string: [
        "eq",
        "!eq",
        "startsWith",
        "endsWith",
        "!startsWith",
        "!endsWith",
        "contains",
        "!contains",
        "in",
        "!in",
      ],
      int: ["eq", "!eq", "lt", "leq", "gt", "geq", "in", "!in"],
      float: ["eq", "!eq", "lt", "leq", "gt", "geq", "in", "!in"],
      bool: ["eq", "!eq"],
      array: ["contains", "!contains", "in", "!in"],
      object: [],
    });
  });

  it("lexes every spelling, canonical or alias, as one operator token of its canonical operator", () => {
    expect(
      [...OPERATOR_SPELLINGS.keys()].filter((spelling) => !CANONICAL_OPERATORS.includes(spelling as never)),
    ).toEqual(["==", "!=", "ne", "<", "<=", "le", ">", ">=", "ge"]);
    for (const [spelling, canonical] of OPERATOR_SPELLINGS) {
      const { tokens, errors } = scan(`X ${spelling} 1`);
      expect(errors).toEqual([]);
      expect(tokens.map((token) => tokenFacts(token))).toEqual([
        { class: "field" },
        { class: "operator", operator: canonical },
        { class: "value", value: "number" },
      ]);
    }
  });

  it("reads `not OP` as the negation exactly for the operators declared to take it", () => {
    expect(INFIX_NOT_OPERATORS).toEqual(["startsWith", "endsWith", "contains", "in"]);
    for (const operator of CANONICAL_OPERATORS) {
      const expr = parse(`X not ${operator} 1`).filter.expr;
      const op =
        expr?.kind === "comparison" && expr.operator.kind === "operator" ? expr.operator.op : undefined;
      expect(op, operator).toBe(OPERATORS[operator].infixNot ? negateOperator(operator) : null);
    }
  });

  it("classes every token: field, operator, logic, value, punctuation", () => {
    const { tokens } = scan(
      `(A eq "x" AND not B in [1, 2.5, true]) || !C !contains 'y' && D != false or E <= 3`,
    );
    expect(tokens.map((token) => [token.image, tokenFacts(token)])).toEqual([
      ["(", { class: "punctuation", punctuation: "(" }],
      ["A", { class: "field" }],
      ["eq", { class: "operator", operator: "eq" }],
      ['"x"', { class: "value", value: "string" }],
      ["AND", { class: "logic", logic: "and" }],
      ["not", { class: "logic", logic: "not" }],
      ["B", { class: "field" }],
      ["in", { class: "operator", operator: "in" }],
      ["[", { class: "punctuation", punctuation: "[" }],
      ["1", { class: "value", value: "number" }],
      [",", { class: "punctuation", punctuation: "," }],
      ["2.5", { class: "value", value: "number" }],
      [",", { class: "punctuation", punctuation: "," }],
      ["true", { class: "value", value: "bool" }],
      ["]", { class: "punctuation", punctuation: "]" }],
      [")", { class: "punctuation", punctuation: ")" }],
      ["||", { class: "logic", logic: "or" }],
      ["!", { class: "logic", logic: "not" }],
      ["C", { class: "field" }],
      ["!contains", { class: "operator", operator: "!contains" }],
      ["'y'", { class: "value", value: "string" }],
      ["&&", { class: "logic", logic: "and" }],
      ["D", { class: "field" }],
      ["!=", { class: "operator", operator: "!eq" }],
      ["false", { class: "value", value: "bool" }],
      ["or", { class: "logic", logic: "or" }],
      ["E", { class: "field" }],
      ["<=", { class: "operator", operator: "leq" }],
      ["3", { class: "value", value: "number" }],
    ]);
  });

  it("gives editors one set of highlights: the language service's, from the token classes", () => {
    const service = createLanguageService({ dataset: "http_requests" });
    const text = 'CacheResponseStatus eq 1 and (X ~ "a # b) # note';
    expect(
      service
        .highlights(text)
        .map((span) => [text.slice(span.offset, span.offset + span.length), span.kind, span.deprecated]),
    ).toEqual([
      ["CacheResponseStatus", "field", true],
      ["eq", "operator", false],
      ["1", "number", false],
      ["and", "logic", false],
      ["(", "punctuation", false],
      ["X", "field", false],
      ["~", "invalid", false],
      ['"a # b) # note', "string", false],
    ]);
    expect(service.semanticTokens("X eq 1 # c").map((token) => token.type)).toEqual([
      "property",
      "operator",
      "number",
      "comment",
    ]);
  });
});

describe("token names stay inside the syntax stage", () => {
  const src = fileURLToPath(new URL("../../src/", import.meta.url));
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : [];
    });

  it("has no file outside src/syntax read a token's type or name", () => {
    const readers = files(src)
      .filter((path) => !relative(src, path).startsWith("syntax"))
      .filter((path) => /\.tokenType\b|tokenTypeIdx|syntax\/tokens\.js/.test(readFileSync(path, "utf8")))
      .map((path) => relative(src, path));
    expect(readers).toEqual([]);
  });
});
