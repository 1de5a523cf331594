import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runLines } from "./run-lines.js";

const source = 'EdgeResponseStatus geq 500 and ClientRequestPath !startsWith "/health"';

/** Lines of every kind eval meets: most of them well-formed ASCII, the others what the block filter hands on. */
const text = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        EdgeResponseStatus: fc.constantFrom(200, 404, 500, 503, "502"),
        ClientRequestPath: fc.constantFrom("/", "/health", "/a"),
      })
      .map((record) => JSON.stringify(record)),
  },
  fc.constantFrom(
    "",
    "   ",
    "\t\r",
    '{"EdgeResponseStatus":503,"ClientRequestPath":"/é"}',
    '{"EdgeResponse\\u0053tatus":503}',
    '{"EdgeResponseStatus":503}\r',
    '{"EdgeResponseStatus":503,"ClientRequestPath":"/health"',
    "not json",
    '{"EdgeResponseStatus":5030000000000000000000}',
    `{"EdgeResponseStatus":503,"pad":"${"x".repeat(300)}"}`,
  ),
);
/** A line's bytes: its text as UTF-8, or bytes that are no UTF-8 (one U+FFFD each, in a string and outside one). */
const line = fc.oneof(
  { weight: 9, arbitrary: text.map((line) => Buffer.from(line)) },
  fc
    .constantFrom(
      '{"EdgeResponseStatus":503,"ClientRequestPath":"/\xff"}',
      '{"EdgeResponseStatus":503,"ClientRequestPath":"/health\xff\xfe"}',
      '{"EdgeResponseStatus":503}\xff',
      '{"EdgeResponseStatus":503,"ClientRequestPath":"/\xe9\xff"}',
    )
    .map((line) => Buffer.from(line, "latin1")),
);

describe("eval's lines through the block filter", () => {
  it("give the output, counts, line numbers and warnings of the line filter", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { maxLength: 40 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.record({
          invert: fc.boolean(),
          strict: fc.boolean(),
          maxLineBytes: fc.constantFrom(100, 1 << 20),
        }),
        async (lines, lastNewline, cuts, flags) => {
          const newline = Buffer.from("\n");
          const bytes = Buffer.concat([
            ...lines.flatMap((line, i) => (i > 0 ? [newline, line] : [line])),
            ...(lastNewline ? [newline] : []),
          ]);
          const chunks = () => {
            const at = [0, ...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
            return at.map((start, i) => bytes.subarray(start, at[i + 1] ?? bytes.length));
          };
          const block = await runLines(chunks, source, { ...flags, block: true });
          expect(block).toEqual(await runLines(chunks, source, { ...flags, block: false }));
        },
      ),
      { numRuns: 600 },
    );
  });

  it("skips blank lines, blanks alone included, and counts a malformed line with its number", async () => {
    const input = `\n  \n\t\r\n{"EdgeResponseStatus":503}\n{"EdgeResponseStatus":\n`;
    for (const block of [true, false]) {
      const run = await runLines(() => [Buffer.from(input)], source, { block });
      expect(run.out).toBe('{"EdgeResponseStatus":503}\n');
      expect(run.lineCount).toBe(5);
      expect(run.counts).toMatchObject({
        lines: 2,
        matched: 1,
        malformed: 1,
        firstMalformed: [{ input: "<stdin>", line: 5 }],
      });
    }
  });
});
