import { describe, expect, it } from "vitest";
import { logLines } from "../../src/filter-tests/log-lines.js";

const encoder = new TextEncoder();

/** The lines as `filterc eval` takes them from the whole log at once. */
function reference(bytes: Uint8Array, maxLineBytes: number): (string | undefined)[] {
  const lines: (string | undefined)[] = [];
  let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(10, start);
    if (end === -1) end = bytes.length;
    lines.push(end - start > maxLineBytes ? undefined : new TextDecoder().decode(bytes.subarray(start, end)));
    start = end + 1;
  }
  return lines;
}

/**
 * The lines logLines gives of `bytes` cut at `cuts`, each chunk a Node Buffer (as files give them:
 * its `slice` is a view) in memory overwritten once the next is asked for.
 */
async function split(
  bytes: Uint8Array,
  cuts: number[],
  maxLineBytes: number,
): Promise<(string | undefined)[]> {
  const shared = new Uint8Array(bytes.length + 1);
  async function* chunks() {
    const ends = [...cuts, bytes.length];
    for (let i = 0, from = 0; i < ends.length; from = ends[i++]!) {
      shared.set(bytes.subarray(from, ends[i]));
      yield Buffer.from(shared.buffer, 0, ends[i]! - from);
      shared.fill(0x21);
    }
  }
  const lines: (string | undefined)[] = [];
  for await (const { first, texts } of logLines(chunks(), maxLineBytes)) {
    expect(first).toBe(lines.length + 1);
    lines.push(...texts);
  }
  return lines;
}

const logs = [
  "",
  "1",
  "\n",
  "{}",
  "a\nb",
  "\uFEFF{}\n",
  "\uFEFF",
  "\uFEFFa",
  '{"a":1}\r\n\r\n{"b":"é€😀"}\r\n',
  "short\nthis line is too long\nok\n",
  "x".repeat(30),
];

describe("a test's log read a line at a time", () => {
  it("gives the lines eval takes, however the log is cut into chunks (a byte order mark, characters and CRLF cut included)", async () => {
    for (const log of [
      ...logs.map((text) => encoder.encode(text)),
      Uint8Array.of(0x7b, 0xff, 0xc3, 0x0a, 0xe2, 0x82),
    ]) {
      for (const max of [1_000, 12]) {
        const expected = reference(log, max);
        // Every cut, and every pair of cuts in the short logs (a mark or a character over three chunks).
        for (let a = 0; a <= log.length; a++)
          for (let b = log.length <= 12 ? a : log.length; b <= log.length; b++)
            expect([log, max, a, b, await split(log, [a, b], max)]).toEqual([log, max, a, b, expected]);
        expect(
          await split(
            log,
            Array.from({ length: log.length }, (_, i) => i),
            max,
          ),
        ).toEqual(expected);
      }
    }
  });

  it("hands on lines a block at a time, and skips a line past the limit without keeping it", async () => {
    const line = `{"n":${"1".repeat(100)}}`;
    const log = encoder.encode(`${`${line}\n`.repeat(5000)}${"y".repeat(300_000)}\nlast`);
    const batches: number[] = [];
    const lines: (string | undefined)[] = [];
    async function* whole() {
      yield log;
    }
    for await (const { texts } of logLines(whole(), 200_000)) {
      batches.push(texts.length);
      lines.push(...texts);
    }
    expect(lines).toEqual([...Array.from({ length: 5000 }, () => line), undefined, "last"]);
    // 64 KiB of whole lines at a time: the lines of 107 bytes (with LF) that end within 65,536 bytes.
    expect(Math.max(...batches)).toBe(Math.floor((65_536 + 1) / (line.length + 1)));
  });
});
