import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { temporaryFolder } from "../helpers/folders.js";

const root = temporaryFolder("filterc-dataset-");

/** The CLI run in-process from `cwd` (where standard input's filterc.json is looked up). */
const run = (args: string[], cwd: string, stdin = "") => runCli(args, stdin, {}, false, cwd);

/** Writes files (path → text) under a new folder of the test's own, and returns the folder. */
async function files(name: string, contents: Record<string, string>): Promise<string> {
  const dir = join(root(), name);
  for (const [path, text] of Object.entries(contents)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

/** The pulled account-level filter of the issue: five gateway_http fields, unknown to http_requests. */
const gatewayFilter =
  'Action eq "block" and HTTPHost endsWith ".example.com" and HTTPMethod eq "POST"\n' +
  '  and HTTPStatusCode geq 400 and PolicyName eq "block uploads"\n';
const pulledHeader =
  '# Logpush job 3 "gw-block" (dataset gateway_http)\n' +
  "# pulled by filterc jobs pull; filterc jobs diff compares it with the live job by meaning\n";

describe("a filter file that names its dataset", () => {
  it("checks against it: the pulled account-level filter of the issue checks clean", async () => {
    const dir = await files("issue", {
      "gw-block.lpf": `${pulledHeader}# dataset: gateway_http\n${gatewayFilter}`,
      "old-pull.lpf": `${pulledHeader}${gatewayFilter}`,
    });
    expect(await run(["check", join(dir, "gw-block.lpf")], dir)).toEqual({
      code: 0,
      stdout: "ok: 5 of 30 comparisons, 301 of 1000 bytes\n",
      stderr: "",
    });
    const old = await run(["check", "--json", join(dir, "old-pull.lpf")], dir);
    expect(JSON.parse(old.stdout).diagnostics.map((d: { code: string }) => d.code)).toEqual([
      "E0201",
      "E0201",
      "E0201",
      "E0201",
      "E0201",
    ]);
  });

  it("is an error naming both places when --dataset names another dataset; nothing is compiled", async () => {
    const dir = await files("conflict", { "gw.lpf": `# dataset: gateway_http\n${gatewayFilter}` });
    const file = join(dir, "gw.lpf");
    expect(await run(["compile", "--dataset", "http_requests", file], dir)).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "error[E0008]: this file names the dataset `gateway_http`, but it is checked against `http_requests` (--dataset, the dataset option, or the job's dataset); make them agree, or remove one\n" +
        ` --> ${file}:1:12\n` +
        "  |\n" +
        "1 | # dataset: gateway_http\n" +
        "  |            ^^^^^^^^^^^^\n" +
        "1 error\n",
    });
    expect((await run(["compile", "--dataset", "gateway_http", file], dir)).code).toBe(0);
  });

  it("names an unknown dataset where the directive writes it, with the fix", async () => {
    const dir = await files("unknown", { "gw.lpf": `# dataset: gatway_http\n${gatewayFilter}` });
    const checked = await run(["check", "--json", join(dir, "gw.lpf")], dir);
    expect(checked.code).toBe(1);
    expect(JSON.parse(checked.stdout).diagnostics).toEqual([
      {
        code: "E0004",
        severity: "error",
        message: `unknown dataset \`gatway_http\`; known datasets: gateway_http, gateway_dns, gateway_network, audit_logs, zaraz_events and 32 more (did you mean gateway_http?)`,
        range: {
          start: { offset: 11, line: 1, column: 12 },
          end: { offset: 22, line: 1, column: 23 },
        },
        suggestion: {
          message: "replace with `gateway_http`",
          range: {
            start: { offset: 11, line: 1, column: 12 },
            end: { offset: 22, line: 1, column: 23 },
          },
          replacement: "gateway_http",
        },
      },
    ]);
  });

  it("is an error after the first comparison, in every command that reads the file, fmt too", async () => {
    const dir = await files("late", {
      "late.lpf": "BotScore lt 30\n# dataset: gateway_http\nand BotScore gt 1\n",
    });
    const file = join(dir, "late.lpf");
    for (const command of [
      ["check"],
      ["fmt"],
      ["explain"],
      ["eval", "--filter"],
      ["sql", "--dialect", "duckdb"],
    ]) {
      const result = await run([...command, file], dir, "");
      expect(result.code, command[0]).toBe(1);
      expect(result.stderr, command[0]).toContain(
        "error[E0007]: `# dataset:` comes after the filter has begun; it names the dataset of the whole file: move it above the filter\n" +
          ` --> ${file}:2:1\n`,
      );
    }
  });

  it("is kept by fmt, in its place above the filter", async () => {
    const dir = await files("fmt", { "gw.lpf": `${pulledHeader}#dataset:gateway_http\nAction=="block"\n` });
    expect(await run(["fmt", join(dir, "gw.lpf")], dir)).toEqual({
      code: 0,
      stdout: `${pulledHeader}#dataset:gateway_http\nAction eq "block"\n`,
      stderr: "",
    });
  });

  it("applies to explain, eval, sql and query alike", async () => {
    const dir = await files("commands", {
      "gw.lpf": '# dataset: gateway_http\nAction eq "block" and HTTPStatusCode geq 400\n',
      "logs.ndjson": '{"Action":"block","HTTPStatusCode":403}\n{"Action":"allow","HTTPStatusCode":403}\n',
    });
    const file = join(dir, "gw.lpf");
    expect(await run(["explain", file], dir)).toEqual({
      code: 0,
      stdout:
        'a record is pushed when all of:\n  Action (string) is "block"\n  HTTPStatusCode (int) is at least 400\n2 of 30 comparisons, 124 of 1000 bytes\n',
      stderr: "",
    });
    expect(await run(["eval", "--filter", file, join(dir, "logs.ndjson"), "--jobs", "1"], dir)).toEqual({
      code: 0,
      stdout: '{"Action":"block","HTTPStatusCode":403}\n',
      stderr: "read 2 lines, matched 1, malformed 0\n",
    });
    const sql = await run(["sql", "--dialect", "duckdb", file], dir);
    expect({ code: sql.code, stderr: sql.stderr }).toEqual({ code: 0, stderr: "" });
    expect(sql.stdout).toContain("'/HTTPStatusCode'");
    // query names a field itself: it is one of the dataset the file names.
    const logs = join(dir, "logs.ndjson");
    expect(await run(["query", "--filter", file, logs, "--group-by", "Action"], dir)).toEqual({
      code: 0,
      stdout: '1\t"block"\n',
      stderr: "",
    });
    expect(await run(["query", "--filter", file, logs, "--group-by", "BotScore"], dir)).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'filterc query: --group-by "BotScore": gateway_http has no such field\nUsage: filterc query (--filter FILE | --expr SOURCE) PATH... [options]\nRun filterc query --help for the options.\n',
    });
  });
});

describe("filterc.json", () => {
  it("sets the dataset of the files beneath it that name none; the nearest one alone applies", async () => {
    const dir = await files("nearest", {
      "filterc.json": '{"dataset": "dns_logs"}',
      "gateway/filterc.json": '{"dataset": "gateway_http"}',
      "gateway/block/gw.lpf": gatewayFilter,
      "gateway/block/named.lpf": `# dataset: gateway_dns\nQueryName eq "example.com"\n`,
      "dns.lpf": 'QueryName eq "example.com"\n',
    });
    expect((await run(["check", join(dir, "gateway", "block", "gw.lpf")], dir)).code).toBe(0);
    // The directive wins over filterc.json; the flag over both.
    expect((await run(["check", join(dir, "gateway", "block", "named.lpf")], dir)).code).toBe(0);
    expect((await run(["check", join(dir, "dns.lpf")], dir)).code).toBe(0);
    expect((await run(["check", "--dataset", "gateway_http", join(dir, "dns.lpf")], dir)).code).toBe(1);
    const decompiled = await run(
      ["decompile", "-"],
      join(dir, "gateway"),
      '{"where":{"key":"Action","operator":"eq","value":"block"}}',
    );
    expect(decompiled).toEqual({ code: 0, stdout: 'Action eq "block"\n', stderr: "" });
  });

  it("applies to standard input and --expr from the current folder", async () => {
    const dir = await files("stdin", {
      "filterc.json": '{"dataset": "gateway_http", "maxOperators": 5}',
      "logs.ndjson": '{"Action":"block"}\n{"Action":"allow"}\n',
    });
    expect(await run(["check"], dir, 'Action eq "block"')).toEqual({
      code: 0,
      stdout: "ok: 1 of 5 comparisons, 58 of 1000 bytes\n",
      stderr: "",
    });
    expect(
      await run(["eval", "--expr", 'Action eq "block"', "--count", join(dir, "logs.ndjson")], dir),
    ).toEqual({
      code: 0,
      stdout: "1\n",
      stderr: "read 2 lines, matched 1, malformed 0\n",
    });
  });

  it("sets the limits the flags leave", async () => {
    const dir = await files("limits", {
      "filterc.json": '{"maxOperators": 1, "maxBytes": 2000}',
      "two.lpf": "BotScore lt 30 and BotScore gt 1\n",
    });
    const file = join(dir, "two.lpf");
    const over = await run(["check", file], dir);
    expect(over.code).toBe(1);
    expect(over.stderr).toContain(
      "error[E0401]: the filter has 2 comparisons; Logpush accepts at most 1 (--max-operators)",
    );
    expect(await run(["check", "--max-operators", "2", file], dir)).toEqual({
      code: 0,
      stdout: "ok: 2 of 2 comparisons, 114 of 2000 bytes\n",
      stderr: "",
    });
  });

  it("that cannot be used is an error naming each problem's place, and nothing is compiled", async () => {
    const dir = await files("broken", {
      "filterc.json": '{\n  "datset": "gateway_http",\n  "maxBytes": "1000"\n}\n',
      "sub/f.lpf": "BotScore lt 30\n",
    });
    const expected =
      'filterc check: filterc.json:2:3: unknown setting "datset"; did you mean "dataset"? (filterc.json takes $schema, dataset, maxOperators, maxBytes, samples, diagnostics)\n' +
      'filterc.json:3:15: maxBytes must be a whole number from 1 to 9007199254740991, not "1000"\n';
    expect(await run(["check", join(dir, "sub", "f.lpf")], dir)).toEqual({
      code: 1,
      stdout: "",
      stderr: expected,
    });
    // Named relative to the current folder.
    const fromSub = await run(["check", join(dir, "sub", "f.lpf")], join(dir, "sub"));
    expect(fromSub.stderr.split("\n", 1)[0]).toBe(
      'filterc check: ../filterc.json:2:3: unknown setting "datset"; did you mean "dataset"? (filterc.json takes $schema, dataset, maxOperators, maxBytes, samples, diagnostics)',
    );
    const json = await run(["compile", "--json", join(dir, "sub", "f.lpf")], dir);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, failure: "input" });
    await writeFile(join(dir, "filterc.json"), '{"dataset": "gatway_http"}');
    expect((await run(["eval", "--expr", "BotScore lt 30"], dir)).stderr).toBe(
      `filterc eval: filterc.json:1:13: unknown dataset "gatway_http"; known datasets: gateway_http, gateway_dns, gateway_network, audit_logs, zaraz_events and 32 more (did you mean gateway_http?)\n`,
    );
    await writeFile(join(dir, "filterc.json"), "{} // defaults");
    expect(await run(["explain", "-"], dir, "BotScore lt 30")).toEqual({
      code: 1,
      stdout: "",
      stderr: "filterc explain: filterc.json:1:4: not JSON: InvalidCommentToken\n",
    });
  });
});

describe("filterc diff and filterc test", () => {
  it("diff reads each side with its own dataset, and refuses to compare across datasets", async () => {
    const dir = await files("diff", {
      "a/filterc.json": '{"dataset": "gateway_http"}',
      "a/gw.lpf": 'Action eq "block"\n',
      "b/gw.lpf": '# dataset: gateway_http\nAction in ["block"]\n',
      "c/dns.lpf": "# dataset: dns_logs\nQueryType eq 1\n",
    });
    expect(await run(["diff", join(dir, "a", "gw.lpf"), join(dir, "b", "gw.lpf")], dir)).toEqual({
      code: 0,
      stdout: "equivalent\n",
      stderr: "",
    });
    const across = await run(["diff", join(dir, "b", "gw.lpf"), join(dir, "c", "dns.lpf")], dir);
    expect(across.code).toBe(2);
    expect(across.stderr).toContain(
      `error[E0700]: this filter is read with the dataset dns_logs, and ${join(dir, "b", "gw.lpf")} with gateway_http`,
    );
    expect(across.stderr).toContain(` --> ${join(dir, "c", "dns.lpf")}:1:12\n`);
    await writeFile(join(dir, "a", "filterc.json"), "[]");
    expect(await run(["diff", join(dir, "a", "gw.lpf"), join(dir, "b", "gw.lpf")], dir)).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'filterc diff: a/filterc.json:1:1: filterc.json holds one JSON object, like {"dataset": "gateway_http"}\n',
    });
  });

  it("test reads a filter file's directive and its folder's filterc.json; a test file's dataset must agree", async () => {
    const cases = [{ record: { Action: "block" }, match: true }];
    const dir = await files("tests", {
      "filters/gw.lpf": '# dataset: gateway_http\nAction eq "block"\n',
      "filters/plain.lpf": 'Action eq "block"\n',
      "filters/filterc.json": '{"dataset": "gateway_http"}',
      "tests/gw.test.json": JSON.stringify({ filter: { file: "../filters/gw.lpf" }, cases }),
      "tests/plain.test.json": JSON.stringify({ filter: { file: "../filters/plain.lpf" }, cases }),
      "tests/inline.test.json": JSON.stringify({ filter: 'Action eq "block"', cases }),
      "tests/wrong.test.json": JSON.stringify({
        dataset: "http_requests",
        filter: { file: "../filters/gw.lpf" },
        cases,
      }),
    });
    const tests = join(dir, "tests");
    expect(await run(["test", join(tests, "gw.test.json"), join(tests, "plain.test.json")], dir)).toEqual({
      code: 0,
      stdout: `ok   ${join(tests, "gw.test.json")}: 1 case\nok   ${join(tests, "plain.test.json")}: 1 case\n2 passed, 0 failed\n`,
      stderr: "",
    });
    // A filter written in the test file takes the test file's folder's defaults: none here.
    const inline = await run(["test", join(tests, "inline.test.json")], dir);
    expect(inline.code).toBe(2);
    expect(inline.stderr).toContain("error[E0201]: unknown field `Action` in dataset http_requests\n");
    const wrong = await run(["test", join(tests, "wrong.test.json")], dir);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain(
      "error[E0008]: this file names the dataset `gateway_http`, but it is checked against `http_requests`",
    );
    expect(wrong.stderr).toContain(` --> ${join(tests, "..", "filters", "gw.lpf")}:1:12\n`);
    await writeFile(join(dir, "filters", "filterc.json"), '{"maxBytes": true}');
    expect(await run(["test", join(tests, "plain.test.json")], dir)).toEqual({
      code: 2,
      stdout: "0 passed, 0 failed, with errors\n",
      stderr:
        "error: filters/filterc.json:1:14: maxBytes must be a whole number from 1 to 9007199254740991, not true\n",
    });
    expect(await readFile(join(dir, "filters", "gw.lpf"), "utf8")).toBe(
      '# dataset: gateway_http\nAction eq "block"\n',
    );
  });
});
