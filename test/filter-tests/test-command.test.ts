import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { ensureBundles } from "../helpers/bundles.js";
import { runCli, spawnCli } from "../helpers/cli.js";

// A repository: the test files name files in the folders beside their own (../errors.lpf).
ensureBundles();

const dir = mkdtempSync(join(tmpdir(), "filterc-test-"));
mkdirSync(join(dir, ".git"));
function file(name: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

file("errors.lpf", 'EdgeResponseStatus geq 500 and not ClientRequestPath startsWith "/health"\n');
const passing = file(
  "pass/errors.test.json",
  JSON.stringify({
    filter: { file: "../errors.lpf" },
    cases: [
      { name: "a 502", record: { EdgeResponseStatus: 502, ClientRequestPath: "/api" }, match: true },
      {
        name: "a health check",
        record: { EdgeResponseStatus: 503, ClientRequestPath: "/health/db" },
        match: false,
      },
      { record: { EdgeResponseStatus: "200" }, match: false },
    ],
  }),
);
file(
  "pass/sample.ndjson",
  '{"EdgeResponseStatus":500}\n\n{"EdgeResponseStatus":404}\n{"EdgeResponseStatus":"599","ClientRequestPath":"/x"}\n',
);
file(
  "pass/log.test.json",
  JSON.stringify({ filter: "EdgeResponseStatus geq 500", log: { file: "sample.ndjson", matches: [1, 4] } }),
);
const failing = file(
  "fail.test.json",
  `{"filter": "EdgeResponseStatus geq 500 and not ClientRequestPath startsWith \\"/health\\"",
 "cases": [
  {"name": "health is dropped", "record": {"EdgeResponseStatus": 500, "ClientRequestPath": "/healthz"}, "match": true}
 ]}`,
);
const pushedDown = file(
  "meaning/not.test.json",
  JSON.stringify({
    filter: "not BotScore lt 30",
    cases: [
      { name: "a high score", record: { BotScore: 31 }, match: true },
      { name: "no score: the job's BotScore geq 30 drops it", record: {}, match: false },
    ],
    log: { file: "scores.ndjson", matches: [2] },
  }),
);
file("meaning/scores.ndjson", '{"BotScore":null}\n{"BotScore":30}\n{"ClientCountry":"us"}\n');
const badRecord = file(
  "bad.test.json",
  `{"filter": "BotScore lt 30",
 "cases": [
  {"record": {"BotScor": 1}, "match": true},
  {"name": "text score", "record": {"BotScore": "low"}, "match": false}
 ]}`,
);

file(
  "long/big.ndjson",
  `${Array.from({ length: 200_000 }, (_, i) => `{"EdgeResponseStatus":${i % 2 ? 500 : 200}}`).join("\n")}\n`,
);
const longLog = file(
  "long/big.test.json",
  JSON.stringify({
    filter: "EdgeResponseStatus geq 500",
    log: { file: "big.ndjson", matches: Array.from({ length: 100_000 }, (_, i) => 2 * i + 2) },
  }),
);

describe("filterc test", () => {
  it("runs a log of 200,000 lines (their cases once overflowed the stack as call arguments)", async () => {
    expect(await runCli(["test", longLog])).toEqual({
      code: 0,
      stdout: `ok   ${longLog}: 200000 cases\n200000 passed, 0 failed\n`,
      stderr: "",
    });
  });

  it("runs the cases and the log lines of each test file, exit 0", async () => {
    const run = await runCli(["test", join(dir, "pass")]);
    expect(run).toEqual({
      code: 0,
      stdout: `ok   ${join(dir, "pass")}/errors.test.json: 3 cases\nok   ${join(dir, "pass")}/log.test.json: 3 cases\n6 passed, 0 failed\n`,
      stderr: "",
    });
  });

  it("judges a case by what the JSON keeps: `not BotScore lt 30` drops a record without BotScore", async () => {
    expect(await runCli(["test", pushedDown])).toEqual({
      code: 0,
      stdout: `ok   ${pushedDown}: 5 cases\n5 passed, 0 failed\n`,
      stderr: "",
    });
  });

  it("prints the record, both verdicts and the tree marked with what held, exit 1", async () => {
    const run = await runCli(["test", failing]);
    expect(run).toEqual({
      code: 1,
      stdout: [
        `FAIL ${failing}: health is dropped (${failing}:3:3)`,
        '  record:   {"EdgeResponseStatus":500,"ClientRequestPath":"/healthz"}',
        "  expected: match, got: no match",
        "  ✗ all of:",
        "  ✓   EdgeResponseStatus (int) is at least 500",
        '  ✗   ClientRequestPath (string) does not start with "/health" (or is missing)',
        "",
        "0 passed, 1 failed",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("reports failures as JSON with --json", async () => {
    const run = await runCli(["test", failing, passing, "--json"]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      passed: 3,
      failed: 1,
      files: [
        {
          file: failing,
          passed: 0,
          failed: 1,
          failures: [
            {
              name: "health is dropped",
              place: `${failing}:3:3`,
              record: { EdgeResponseStatus: 500, ClientRequestPath: "/healthz" },
              expected: true,
              actual: false,
            },
          ],
          errors: [],
        },
        { file: passing, passed: 3, failed: 0, failures: [], errors: [] },
      ],
    });
  });

  it("refuses unknown fields and values of the wrong type in records, naming the file and place, exit 2", async () => {
    const run = await runCli(["test", badRecord]);
    expect(run).toEqual({
      code: 2,
      stdout: "0 passed, 0 failed, with errors\n",
      stderr: [
        `error: ${badRecord}:3:3: case 1: the record has "BotScor", which is no field of http_requests`,
        `error: ${badRecord}:4:3: text score: BotScore is int in http_requests, but the record holds "low"`,
        "",
      ].join("\n"),
    });
  });

  it("reads a timestamp in a record as eval does, and refuses one that is no time", async () => {
    const times = file(
      "times.test.json",
      `{"filter": "EdgeStartTimestamp geq 1700000000000000000", "cases": [
  {"record": {"EdgeStartTimestamp": "2023-11-14T22:13:20Z"}, "match": true},
  {"record": {"EdgeStartTimestamp": "2023-11-14T23:13:19.999+01:00"}, "match": false},
  {"record": {"EdgeStartTimestamp": 1700000000}, "match": true},
  {"record": {"EdgeStartTimestamp": 1700000000000000001}, "match": true}
]}`,
    );
    expect(await runCli(["test", times])).toEqual({
      code: 0,
      stdout: `ok   ${times}: 4 cases\n4 passed, 0 failed\n`,
      stderr: "",
    });
    const notTimes = file(
      "not-times.test.json",
      `{"filter": "EdgeStartTimestamp geq 0", "cases": [
  {"record": {"EdgeStartTimestamp": "yesterday"}, "match": false},
  {"record": {"EdgeStartTimestamp": 1700000000123}, "match": false}
]}`,
    );
    const time =
      "EdgeStartTimestamp is a time (RFC 3339 text, or unix seconds or nanoseconds) in http_requests";
    expect(await runCli(["test", notTimes])).toEqual({
      code: 2,
      stdout: "0 passed, 0 failed, with errors\n",
      stderr:
        `error: ${notTimes}:2:3: case 1: ${time}, but the record holds "yesterday"\n` +
        `error: ${notTimes}:3:3: case 2: ${time}, but the record holds 1700000000123\n`,
    });
  });

  it("refuses malformed test files and log lines with their place, exit 2", async () => {
    const notJson = file("broken.test.json", '{"filter": "BotScore lt 1", "cases": [}');
    expect((await runCli(["test", notJson])).stderr).toBe(
      `error: ${notJson}:1:39: not JSON: ValueExpected\n`,
    );
    const shape = file("shape.test.json", '{"filter": 3, "case": []}');
    expect((await runCli(["test", shape])).stderr).toBe(
      [
        `error: ${shape}:1:15: unknown member "case"; a test file has filter, dataset, cases and log`,
        `error: ${shape}:1:12: filter must be filter source (a string) or {"file": path}`,
        `error: ${shape}:1:1: a test file needs cases, a log, or both`,
        "",
      ].join("\n"),
    );
    file("bad.ndjson", '{"BotScore": 1}\nnot json\n');
    const log = file(
      "badlog.test.json",
      '{"filter": "BotScore lt 1", "log": {"file": "bad.ndjson", "matches": [1, 7]}}',
    );
    const run = await runCli(["test", log]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      [
        `error: ${join(dir, "bad.ndjson")}:2: not a JSON object`,
        `error: ${join(dir, "bad.ndjson")}:7: line 7 is listed in matches but holds no record`,
        "",
      ].join("\n"),
    );
  });

  it("reads a gzip log as eval does, by its magic bytes, and names the damage in one", async () => {
    writeFileSync(join(dir, "sample.ndjson.gz"), gzipSync('{"BotScore": 0}\n{"BotScore": 50}\n'));
    const log = file(
      "gzip-log.test.json",
      '{"filter": "BotScore lt 1", "log": {"file": "sample.ndjson.gz", "matches": [1]}}',
    );
    expect(await runCli(["test", log])).toEqual({
      code: 0,
      stdout: `ok   ${log}: 2 cases\n2 passed, 0 failed\n`,
      stderr: "",
    });
    const whole = gzipSync('{"BotScore": 0}\n'.repeat(100));
    writeFileSync(join(dir, "cut.ndjson.gz"), whole.subarray(0, whole.length - 12));
    const cut = file("cut-log.test.json", '{"filter": "BotScore lt 1", "log": {"file": "cut.ndjson.gz"}}');
    expect((await runCli(["test", cut])).stderr).toBe(
      `error: ${cut}:1:36: cannot read the log ${join(dir, "cut.ndjson.gz")}: unexpected end of file inside a gzip member at byte ${whole.length - 12}\n`,
    );
  });

  it("names a file it cannot read as given, with the reason in words (was: the system's ENOENT message and absolute path)", async () => {
    const missing = join(dir, "missing.test.json");
    expect(await runCli(["test", missing])).toEqual({
      code: 2,
      stdout: "0 passed, 0 failed, with errors\n",
      stderr: `error: cannot read ${missing}: no such file\n`,
    });
    const filterMissing = file("filter-missing.test.json", '{"filter": {"file": "gone.lpf"}, "cases": []}');
    const logMissing = file(
      "log-missing.test.json",
      '{"filter": "BotScore lt 1", "log": {"file": "gone.ndjson"}}',
    );
    expect((await runCli(["test", filterMissing, logMissing])).stderr).toBe(
      [
        `error: ${filterMissing}: cannot read the filter ${join(dir, "gone.lpf")}: no such file`,
        `error: ${logMissing}:1:36: cannot read the log ${join(dir, "gone.ndjson")}: no such file`,
        "",
      ].join("\n"),
    );
  });

  it("reads no file a test file names outside its repository: not the environment, not a file beside it (the built CLI)", async () => {
    const secret = "planted-secret-5e0a91";
    writeFileSync(join(dir, "..", `${basename(dir)}-secret.ndjson`), `{"ClientIP":"${secret}"}\n`);
    const environ = file("environ.test.json", '{"filter": {"file": "/proc/self/environ"}, "cases": []}');
    const beside = file(
      "beside.test.json",
      `{"filter": "BotScore lt 1", "log": {"file": "../${basename(dir)}-secret.ndjson"}}`,
    );
    const rule = "(a test file names only files inside its folder or the repository that holds it)";
    expect(await spawnCli(["test", environ, beside], "", { FILTERC_PLANTED: secret })).toEqual({
      code: 2,
      stdout: "0 passed, 0 failed, with errors\n",
      stderr: [
        `error: ${environ}: cannot read the filter /proc/self/environ: not read: it is an absolute path ${rule}`,
        `error: ${beside}:1:36: cannot read the log ${join(dir, "..", `${basename(dir)}-secret.ndjson`)}: not read: it leads out of the folder checked ${rule}`,
        "",
      ].join("\n"),
    });
  });

  it("follows no link out of a folder it lists: the linked test file is not read", async () => {
    const suite = join(dir, "linked-suite");
    mkdirSync(suite);
    const outside = mkdtempSync(join(tmpdir(), "filterc-test-outside-"));
    writeFileSync(
      join(outside, "out.test.json"),
      '{"filter": "BotScore lt 1", "cases": [{"record": {"PLANTED_KEY": 1}, "match": false}]}',
    );
    symlinkSync(join(outside, "out.test.json"), join(suite, "out.test.json"));
    // A name that would start a line of its own, shown on one.
    symlinkSync(join(outside, "out.test.json"), join(suite, "forged\nok   a.test.json"));
    writeFileSync(
      join(suite, "ok.test.json"),
      '{"filter": "BotScore lt 1", "cases": [{"record": {"BotScore": 0}, "match": true}]}',
    );
    expect(await runCli(["test", suite])).toEqual({
      code: 2,
      stdout: `ok   ${join(suite, "ok.test.json")}: 1 case\n1 passed, 0 failed, with errors\n`,
      stderr: [
        `error: cannot read ${join(suite, "forged<U+000A>ok   a.test.json")}: not read: a link in it leads out of the folder checked`,
        `error: cannot read ${join(suite, "out.test.json")}: not read: a link in it leads out of the folder checked`,
        "",
      ].join("\n"),
    });
  });

  it("reports errors in the filter with their place, exit 2", async () => {
    const broken = file(
      "filter-error.test.json",
      '{"filter": "BotScor lt 1", "cases": [{"record": {}, "match": false}]}',
    );
    const run = await runCli(["test", broken]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `error[E0201]: unknown field \`BotScor\` in dataset http_requests; did you mean \`BotScore\`?\n --> ${broken} (filter):1:1`,
    );
    expect(run.stderr).toContain(`error: ${broken}: the filter ${broken} (filter) has errors\n`);
  });

  it("passes with a note when there are no test files, exit 0; --require-tests makes that exit 2", async () => {
    const empty = join(dir, "no-tests");
    mkdirSync(empty);
    const none = await runCli(["test", empty]);
    expect(none).toMatchObject({
      code: 0,
      stdout: "0 passed, 0 failed\n",
      stderr:
        "filterc test: no test files (*.test.json) found; nothing to run (--require-tests makes this an error)\n",
    });
    const json = await runCli(["test", "--json", empty]);
    expect(json).toMatchObject({ code: 0, stdout: '{"passed":0,"failed":0,"files":[]}\n', stderr: "" });
    for (const args of [
      ["test", "--require-tests", empty],
      ["test", "--json", "--require-tests", empty],
    ]) {
      const required = await runCli(args);
      expect(required.code).toBe(2);
      expect(required.stderr).toBe(
        "filterc test: no test files (*.test.json) found, and --require-tests asks for some\n",
      );
    }
    const withTests = await runCli(["test", "--require-tests", passing]);
    expect(withTests.code).toBe(0);
  });
});
