import { readFileSync, writeFileSync } from "node:fs";
import Ajv from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DIAGNOSTIC_LEVELS, EVERY_WARNING, TUNABLE_CODES } from "../../src/diagnostics/index.js";
import { ConfigError, readConfig } from "../../src/files/index.js";

/*
 * A filterc.json's `diagnostics`: levels by code, held to the codes of src/diagnostics/kinds.ts both
 * by the loader and by the JSON Schema, a static file kept to that table here.
 * `FILTERC_REWRITE_SCHEMA=1 npx vitest run test/files/diagnostics-config.test.ts` writes the
 * schema's list of codes anew after a warning or note is added.
 */

const schemaFile = new URL("../../schemas/filterc.schema.json", import.meta.url);

function read(text: string): object | string[] {
  try {
    return readConfig(text, "filterc.json");
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
}

/** The schema's `diagnostics` property as kinds.ts makes it: one property per tunable code, each a level. */
function diagnosticsProperty(description: string) {
  return {
    description,
    type: "object",
    additionalProperties: false,
    properties: Object.fromEntries(
      [EVERY_WARNING, ...TUNABLE_CODES].map((code) => [code, { $ref: "#/definitions/level" }]),
    ),
  };
}

describe("a filterc.json's diagnostics", () => {
  it("takes levels by code and `warnings`", () => {
    expect(
      read(
        '{"dataset": "gateway_http", "diagnostics": {"W0120": "off", "W0105": "error", "warnings": "note"}}',
      ),
    ).toEqual({ dataset: "gateway_http", diagnostics: { W0120: "off", W0105: "error", warnings: "note" } });
    expect(read('{"diagnostics": {}}')).toEqual({ diagnostics: {} });
  });

  it("names each wrong code at its key and each wrong level at its value, naming what is right", () => {
    const text = [
      "{",
      '  "diagnostics": {',
      '    "W0210": "off",',
      '    "E0402": "warning",',
      '    "W0120": "warn",',
      '    "W0105": null,',
      '    "W0105": "off",',
      '    "__proto__": "off"',
      "  }",
      "}",
    ].join("\n");
    expect(read(text)).toEqual([
      `filterc.json:3:5: "diagnostics" names \`W0210\`, which is no code of a warning or note (those that can be tuned are ${TUNABLE_CODES.join(", ")}, and \`warnings\` for every warning)`,
      'filterc.json:4:5: "diagnostics" names `E0402`, an error, which cannot be tuned: Logpush refuses JSON past its limits; only warnings and notes can',
      'filterc.json:5:14: "diagnostics" sets `W0120` to "warn"; a level is "off", "note", "warning" or "error"',
      'filterc.json:6:14: "diagnostics" sets `W0105` to null; a level is "off", "note", "warning" or "error"',
      'filterc.json:7:5: "W0105" is set more than once in diagnostics',
      `filterc.json:8:5: "diagnostics" names \`__proto__\`, which is no code of a warning or note (those that can be tuned are ${TUNABLE_CODES.join(", ")}, and \`warnings\` for every warning)`,
    ]);
    expect(read('{"diagnostics": ["W0120"]}')).toEqual([
      'filterc.json:1:17: diagnostics must be an object of levels by code, like {"W0120": "off"}',
    ]);
    expect(read('{"diagnostics": {"W0120": {"level": "off"}}}')).toEqual([
      'filterc.json:1:27: "diagnostics" sets `W0120` to {}; a level is "off", "note", "warning" or "error"',
    ]);
  });

  it("suggests the code meant", () => {
    expect(read('{"diagnostics": {"W012O": "off"}}')).toEqual([
      `filterc.json:1:18: "diagnostics" names \`W012O\`, which is no code of a warning or note (those that can be tuned are ${TUNABLE_CODES.join(", ")}, and \`warnings\` for every warning); did you mean \`W0120\`?`,
    ]);
  });
});

describe("the JSON Schema's diagnostics", () => {
  const schema = JSON.parse(readFileSync(schemaFile, "utf8"));

  it("lists exactly the codes kinds.ts makes tunable, and the levels", () => {
    const expected = diagnosticsProperty(schema.properties.diagnostics?.description ?? "");
    if (process.env["FILTERC_REWRITE_SCHEMA"] === "1") {
      schema.properties.diagnostics = expected;
      writeFileSync(schemaFile, `${JSON.stringify(schema, null, 2)}\n`);
    }
    expect(schema.properties.diagnostics).toEqual(expected);
    expect(schema.definitions.level.enum).toEqual([...DIAGNOSTIC_LEVELS]);
  });

  it("accepts and rejects the diagnostics the loader accepts and rejects (property)", () => {
    const valid = new Ajv({ strict: true }).compile(schema);
    const code = fc.constantFrom(...TUNABLE_CODES, EVERY_WARNING, "W0999", "E0201", "w0120", "");
    const level = fc.oneof(
      fc.constantFrom(...DIAGNOSTIC_LEVELS, "warn", "ERROR", ""),
      fc.constantFrom(null, 1, true, [], {}),
    );
    const config = fc.oneof(
      fc.record({ diagnostics: fc.dictionary(code, level, { maxKeys: 4 }) }),
      fc.record({ diagnostics: fc.constantFrom(null, "W0120", [], 3) }),
    );
    fc.assert(
      fc.property(config, (value) => {
        const loaded = !Array.isArray(read(JSON.stringify(value)));
        expect(valid(value), JSON.stringify(value)).toBe(loaded);
      }),
      { numRuns: 1000 },
    );
  });
});
