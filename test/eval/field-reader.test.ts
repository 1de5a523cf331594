import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { compileFieldReader } from "../../src/eval/field-reader.js";
import { ExactNumber } from "../../src/eval/numbers.js";
import { parseRecord } from "../../src/eval/records.js";
import { jsonNode, jsonObject, mutate, mutation, shallowNode, whitespace, writeJson } from "./json-lines.js";

/** What the reader must agree with: parseRecord, then each field as an own property. */
function reference(line: string, fields: readonly string[]): unknown[] | "malformed" {
  const record = parseRecord(line);
  if (record === undefined) return "malformed";
  return fields.map((field) => (Object.hasOwn(record, field) ? record[field] : undefined));
}

function read(reader: ReturnType<typeof compileFieldReader>, line: string, size: number) {
  const values: unknown[] = new Array(size).fill("stale");
  return reader(line, values) ? values : "malformed";
}

/** Counts the lines JSON.parse read whole (the fallback), against the lines read. */
function spyOnWholeLineParses() {
  const parse = vi.spyOn(JSON, "parse");
  return {
    clear: () => parse.mockClear(),
    parsed(line: string): boolean {
      const calls = parse.mock.calls.filter(([text]) => text === line);
      parse.mockClear();
      return calls.length > 0;
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

// Names with an escape-needing character, the empty name, an integer-like name (ordered first by
// Object.keys) and __proto__, beside plain ones.
const names = ["a", "b", "ClientASN", "é", "😀", 'q"uote', "", "__proto__", "7", "x y"];
const keys = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...names.filter((name) => name !== 'q"uote' && name !== "7")) },
  { weight: 1, arbitrary: fc.constantFrom('q"uote', "7") },
  { weight: 2, arbitrary: fc.string({ maxLength: 4 }) },
);
// Mostly values of log fields (what the expression reads), sometimes deeper ones.
const value = fc.oneof({ weight: 9, arbitrary: shallowNode(keys) }, { weight: 1, arbitrary: jsonNode(keys) });
// Mostly objects written as logs are (each key once), sometimes with duplicate keys.
const object = fc.oneof(
  { weight: 3, arbitrary: jsonObject(keys, value, true) },
  { weight: 1, arbitrary: jsonObject(keys, value) },
);

describe("compileFieldReader", () => {
  it("agrees with parseRecord on generated lines and broken variants of them", () => {
    let seenBefore = 0;
    let fast = 0;
    const spy = spyOnWholeLineParses();
    fc.assert(
      fc.property(
        fc.subarray(names),
        fc.array(fc.tuple(object, whitespace), { minLength: 1, maxLength: 3 }),
        fc.array(mutation, { maxLength: 4 }),
        (fields, objects, mutations) => {
          const reader = compileFieldReader(fields);
          const wellFormed = objects.map(([object, ws]) => writeJson(object, ws));
          const broken = mutations.map((change, i) => mutate(wellFormed[i % wellFormed.length]!, change));
          // Each well-formed line twice (the second time with its layout known), then the broken
          // ones, then the first again.
          const lines = [...wellFormed.flatMap((line) => [line, line]), ...broken, wellFormed[0]!];
          lines.forEach((line, i) => {
            const expected = reference(line, fields);
            spy.clear();
            const actual = read(reader, line, fields.length);
            const parsed = spy.parsed(line);
            expect(actual).toStrictEqual(expected);
            if (i < 2 * wellFormed.length && i % 2 === 1) {
              seenBefore++;
              if (!parsed) fast++;
            }
          });
        },
      ),
      { numRuns: 2500 },
    );
    // The expression, not JSON.parse, read a good share of the well-formed lines read a second
    // time (the others have keys written with escapes, deeper values, or the integer-like key "7"
    // with other named keys before it, which Object.keys lists first).
    expect(fast / seenBefore).toBeGreaterThan(0.3);
    // 2,500 runs take about 25 s alone; a loaded machine needs more.
  }, 120_000);

  it("reads numbers as JSON.parse does, and those a double would round as their exact text", () => {
    const reader = compileFieldReader(["n"]);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
          fc
            .tuple(
              fc.constantFrom("", "-"),
              fc.stringMatching(/^(0|[1-9][0-9]{0,30})$/),
              fc.constantFrom("", ".5", ".000001", ".99999999999999999999"),
              fc.constantFrom("", "e0", "E+5", "e-400", "e400", "e-7", "E22", "e23"),
            )
            .map((parts) => parts.join("")),
        ),
        (text) => {
          const line = `{"n":${text}}`;
          reader(line, []); // learns the layout
          const values: unknown[] = [];
          expect(reader(line, values)).toBe(true);
          if (values[0] instanceof ExactNumber) {
            expect(values[0].text).toBe(text);
            expect(values[0].decimal.digits.length > 15 || Math.abs(values[0].decimal.exponent) > 300).toBe(
              true,
            );
          } else expect(Object.is(values[0], JSON.parse(line).n)).toBe(true);
          expect(values[0]).toStrictEqual(parseRecord(line)!.n);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("compileFieldReader on each edge", () => {
  // Each case is read by a fresh reader (which parses the first line) and by one that has seen
  // `prime` (a well-formed line of the same layout), so that the expression reads it.
  interface Case {
    name: string;
    fields: string[];
    line: string;
    prime?: string;
    expected: unknown[] | "malformed";
    /** Whether a primed reader takes the line without JSON.parse of the whole line. */
    fast?: boolean;
  }
  const cases: Case[] = [
    {
      name: "duplicate keys: the last wins",
      fields: ["a", "b"],
      line: '{"a":1,"b":"x","a":2}',
      expected: [2, "x"],
      fast: false,
    },
    {
      name: "a nested key of the same name does not count",
      fields: ["a", "b"],
      line: '{"b":{"a":1},"c":[{"a":2}],"d":{"x":{"a":3}}}',
      prime: '{"b":{"a":0},"c":[{"a":0}],"d":{"x":{"a":0}}}',
      expected: [undefined, { a: 1 }],
    },
    {
      name: "a nested key of the same name, one level down",
      fields: ["a", "b"],
      line: '{"b":{"a":1,"b":2},"a":"top"}',
      expected: ["top", { a: 1, b: 2 }],
      fast: true,
    },
    {
      name: "escapes in a named string are decoded",
      fields: ["a"],
      line: String.raw`{"a":"x\"y\\z\/\n\u00e9\ud83d\ude00\ud800"}`,
      expected: ['x"y\\z/\né😀\ud800'],
      fast: true,
    },
    {
      name: "an escaped quote in another string",
      fields: ["a"],
      line: String.raw`{"ua":"say \"hi\", \"a\":2","a":1}`,
      expected: [1],
      fast: true,
    },
    {
      name: "a key written with escapes is read by JSON.parse",
      fields: ["a"],
      line: String.raw`{"\u0061":1}`,
      prime: '{"a":0}',
      expected: [1],
      fast: false,
    },
    {
      name: "an invalid escape in a named string",
      fields: ["a"],
      line: String.raw`{"a":"\x41"}`,
      prime: '{"a":"x"}',
      expected: "malformed",
    },
    {
      name: "an invalid escape in another string",
      fields: ["a"],
      line: String.raw`{"a":1,"b":"\'"}`,
      prime: '{"a":1,"b":""}',
      expected: "malformed",
    },
    {
      name: "a short unicode escape",
      fields: ["a"],
      line: String.raw`{"a":1,"b":"\u12"}`,
      prime: '{"a":1,"b":""}',
      expected: "malformed",
    },
    {
      name: "a raw control character inside a string",
      fields: ["a"],
      line: '{"a":"x\u0001y"}',
      prime: '{"a":"xy"}',
      expected: "malformed",
    },
    {
      name: "a raw tab inside another string",
      fields: ["a"],
      line: '{"a":1,"b":"x\ty"}',
      prime: '{"a":1,"b":"xy"}',
      expected: "malformed",
    },
    {
      name: "a raw LF inside a string",
      fields: ["a"],
      line: '{"a":"x\ny"}',
      prime: '{"a":"xy"}',
      expected: "malformed",
    },
    { name: "trailing garbage", fields: ["a"], line: '{"a":1}x', prime: '{"a":1}', expected: "malformed" },
    { name: "a second object", fields: ["a"], line: '{"a":1}{}', prime: '{"a":1}', expected: "malformed" },
    { name: "a trailing comma", fields: ["a"], line: '{"a":1,}', prime: '{"a":1}', expected: "malformed" },
    {
      name: "a missing comma",
      fields: ["a"],
      line: '{"a":1 "b":2}',
      prime: '{"a":1,"b":2}',
      expected: "malformed",
    },
    { name: "a top-level array", fields: ["a"], line: '[{"a":1}]', prime: '{"a":1}', expected: "malformed" },
    { name: "a top-level string", fields: ["a"], line: '"a"', prime: '{"a":1}', expected: "malformed" },
    { name: "a top-level null", fields: ["a"], line: "null", prime: '{"a":1}', expected: "malformed" },
    {
      name: "whitespace around and between tokens (space, tab, CR, LF)",
      fields: ["a"],
      line: ' \t{ "a" :\r\n 1 ,"b":[ 1 , 2 ] } \r',
      expected: [1],
      fast: true,
    },
    {
      name: "a form feed or no-break space is not JSON whitespace",
      fields: ["a"],
      line: '{"a":1}\f',
      prime: '{"a":1}',
      expected: "malformed",
    },
    {
      name: "a byte order mark",
      fields: ["a"],
      line: '\ufeff{"a":1}',
      prime: '{"a":1}',
      expected: "malformed",
    },
    { name: "the empty line", fields: ["a"], line: "", prime: '{"a":1}', expected: "malformed" },
    { name: "a blank line", fields: ["a"], line: "  ", prime: '{"a":1}', expected: "malformed" },
    { name: "{}", fields: ["a"], line: "{}", expected: [undefined], fast: true },
    { name: "{} for the empty filter", fields: [], line: "{ }", expected: [], fast: true },
    { name: "1e3", fields: ["a"], line: '{"a":1e3}', prime: '{"a":1}', expected: [1000], fast: true },
    { name: "-0", fields: ["a"], line: '{"a":-0}', prime: '{"a":1}', expected: [-0], fast: true },
    { name: "-0.0e-5", fields: ["a"], line: '{"a":-0.0e-5}', prime: '{"a":1}', expected: [-0], fast: true },
    { name: "01 is malformed", fields: ["a"], line: '{"a":01}', prime: '{"a":1}', expected: "malformed" },
    { name: "1. is malformed", fields: ["a"], line: '{"a":1.}', prime: '{"a":1}', expected: "malformed" },
    { name: ".5 is malformed", fields: ["a"], line: '{"a":.5}', prime: '{"a":1}', expected: "malformed" },
    { name: "+1 is malformed", fields: ["a"], line: '{"a":+1}', prime: '{"a":1}', expected: "malformed" },
    { name: "1e is malformed", fields: ["a"], line: '{"a":1e}', prime: '{"a":1}', expected: "malformed" },
    {
      name: "01 in another field is malformed",
      fields: ["a"],
      line: '{"a":1,"b":01}',
      prime: '{"a":1,"b":1}',
      expected: "malformed",
    },
    {
      name: "tru is malformed",
      fields: ["a"],
      line: '{"a":tru}',
      prime: '{"a":true}',
      expected: "malformed",
    },
    {
      name: "True is malformed",
      fields: ["a"],
      line: '{"a":True}',
      prime: '{"a":true}',
      expected: "malformed",
    },
    {
      name: "literals",
      fields: ["a", "b", "c"],
      line: '{"a":true,"b":false,"c":null}',
      expected: [true, false, null],
      fast: true,
    },
    {
      name: "long numbers: exact, in fields and array elements",
      fields: ["a", "b"],
      line: '{"a":-12345678901234567890,"b":[1700000000000000001,1],"c":99999999999999999999}',
      prime: '{"a":1,"b":[],"c":1}',
      expected: [
        new ExactNumber("-12345678901234567890", {
          negative: true,
          digits: "1234567890123456789",
          exponent: 20,
        }),
        [
          new ExactNumber("1700000000000000001", {
            negative: false,
            digits: "1700000000000000001",
            exponent: 19,
          }),
          1,
        ],
      ],
      fast: true,
    },
    {
      name: "15 significant digits, trailing zeros and moderate exponents stay numbers",
      fields: ["a", "b", "c", "d"],
      line: '{"a":123456789012345,"b":1234567890123450000000,"c":1.5e10,"d":1e400}',
      expected: [
        123456789012345,
        1234567890123450000000,
        1.5e10,
        new ExactNumber("1e400", { negative: false, digits: "1", exponent: 401 }),
      ],
      fast: true,
    },
    {
      name: "a long integer with a leading zero is malformed",
      fields: ["a"],
      line: '{"a":01234567890123456789}',
      prime: '{"a":1}',
      expected: "malformed",
    },
    {
      name: "a long integer as a key is malformed",
      fields: ["a"],
      line: '{"a":1,12345678901234567890:2}',
      prime: '{"a":1}',
      expected: "malformed",
    },
    {
      name: "an object or array value of a named field",
      fields: ["a", "b"],
      line: '{"a":{"x":[]},"b":[1,"2",null,{"y":true}]}',
      expected: [{ x: [] }, [1, "2", null, { y: true }]],
    },
    {
      name: "nesting deeper than the expression reads",
      fields: ["a"],
      line: '{"a":1,"deep":[[[[{"a":2}]]]]}',
      prime: '{"a":1,"deep":[]}',
      expected: [1],
      fast: false,
    },
    {
      name: "named fields in another order than learned",
      fields: ["a", "b"],
      line: '{"b":2,"a":1}',
      prime: '{"a":1,"b":2}',
      expected: [1, 2],
      fast: false,
    },
    {
      name: "a named field missing from the learned layout",
      fields: ["a", "b"],
      line: '{"a":1}',
      prime: '{"a":1,"b":2}',
      expected: [1, undefined],
      fast: false,
    },
    {
      name: "another key among the others than learned",
      fields: ["a", "b"],
      line: '{"a":2,"y":3,"x":"t","b":4}',
      prime: '{"a":1,"x":"s","b":2}',
      expected: [2, 4],
      fast: true,
    },
    {
      name: "another kind of value in another field than learned",
      fields: ["a"],
      line: '{"a":1,"x":[1,"2"],"y":{"k":"v"},"z":"s"}',
      prime: '{"a":1,"x":"s","y":2,"z":[]}',
      expected: [1],
      fast: true,
    },
    {
      name: "another kind of value in a named field than learned",
      fields: ["a", "b"],
      line: '{"a":[1],"b":{"k":null}}',
      prime: '{"a":"s","b":2}',
      expected: [[1], { k: null }],
      fast: true,
    },
    {
      name: "null learned, a string or number read",
      fields: ["a"],
      line: '{"a":"s","x":7}',
      prime: '{"a":null,"x":null}',
      expected: ["s"],
      fast: true,
    },
    {
      name: "whitespace in a line of the learned key order",
      fields: ["a"],
      line: '{"a": 1, "x": "s"}',
      prime: '{"a":1,"x":"t"}',
      expected: [1],
      fast: true,
    },
    {
      name: "a named key twice in a line of the learned key order",
      fields: ["a", "b"],
      line: '{"a":1,"b":2,"a":3}',
      prime: '{"a":1,"b":2}',
      expected: [3, 2],
      fast: false,
    },
    {
      name: "another key twice in a line of the learned key order",
      fields: ["a"],
      line: '{"a":1,"x":2,"x":3}',
      prime: '{"a":1,"x":2}',
      expected: [1],
      fast: true,
    },
    {
      name: "an escaped key where the learned line had it plain",
      fields: ["a"],
      line: String.raw`{"a":1,"\u0078":2}`,
      prime: '{"a":1,"x":2}',
      expected: [1],
      fast: false,
    },
    {
      name: "a value equal to a field name is not a key",
      fields: ["a", "b"],
      line: '{"x":"a","y":["b"],"b":"a"}',
      expected: [undefined, "a"],
      fast: true,
    },
    {
      name: "a name that needs escapes",
      fields: ['q"uote'],
      line: String.raw`{"q\"uote":1}`,
      expected: [1],
      fast: false,
    },
    {
      name: "__proto__ as a field",
      fields: ["__proto__"],
      line: '{"__proto__":[1]}',
      expected: [[1]],
      fast: true,
    },
    {
      name: "a name the prototype has is not read from it",
      fields: ["constructor", "toString"],
      line: '{"toString":1}',
      expected: [undefined, 1],
      fast: true,
    },
    {
      name: "names with regular expression characters",
      fields: ["a.b", "(x)|[y]", "a"],
      line: '{"aXb":1,"a.b":2,"(x)|[y]":3,"a":4}',
      expected: [2, 3, 4],
      fast: true,
    },
    {
      name: "names that are prefixes of each other and of other keys",
      fields: ["Client", "ClientIP"],
      line: '{"ClientIPv6":1,"Client":2,"ClientI":3,"ClientIP":4}',
      expected: [2, 4],
      fast: true,
    },
    {
      name: "non-ASCII keys and values",
      fields: ["é", "😀"],
      line: '{"😀":"😀\ud800","e":"é","é":1}',
      expected: [1, "😀\ud800"],
      fast: true,
    },
  ];

  for (const testCase of cases) {
    it(testCase.name, () => {
      const { fields, line, expected } = testCase;
      expect(reference(line, fields)).toStrictEqual(expected);
      expect(read(compileFieldReader(fields), line, fields.length)).toStrictEqual(expected);
      const primed = compileFieldReader(fields);
      read(primed, testCase.prime ?? line, fields.length);
      const spy = spyOnWholeLineParses();
      spy.clear();
      expect(read(primed, line, fields.length)).toStrictEqual(expected);
      if (testCase.fast !== undefined) expect(!spy.parsed(line)).toBe(testCase.fast);
    });
  }

  it("refuses field names that are not distinct", () => {
    expect(() => compileFieldReader(["a", "a"])).toThrow("distinct");
  });

  it("stops trying the expression when most lines miss it, and reads them all the same", () => {
    const reader = compileFieldReader(["a"]);
    const deep = (i: number) => `{"a":${i},"d":[[${i}]]}`;
    for (let i = 0; i < 5000; i++) expect(read(reader, deep(i), 1)).toEqual([i]);
    // The flat lines that follow are read by the expression again after the pause.
    const spy = spyOnWholeLineParses();
    let fast = 0;
    for (let i = 0; i < 20_000; i++) {
      const line = `{"a":${i},"d":[${i}]}`;
      expect(read(reader, line, 1)).toEqual([i]);
      if (!spy.parsed(line)) fast++;
    }
    expect(fast).toBeGreaterThan(15_000);
  });

  it("takes linear time on long and pathological lines", () => {
    const reader = compileFieldReader(["a", "b"]);
    const long = (n: number) => [
      `{"a":1,"b":"${"x".repeat(n)}"`,
      `{"a":1,"b":${"1".repeat(n)}x}`,
      `{"a":1,"b":[${"1,".repeat(n)}`,
      `{"a":1,"b":[${"1 ,".repeat(n)}]`,
      `{"a":1,${'"c": 1 ,'.repeat(n)}`,
      `{"a":1,"b":${"[".repeat(n)}`,
      `{"a":1${" ".repeat(n)}`,
      `{"a":"${"\\u00e9".repeat(n)}\\u00"}`,
      `{${'"a":1,'.repeat(n)}"b":2}`,
    ];
    read(reader, '{"a":1,"b":2}', 2);
    const time = (n: number) => {
      const start = performance.now();
      for (const line of long(n)) read(reader, line, 2);
      return performance.now() - start;
    };
    time(1000);
    const small = Math.max(time(20_000), 1);
    const large = time(200_000);
    // Ten times the input in well under a hundred times the time.
    expect(large / small).toBeLessThan(40);
  });
});
