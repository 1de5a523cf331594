import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { builtCli, ensureBundles } from "../helpers/bundles.js";
import { outputOf, runCli } from "../helpers/cli.js";
import { makeFifo } from "../helpers/fifo.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

const dir = mkdtempSync(join(tmpdir(), "filterc-test-bounds-"));
function file(name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}
const testFile = (name: string, spec: object) => file(name, JSON.stringify(spec));

describe("filterc test on large and hostile test files", () => {
  it("streams a log of 2,000,000 lines through a 40 MB heap (regression: every line was held as a case; 20 million ran out of a 4 GB heap)", async () => {
    file("many.ndjson", '{"EdgeResponseStatus":503}\n{}\n'.repeat(1_000_000));
    const matches = Array.from({ length: 50_000 }, (_, i) => 2 * i + 1);
    const test = testFile("many.test.json", {
      filter: "EdgeResponseStatus geq 500",
      log: { file: "many.ndjson", matches },
    });
    const child = spawn(process.execPath, ["--max-old-space-size=40", builtCli(), "test", test]);
    const { code, stdout, stderr } = await outputOf(child);
    // Lines 1, 3, … 99,999 are listed; the 950,000 matching lines after them are not.
    expect({ code, stderr }).toEqual({ code: 1, stderr: "" });
    expect(stdout.split("\n").slice(-4)).toEqual([
      `FAIL ${test}: 949980 more cases failed, not shown (the first 20 are)`,
      "",
      "1050000 passed, 950000 failed",
      "",
    ]);
    expect(stdout.match(/^FAIL /gm)).toHaveLength(21);
    expect(stdout).toContain(
      `FAIL ${test}: line 100001 (${join(dir, "many.ndjson")}:100001)\n  record:   {"EdgeResponseStatus":503}\n  expected: no match, got: match\n`,
    );
  }, 120_000);

  it("refuses more than 100,000 cases or listed lines, naming the limit, without reading on (regression: 2.2 million cases took 3.4 GB)", async () => {
    const cases = testFile("cases.test.json", {
      filter: "BotScore lt 30",
      cases: Array.from({ length: 100_001 }, () => ({ record: {}, match: false })),
    });
    expect(await runCli(["test", cases])).toEqual({
      code: 2,
      stdout: "0 passed, 0 failed, with errors\n",
      stderr: `error: ${cases}:1:2800037: more than 100000 cases, the most a test file may list (MAX_TEST_CASES); put more records in its log\n`,
    });
    const matches = testFile("matches.test.json", {
      filter: "BotScore lt 30",
      log: { file: "many.ndjson", matches: Array.from({ length: 100_001 }, (_, i) => i + 1) },
    });
    expect((await runCli(["test", matches])).stderr).toBe(
      `error: ${matches}:1:588962: matches lists more than 100000 lines, the most a test file may (MAX_TEST_CASES)\n`,
    );
  });

  it("refuses a test file nested 10,000 levels with its place (regression: RangeError, exit 70)", async () => {
    const deep = file(
      "deep.test.json",
      `{"filter": "BotScore lt 1", "cases": [{"record": {"BotScore": 1, "x": ${"[".repeat(10_000)}${"]".repeat(10_000)}}, "match": false}]}`,
    );
    expect(await runCli(["test", deep])).toEqual({
      code: 2,
      stdout: "0 passed, 0 failed, with errors\n",
      stderr: `error: ${deep}:1:131: nests arrays and objects deeper than 64 levels, the most a test file may (MAX_TEST_FILE_DEPTH)\n`,
    });
  });

  it("refuses a fifo found as a test file, or named as a filter or a log, without waiting for a writer (regression: hung)", async () => {
    const fifos = join(dir, "fifos");
    mkdirSync(fifos);
    makeFifo(join(fifos, "a-fifo.test.json"));
    makeFifo(join(fifos, "filter.lpf"));
    makeFifo(join(fifos, "log.ndjson"));
    writeFileSync(
      join(fifos, "b-filter.test.json"),
      JSON.stringify({ filter: { file: "filter.lpf" }, cases: [] }),
    );
    writeFileSync(
      join(fifos, "c-log.test.json"),
      JSON.stringify({ filter: "BotScore lt 1", log: { file: "log.ndjson", matches: [] } }),
    );
    expect(await runCli(["test", fifos])).toEqual({
      code: 2,
      stdout: "0 passed, 0 failed, with errors\n",
      stderr: [
        `error: cannot read ${fifos}/a-fifo.test.json: a fifo (named pipe), not a regular file`,
        `error: ${fifos}/b-filter.test.json: cannot read the filter ${fifos}/filter.lpf: a fifo (named pipe), not a regular file`,
        `error: ${fifos}/c-log.test.json:1:33: cannot read the log ${fifos}/log.ndjson: a fifo (named pipe), not a regular file`,
        "",
      ].join("\n"),
    });
  });

  it("takes the numbers eval reads, 2^64 and exponents included, and shows them as written (regression: refused, with an internal object in the message)", async () => {
    const numbers = file(
      "numbers.test.json",
      `{"filter": "BotScore lt 30 and EdgeResponseCompressionRatio gt 0.1",
 "cases": [
  {"name": "2^64", "record": {"BotScore": 18446744073709551616, "EdgeResponseCompressionRatio": 1}, "match": false},
  {"name": "exponent", "record": {"BotScore": 1e400, "EdgeResponseCompressionRatio": 0.12345678901234567}, "match": false},
  {"name": "whole", "record": {"BotScore": 2.0e1, "EdgeResponseCompressionRatio": 1e-400}, "match": true}
 ]}`,
    );
    expect(await runCli(["test", numbers])).toEqual({
      code: 1,
      stdout: [
        `FAIL ${numbers}: whole (${numbers}:5:3)`,
        '  record:   {"BotScore":2.0e1,"EdgeResponseCompressionRatio":1e-400}',
        "  expected: match, got: no match",
        "  ✗ all of:",
        "  ✓   BotScore (int) is less than 30",
        "  ✗   EdgeResponseCompressionRatio (float) is greater than 0.1",
        "",
        "2 passed, 1 failed",
        "",
      ].join("\n"),
      stderr: "",
    });
    const json = await runCli(["test", numbers, "--json"]);
    expect(json.stdout).toContain(
      `"record":{"BotScore":2.0e1,"EdgeResponseCompressionRatio":1e-400},"expected":true,"actual":false`,
    );
    expect(JSON.parse(json.stdout).files[0]).toMatchObject({ passed: 2, failed: 1 });
    const wrong = file(
      "wrong-numbers.test.json",
      `{"filter": "BotScore lt 30", "cases": [{"record": {"BotScore": 1.5e-400}, "match": false}, {"record": {"BotScore": 18446744073709551616.5}, "match": false}]}`,
    );
    expect((await runCli(["test", wrong])).stderr).toBe(
      [
        `error: ${wrong}:1:40: case 1: BotScore is int in http_requests, but the record holds 1.5e-400`,
        `error: ${wrong}:1:92: case 2: BotScore is int in http_requests, but the record holds 18446744073709551616.5`,
        "",
      ].join("\n"),
    );
  });

  it("shows the first 20 problems of a log and counts the rest, a deep value cut short (regression: every bad line was kept; JSON.stringify overflowed)", async () => {
    const deep = `{"BotScore":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
    file("bad.ndjson", `${deep}\n${"not json\n".repeat(30)}${"x".repeat(1_100_000)}\n`);
    const bad = testFile("bad-log.test.json", {
      filter: "BotScore lt 1",
      log: { file: "bad.ndjson", matches: [40] },
    });
    const log = join(dir, "bad.ndjson");
    expect(await runCli(["test", bad])).toEqual({
      code: 2,
      stdout: "0 passed, 0 failed, with errors\n",
      stderr: [
        `error: ${log}:1: line 1: BotScore is int in http_requests, but the record holds ${"[".repeat(200)}…`,
        ...Array.from({ length: 19 }, (_, i) => `error: ${log}:${i + 2}: not a JSON object`),
        `error: ${log}: 13 more problems, not shown (the first 20 are)`,
        "",
      ].join("\n"),
    });
  });

  it("reads a log as eval does: a byte order mark dropped, CRLF lines, a line longer than 1 MiB refused", async () => {
    file("crlf.ndjson", '\uFEFF{"BotScore":1}\r\n\r\n{"BotScore":50}\r\n{"BotScore":2}');
    const crlf = testFile("crlf.test.json", {
      filter: "BotScore lt 30",
      log: { file: "crlf.ndjson", matches: [1, 4] },
    });
    expect(await runCli(["test", crlf])).toEqual({
      code: 0,
      stdout: `ok   ${crlf}: 3 cases\n3 passed, 0 failed\n`,
      stderr: "",
    });
    file("long.ndjson", `{"BotScore":1}\n{"ClientRequestPath":"${"x".repeat(1024 * 1024)}"}\n`);
    const long = testFile("long.test.json", {
      filter: "BotScore lt 30",
      log: { file: "long.ndjson", matches: [1, 2] },
    });
    expect((await runCli(["test", long])).stderr).toBe(
      `error: ${join(dir, "long.ndjson")}:2: longer than 1048576 bytes, the longest log line a test reads (MAX_LOG_LINE_BYTES)\n`,
    );
  });

  it("reads the members the format names, the first of each name, and calls others unknown whatever their name", async () => {
    const odd = file(
      "odd.test.json",
      '{"filter": "BotScore lt 30", "constructor": 1, "__proto__": {}, "cases": [{"record": {"BotScore": 1}, "match": true, "toString": 2}], "filter": 3}',
    );
    expect((await runCli(["test", odd])).stderr).toBe(
      [
        `error: ${odd}:1:30: unknown member "constructor"; a test file has filter, dataset, cases and log`,
        `error: ${odd}:1:48: unknown member "__proto__"; a test file has filter, dataset, cases and log`,
        "",
      ].join("\n"),
    );
  });
});
