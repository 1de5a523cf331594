import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createCatalog } from "../../src/catalog/index.js";
import { compile } from "../../src/compile.js";
import { decompile } from "../../src/decompile/index.js";
import { loadCatalogFixture } from "../helpers/conformance.js";

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), "utf8"));

interface Vector {
  filter: string;
  expectValid: boolean;
}
const vectors: Vector[] = fixture("reference/filter-examples.json");
const expected: {
  index: number;
  dataset: string;
  ok: boolean;
  source: string | null;
  diagnostics: unknown[];
}[] = fixture("decompile/reference-vectors.expected.json");
const networkAnalytics = loadCatalogFixture("network_analytics_logs");

function summary(input: string, options = {}) {
  const result = decompile(input, options);
  return {
    ok: result.ok,
    source: result.source,
    diagnostics: result.diagnostics.map((d) => ({
      code: d.code,
      pointer: d.pointer,
      message: d.message,
      start: [d.range.start.line, d.range.start.column],
      end: [d.range.end.line, d.range.end.column],
      ...(d.suggestion ? { replacement: d.suggestion.replacement } : {}),
    })),
  };
}

describe("decompile: the 25 reference vectors", () => {
  it.each(vectors.map((vector, index) => [index, vector] as const))("vector %i", (index, vector) => {
    const want = expected[index]!;
    const options = want.dataset === "network_analytics_logs" ? { catalog: networkAnalytics } : {};
    const got = summary(vector.filter, options);
    expect(got.ok).toBe(vector.expectValid);
    expect(got).toEqual({ ok: want.ok, source: want.source, diagnostics: want.diagnostics });
  });

  it("names the pointer, the place and the right spelling of an unknown operator", () => {
    const [diagnostic] = decompile(vectors[20]!.filter).diagnostics;
    expect(diagnostic).toEqual({
      code: "E0511",
      severity: "error",
      message: '/where/and/0/operator: unknown operator "neq"; did you mean "!eq"?',
      pointer: "/where/and/0/operator",
      range: {
        start: { offset: 51, line: 1, column: 52 },
        end: { offset: 56, line: 1, column: 57 },
      },
      suggestion: {
        message: 'replace with "!eq"',
        range: {
          start: { offset: 51, line: 1, column: 52 },
          end: { offset: 56, line: 1, column: 57 },
        },
        replacement: '"!eq"',
      },
    });
  });

  it("compiles every valid vector's source back to the same meaning", () => {
    vectors.forEach((vector, index) => {
      const want = expected[index]!;
      if (!want.ok) return;
      const options = want.dataset === "network_analytics_logs" ? { catalog: networkAnalytics } : {};
      const compiled = compile(want.source!, { ...options, optimize: false });
      expect(compiled.ok).toBe(true);
      // The reference filters use one-element groups, which compile drops; compare after the same drop.
      expect(JSON.parse(compiled.filter!)).toEqual(dropSingleGroups(JSON.parse(vector.filter)));
    });
  });
});

function dropSingleGroups(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropSingleGroups);
  if (node === null || typeof node !== "object") return node;
  const entries = Object.entries(node as Record<string, unknown>).map(
    ([k, v]) => [k, dropSingleGroups(v)] as const,
  );
  const object = Object.fromEntries(entries) as Record<string, unknown>;
  for (const kind of ["and", "or"]) {
    const operands = object[kind];
    if (Array.isArray(operands) && operands.length === 1) return operands[0];
  }
  if (object.value !== undefined && typeof object.value !== "object") object.value = String(object.value);
  return object;
}

describe("decompile: inputs", () => {
  const filter = '{"where":{"key":"BotScore","operator":"lt","value":"30"}}';

  it.each([
    ["an empty string", ""],
    ["blanks", "  \n"],
    ["null", null],
    ["the JSON text null", "null"],
    ["the stored empty string", '""'],
    ["a job without a filter", '{"name":"j","filter":null}'],
    ["a job with an empty filter", '{"name":"j","filter":""}'],
  ])("reads %s as no filter", (_name, input) => {
    expect(decompile(input)).toEqual({ ok: true, condition: null, source: "", diagnostics: [] });
  });

  it.each([
    ["the filter text", filter],
    ["the string a job stores", JSON.stringify(filter)],
    ["a job record", JSON.stringify({ name: "j", dataset: "http_requests", filter })],
    ["an API envelope", JSON.stringify({ success: true, result: { id: 1, filter } })],
    ["a parsed filter object", JSON.parse(filter)],
    ["a parsed job record", { name: "j", filter }],
    ["a number value", '{"where":{"key":"BotScore","operator":"lt","value":30}}'],
  ])("reads %s", (_name, input) => {
    const result = decompile(input);
    expect(result.ok).toBe(true);
    expect(result.source).toBe("BotScore lt 30");
    expect(result.condition).toMatchObject({
      kind: "leaf",
      operator: "lt",
      value: { kind: "number", text: "30" },
    });
  });

  it("takes the dataset of a job record unless one is given", () => {
    const job = JSON.stringify({
      dataset: "dns_logs",
      filter: '{"where":{"key":"QueryName","operator":"eq","value":"example.com"}}',
    });
    expect(decompile(job).source).toBe('QueryName eq "example.com"');
    expect(decompile(job, { dataset: "http_requests" }).diagnostics.map((d) => d.code)).toEqual(["E0201"]);
  });

  it("keeps integer digits exactly and reads number-like strings on number fields", () => {
    const result = decompile(
      '{"where":{"and":[{"key":"EdgeResponseStatus","operator":"in","value":[18446744073709551615,"-9223372036854775808"]},{"key":"WAFAttackScore","operator":"geq","value":"007"}]}}',
    );
    expect(result.diagnostics).toEqual([]);
    expect(result.source).toBe(
      "EdgeResponseStatus in [18446744073709551615, -9223372036854775808]\n  and WAFAttackScore geq 7",
    );
  });

  it("reads bool values written as strings or booleans", () => {
    const source = (value: string) =>
      decompile(`{"where":{"key":"ClientRequestSource","operator":"eq","value":${value}}}`).source;
    expect(source('"eyeball"')).toBe('ClientRequestSource eq "eyeball"');
    const bool = (value: string) =>
      decompile(`{"where":{"key":"EdgeColoCode","operator":"eq","value":${value}}}`, {
        catalog: createCatalog("t", [{ name: "EdgeColoCode", type: "bool" }]),
      }).source;
    expect(bool('"true"')).toBe("EdgeColoCode eq true");
    expect(bool("false")).toBe("EdgeColoCode eq false");
  });
});

describe("decompile: bad input gives diagnostics with pointers, never a crash", () => {
  const cases: {
    name: string;
    input: string;
    diagnostics: [string, string | null, string, string | null][];
  }[] = fixture("decompile/bad-inputs.json");

  it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const result = decompile(c.input);
    expect(result.ok).toBe(false);
    expect(result.source).toBeNull();
    expect(result.condition).toBeNull();
    const got = result.diagnostics.map((d) => [
      d.code,
      d.pointer ?? null,
      c.input.slice(d.range.start.offset, d.range.end.offset),
      d.suggestion?.replacement ?? null,
    ]);
    expect(got).toEqual(c.diagnostics);
    for (const d of result.diagnostics)
      if (d.pointer) expect(d.message.startsWith(`${d.pointer}: `)).toBe(true);
  });

  it("reports the comma-joined in value on an int field with the array as the fix", () => {
    const result = decompile('{"where":{"key":"EdgeResponseStatus","operator":"!in","value":"200, 201"}}');
    expect(result.diagnostics.map((d) => [d.code, d.message, d.suggestion?.replacement])).toEqual([
      [
        "E0512",
        '/where/value: "!in" takes a JSON array, not a comma-joined string (Logpush rejects it); write [200,201]',
        "[200,201]",
      ],
    ]);
  });

  it("stops 10,000 levels of nesting before parsing", () => {
    const deep = `{"where":${'{"and":['.repeat(10_000)}`;
    const result = decompile(deep);
    expect(result.diagnostics.map((d) => [d.code, d.range.start.offset])).toEqual([
      ["E0002", 9 + 8 * 102 + 7],
    ]);
    expect(
      decompile("[".repeat(100_000), { maxInputLength: 200_000 }).diagnostics.map((d) => d.code),
    ).toEqual(["E0002"]);
  });

  it("refuses inputs over maxInputLength and reads a 1 MB filter when allowed", () => {
    const values = Array.from({ length: 60_000 }, (_, i) => `"host${i}.example.com"`).join(",");
    const big = `{"where":{"key":"ClientRequestHost","operator":"in","value":[${values}]}}`;
    expect(big.length).toBeGreaterThan(1_000_000);
    expect(decompile(big).diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["E0501", `the input is ${big.length} characters long; the limit is 100000 (option maxInputLength)`],
    ]);
    const allowed = decompile(big, { maxInputLength: 2_000_000 });
    expect(allowed.ok).toBe(true);
    expect(allowed.source!.split("\n").every((line) => line.length <= 80)).toBe(true);
  });

  it.each([
    ["a number", 42, ["E0503"]],
    ["a boolean", true, ["E0503"]],
    [
      "a cyclic object",
      (() => {
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        return cyclic;
      })(),
      ["E0502"],
    ],
    ["a BigInt in an object", { where: { value: 1n } }, ["E0502"]],
    ["an array", "[]", ["E0503"]],
    ["a stored string that is not an object", '"[1]"', ["E0503"]],
    ["a stored string with broken JSON", '"{\\"where\\":"', ["E0502", "E0502"]],
    ["an empty object", "{}", ["E0504"]],
  ])("reports %s", (_name, input, codes) => {
    const result = decompile(input);
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map((d) => d.code)).toEqual(codes);
  });
});

describe("decompile: the fixes of filters that can never match are JSON, and fix", () => {
  const leaf = (key: string, operator: string, value: unknown) =>
    JSON.stringify({
      where: {
        and: [
          { key: "BotScore", operator: "lt", value: "30" },
          { key, operator, value },
        ],
      },
    });
  it.each([
    ["W0124", leaf("ClientIP", "in", ["1.2.3.4", "10.0.0.0/8"])],
    ["W0125", leaf("ClientRequestHost", "eq", "*.example.com")],
    ["W0126", leaf("ClientCountry", "!in", ["US", "ca"])],
    ["W0127", leaf("ClientCountry", "in", ["us,ca"])],
    ["W0123", leaf("SecurityActions", "in", ["block", "log"])],
    ["E0304", leaf("ClientCountry", "in", "us,ca")],
    [
      "W0125",
      JSON.stringify({
        filter: JSON.stringify({
          where: { key: "ClientRequestPath", operator: "startsWith", value: "^/api" },
        }),
      }),
    ],
  ])("%s in %s", (code, input) => {
    const before = decompile(input).diagnostics.filter((d) => d.code === code);
    expect(before).toHaveLength(1);
    const { range, replacement } = before[0]!.suggestion!;
    const fixed = input.slice(0, range.start.offset) + replacement + input.slice(range.end.offset);
    const after = decompile(fixed);
    expect(after.diagnostics).toEqual([]);
    expect(after.ok).toBe(true);
  });

  it("reads a misspelt key's value as the field its fix names, and checks it against that field", () => {
    const misspelt = decompile('{"where":{"key":"botscore","operator":"lt","value":"30"}}');
    expect(misspelt.diagnostics.map((d) => d.code)).toEqual(["E0202"]);
    const both = decompile('{"where":{"key":"botscore","operator":"lt","value":"high"}}');
    expect(both.diagnostics.map((d) => [d.code, d.pointer])).toEqual([
      ["E0202", "/where/key"],
      ["E0302", "/where/value"],
    ]);
  });
});
