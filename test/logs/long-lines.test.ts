import { describe, expect, it } from "vitest";
import { DEFAULT_MAX_LINE_BYTES, MAX_LINE_BYTES } from "../../src/logs/lines.js";
import { runCli } from "../helpers/cli.js";
import { runLines } from "./run-lines.js";

describe("filterc eval on long lines", () => {
  it("reads a 16 MB line arriving in 4 kB chunks in linear time (regression: each chunk re-copied the line)", async () => {
    const piece = Buffer.from(`${"x".repeat(4095)}`);
    const chunks = function* () {
      yield Buffer.from('{"ClientCountry":"us","ClientRequestPath":"');
      for (let i = 0; i < 4096; i++) yield piece;
      yield Buffer.from('"}\n{"ClientCountry":"us"}\n');
    };
    const run = await runLines(chunks, 'ClientCountry eq "us"');
    expect(run.counts).toEqual({
      lines: 2,
      matched: 2,
      selected: 2,
      malformed: 0,
      damaged: 0,
      bytes: 43 + 4095 * 4096 + 3 + 23,
      matchedBytes: 43 + 4095 * 4096 + 3 + 23,
      firstMalformed: [],
    });
    expect(run.out.length).toBe(43 + 4095 * 4096 + 3 + 23);
  }, 20_000);

  it("counts a line over --max-line-bytes as malformed, says so, and goes on", async () => {
    const long = `{"ClientCountry":"us","ClientRequestPath":"${"y".repeat(100)}"}`;
    const short = '{"ClientCountry":"us"}';
    const input = `${short}\n${long}\n${short}\n${long}`;
    // Within one chunk, across chunks, and as the last line without LF.
    const whole = await runLines(() => [Buffer.from(input)], 'ClientCountry eq "us"', { maxLineBytes: 100 });
    const split = await runLines(
      () => input.match(/.{1,7}/gs)!.map((piece) => Buffer.from(piece)),
      'ClientCountry eq "us"',
      { maxLineBytes: 100 },
    );
    for (const run of [whole, split]) {
      expect(run.out).toBe(`${short}\n${short}\n`);
      expect(run.counts).toEqual({
        lines: 4,
        matched: 2,
        selected: 2,
        malformed: 2,
        damaged: 0,
        bytes: 46,
        matchedBytes: 46,
        firstMalformed: [
          { input: "<stdin>", line: 2 },
          { input: "<stdin>", line: 4 },
        ],
      });
      expect(run.warnings).toEqual([
        "line 2 of <stdin> is longer than 100 bytes (--max-line-bytes): not read, counted as malformed",
        "line 4 of <stdin> is longer than 100 bytes (--max-line-bytes): not read, counted as malformed",
      ]);
    }
    const exact = await runLines(() => [Buffer.from(`${long}\n`)], "", { maxLineBytes: long.length });
    expect(exact.counts.malformed).toBe(0);
  });

  it("stops there with --strict, and rejects a limit that is not a whole number", async () => {
    const input = `{"a":1}\n{"ClientCountry":"${"z".repeat(50)}"}\n{"a":2}\n`;
    expect(
      await runCli(["eval", "--expr", "not BotScore eq 1", "--strict", "--max-line-bytes", "40"], input),
    ).toEqual({
      code: 1,
      stdout: '{"a":1}\n',
      stderr:
        "filterc eval: line 2 of <stdin> is longer than 40 bytes (--max-line-bytes): not read, counted as malformed\n" +
        "read 2 lines, matched 1, malformed 1 (first at line 2)\n" +
        "filterc eval: stopped at malformed line 2 of <stdin> (--strict)\n",
    });
    const bad = await runCli(["eval", "--expr", "", "--max-line-bytes", "1e6"], input);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split("\n")[0]).toBe(
      `filterc eval: --max-line-bytes takes a whole number from 0 to ${MAX_LINE_BYTES}, not "1e6"`,
    );
  });

  it("has a default limit of 64 MiB, past which a line is not read", async () => {
    expect(DEFAULT_MAX_LINE_BYTES).toBe(64 * 1024 * 1024);
    const body = Buffer.alloc(DEFAULT_MAX_LINE_BYTES, 0x61);
    const run = await runLines(function* () {
      yield Buffer.from('{"ClientRequestPath":"');
      for (let i = 0; i < body.length; i += 1 << 20) yield body.subarray(i, i + (1 << 20));
      yield Buffer.from('"}\n{"ClientRequestPath":"/"}\n');
    }, 'ClientRequestPath startsWith "/"');
    expect(run.counts).toMatchObject({ lines: 2, matched: 1, malformed: 1 });
    expect(run.out).toBe('{"ClientRequestPath":"/"}\n');
  }, 30_000);
});
