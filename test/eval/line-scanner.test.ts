import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineScanner } from "../../src/eval/line-scanner.js";
import { ExactNumber } from "../../src/eval/numbers.js";
import { parseRecord } from "../../src/eval/records.js";
import {
  type JsonNode,
  jsonNode,
  jsonObject,
  mutate,
  mutation,
  shallowNode,
  whitespace,
  writeJson,
  writeString,
} from "./json-lines.js";

/** Lines a block may hold: ASCII, no LF. */
const BLOCK_LINE = /^[\x00-\x09\x0b-\x7f]*$/;

/** Scans the lines as one block: per line, the values of `fields`, or "declined". */
function scanAll(fields: readonly string[], lines: readonly string[]): (unknown[] | "declined")[] {
  const scanner = LineScanner.of(fields)!;
  const text = lines.map((line) => `${line}\n`).join("");
  expect(scanner.load(Buffer.from(text, "latin1"))).toBe(true);
  let start = 0;
  return lines.map((line) => {
    const taken = scanner.scan(start, start + line.length);
    start += line.length + 1;
    return taken ? fields.map((_, slot) => scanner.value(slot, text, 0)) : "declined";
  });
}

/** What a line's values must be when the scanner takes it: parseRecord's, each field an own property. */
function reference(line: string, fields: readonly string[]): unknown[] | "malformed" {
  const record = parseRecord(line);
  if (record === undefined) return "malformed";
  return fields.map((field) => (Object.hasOwn(record, field) ? record[field] : undefined));
}

const fields = [
  "a",
  "b",
  "EdgeResponseStatus",
  "ClientRequestUserAgent",
  "a-name-longer-than-thirty-two-bytes",
];

describe("the line scanner", () => {
  it("is the module its source compiles to", () => {
    const build = spawnSync(process.execPath, ["wasm/build.mjs", "--check"], { encoding: "utf8" });
    expect(build.stderr).toBe("");
    expect(build.status).toBe(0);
  });

  it.each<[string, unknown[] | "declined"]>([
    ['{"a":1,"b":"x"}', [1, "x", undefined, undefined, undefined]],
    ["{}", [undefined, undefined, undefined, undefined, undefined]],
    [' \t{ "b" : null , "a" : true }\r', [true, null, undefined, undefined, undefined]],
    ['{"a":1,"a":2,"b":false}', [2, false, undefined, undefined, undefined]],
    ['{"b":"x\\ny\\u0041\\/"}', [undefined, "x\nyA/", undefined, undefined, undefined]],
    [
      '{"a":[1,{"b":[2]}],"b":{"c":""},"c":[[],{}]}',
      [[1, { b: [2] }], { c: "" }, undefined, undefined, undefined],
    ],
    [
      '{"EdgeResponseStatus":-0.5e+3,"a-name-longer-than-thirty-two-bytes":"long"}',
      [undefined, undefined, -500, undefined, "long"],
    ],
    [
      '{"a":12345678901234567890,"b":"12345678901234567890"}',
      [
        new ExactNumber("12345678901234567890", {
          negative: false,
          digits: "1234567890123456789",
          exponent: 20,
        }),
        "12345678901234567890",
        undefined,
        undefined,
        undefined,
      ],
    ],
    // A key written with escapes may spell a named field; JSON.parse decides.
    ['{"\\u0061":1}', "declined"],
    // Keys of nested objects are no fields.
    ['{"c":{"a":1}}', [undefined, undefined, undefined, undefined, undefined]],
    ['{"a":01}', "declined"],
    ['{"a":1,}', "declined"],
    ['{"a":1.}', "declined"],
    ['{"a":-}', "declined"],
    ['{"a":1e}', "declined"],
    ['{"a":tru}', "declined"],
    ['{"a":nul,"b":1}', "declined"],
    ['{"a":"x', "declined"],
    ['{"a":"\u0001"}', "declined"],
    ['{"a":"\\q"}', "declined"],
    ['{"a":"\\u12x4"}', "declined"],
    ['{"a":1}x', "declined"],
    ['{"a":1}}', "declined"],
    ['{"a":[1,]}', "declined"],
    ['{"a":{"b"}}', "declined"],
    ['{"a":[1}', "declined"],
    ["[1]", "declined"],
    ["", "declined"],
    ["  ", "declined"],
  ])("scans %j", (line, expected) => {
    expect(scanAll(fields, [line])).toEqual([expected]);
  });

  it("takes nesting 512 levels deep and declines a level more", () => {
    const nested = (depth: number) => `{"a":${"[".repeat(depth)}${"]".repeat(depth)},"b":1}`;
    const [deep, deeper] = scanAll(["b"], [nested(512), nested(513)]);
    expect(deep).toEqual([1]);
    expect(deeper).toBe("declined");
  });

  it("reads a key that differs from the one expected at its place by one byte, or by its length", () => {
    const key = "a-name-longer-than-thirty-two-bytes";
    const lines = [
      `{"${key}":1,"b":2}`,
      `{"${key.slice(0, -1)}x":1,"b":2}`,
      `{"${key.slice(0, 20)}y${key.slice(21)}":1,"b":2}`,
      `{"${key.slice(0, -1)}":1,"b":2}`,
      `{"${key}z":1,"b":2}`,
      `{"${key}":3,"b":4}`,
      `{"b":5,"${key}":6}`,
    ];
    expect(scanAll([key, "b"], lines)).toEqual([
      [1, 2],
      [undefined, 2],
      [undefined, 2],
      [undefined, 2],
      [undefined, 2],
      [3, 4],
      [6, 5],
    ]);
  });

  it("has no scanner for an empty field name, and takes no block past its capacity", () => {
    expect(LineScanner.of(["a", ""])).toBeUndefined();
    const scanner = LineScanner.of(["a"])!;
    expect(scanner.load(new Uint8Array(scanner.capacity + 1))).toBe(false);
    expect(scanner.load(new Uint8Array(scanner.capacity))).toBe(true);
  });

  // Named fields, names that share their starts, short and long ones, and a few others.
  const keys = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...fields, "EdgeResponseStatu", "ClientRequestUserAgentX", "") },
    { weight: 1, arbitrary: fc.string({ maxLength: 4 }) },
  );
  const value = fc.oneof(
    { weight: 9, arbitrary: shallowNode(keys) },
    { weight: 1, arbitrary: jsonNode(keys) },
  );
  const object = fc.oneof(
    { weight: 3, arbitrary: jsonObject(keys, value, true) },
    { weight: 1, arbitrary: jsonObject(keys, value) },
  );
  /** Whether a top-level key of the object is written with an escape. */
  const escapedKey = (node: JsonNode) =>
    node.kind === "object" && node.members.some(([key]) => writeString(key.value, key.style).includes("\\"));

  it("takes exactly the objects whose keys are written without escapes, and reads parseRecord's values", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(object, whitespace), { minLength: 1, maxLength: 5 }), (objects) => {
        // Each line twice, then all again: lines whose keys the scanner expects, and lines whose keys it does not.
        const written = objects
          .map(([node, ws]) => ({ node, line: writeJson(node, ws) }))
          .filter(({ line }) => BLOCK_LINE.test(line));
        const twice = written.flatMap((entry) => [entry, entry]);
        const all = [...twice, ...written];
        const scanned = scanAll(
          fields,
          all.map(({ line }) => line),
        );
        expect(scanned).toEqual(
          all.map(({ node, line }) => (escapedKey(node) ? "declined" : reference(line, fields))),
        );
      }),
      { numRuns: 1000 },
    );
  });

  it("reads parseRecord's values from every broken line it takes", () => {
    fc.assert(
      fc.property(
        object,
        whitespace,
        fc.array(mutation, { minLength: 1, maxLength: 3 }),
        (node, ws, changes) => {
          const line = writeJson(node, ws);
          const broken = changes.map((change) => mutate(line, change));
          const lines = [line, ...broken].filter((text) => BLOCK_LINE.test(text));
          scanAll(fields, lines).forEach((values, i) => {
            if (values !== "declined") expect(values).toEqual(reference(lines[i]!, fields));
          });
        },
      ),
      { numRuns: 2000 },
    );
  });
});
