import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { TUNABLE_CODES } from "../../src/diagnostics/index.js";
import { runCli } from "../helpers/cli.js";
import { temporaryFolder } from "../helpers/folders.js";

/*
 * --deny and --allow, a folder's filterc.json `diagnostics`, and `# filterc-ignore` comments, as
 * check, compile, fmt --check and the Terraform check report them: exact output and exit codes.
 */

const folder = temporaryFolder("filterc-tuning-");

const SECONDS = "EdgeStartTimestamp gt 1700000000\n";
const W0120 =
  "1700000000 compared with `EdgeStartTimestamp` is 1970-01-01T00:00:01.7Z in unix nanoseconds, the unit Logpush compares timestamps in; read as seconds it would be 2023-11-14T22:13:20Z";
const KNOWN = `${TUNABLE_CODES.join(", ")}, and \`warnings\` for every warning`;

/** W0120 of SECONDS rendered at `file`, with the severity it has. */
const rendered = (severity: string, file: string) =>
  [
    `${severity}[W0120]: ${W0120}`,
    ` --> ${file}:1:23`,
    "  |",
    "1 | EdgeStartTimestamp gt 1700000000",
    "  |                       ^^^^^^^^^^",
    "  = help: write 2023-11-14T22:13:20Z in nanoseconds: 1700000000000000000",
    "",
  ].join("\n");

let folders = 0;
/**
 * A fresh folder holding `files`, and `filterc` run in it: a path argument is given whole (the
 * in-process CLI opens files from the test's own folder) and the output names it as the user gave it.
 */
async function project(files: Record<string, string>) {
  const dir = join(folder(), `p${folders++}`);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(join(dir, name, ".."), { recursive: true });
    await writeFile(join(dir, name), text);
  }
  const paths = new Set([".", ...Object.keys(files).flatMap((name) => [name, dirname(name)])]);
  return async (...args: string[]) => {
    const whole = args.map((arg) => (paths.has(arg) ? join(dir, arg) : arg));
    const run = await runCli(whole, "", {}, false, dir);
    const shown = (text: string) => text.replaceAll(`${dir}/`, "");
    return { code: run.code, stdout: shown(run.stdout), stderr: shown(run.stderr) };
  };
}

describe("--deny and --allow", () => {
  it("make a warning an error (exit 1) or report it no more (exit 0)", async () => {
    const run = await project({ "a.lpf": SECONDS });
    expect(await run("check", "--deny", "W0120", "a.lpf")).toEqual({
      code: 1,
      stdout: "",
      stderr: `${rendered("error", "a.lpf")}1 error\n`,
    });
    expect(await run("check", "--allow", "W0120", "a.lpf")).toEqual({
      code: 0,
      stdout: "ok: 1 of 30 comparisons, 75 of 1000 bytes\n",
      stderr: "",
    });
    expect(await run("check", "--deny", "warnings", "--allow", "W0120,W0101", "a.lpf")).toEqual({
      code: 0,
      stdout: "ok: 1 of 30 comparisons, 75 of 1000 bytes\n",
      stderr: "",
    });
  });

  it("--deny warnings fails on any warning, for CI", async () => {
    const run = await project({ "a.lpf": SECONDS });
    const result = await run("check", "--deny", "warnings", "a.lpf");
    expect([result.code, result.stderr]).toEqual([1, `${rendered("error", "a.lpf")}1 error\n`]);
  });

  it("tune compile and its --json the same way", async () => {
    const run = await project({ "a.lpf": SECONDS });
    expect(await run("compile", "--deny", "W0120", "a.lpf")).toEqual({
      code: 1,
      stdout: "",
      stderr: `${rendered("error", "a.lpf")}1 error\n`,
    });
    const json = await run("compile", "--json", "--deny", "W0120", "a.lpf");
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      filter: null,
      diagnostics: [{ code: "W0120", severity: "error", message: W0120 }],
    });
    expect(await run("compile", "--allow", "W0120", "a.lpf")).toEqual({
      code: 0,
      stdout: '{"where":{"key":"EdgeStartTimestamp","operator":"gt","value":"1700000000"}}\n',
      stderr: "",
    });
  });

  it("refuse a code no warning or note has, an error's code, and one code both denied and allowed (exit 2)", async () => {
    const run = await project({ "a.lpf": SECONDS });
    const first = async (...args: string[]) => {
      const result = await run(...args);
      return [result.code, result.stdout, result.stderr.split("\n")[0]];
    };
    expect(await first("check", "--deny", "W0210", "a.lpf")).toEqual([
      2,
      "",
      `filterc check: --deny names \`W0210\`, which is no code of a warning or note (those that can be tuned are ${KNOWN})`,
    ]);
    expect(await first("compile", "--allow", "W012O", "a.lpf")).toEqual([
      2,
      "",
      `filterc compile: --allow names \`W012O\`, which is no code of a warning or note (those that can be tuned are ${KNOWN}); did you mean \`W0120\`?`,
    ]);
    expect(await first("check", "--allow", "E0401", "a.lpf")).toEqual([
      2,
      "",
      "filterc check: --allow names `E0401`, an error, which cannot be tuned: Logpush refuses JSON past its limits; only warnings and notes can",
    ]);
    expect(await first("check", "--deny", "W0120", "--allow", "W0120", "a.lpf")).toEqual([
      2,
      "",
      "filterc check: W0120 is given to both --deny and --allow; give it to one",
    ]);
    expect(await first("fmt", "--deny", "W0120", "a.lpf")).toEqual([
      2,
      "",
      "filterc fmt: --deny and --allow apply to fmt --check",
    ]);
  });
});

describe("a filterc.json's diagnostics", () => {
  it("set the levels of the files beneath it; the flags win code by code", async () => {
    const run = await project({
      "strict/filterc.json": '{"diagnostics": {"W0120": "error", "W0101": "off"}}',
      "strict/a.lpf": SECONDS,
      "strict/waf.lpf": 'WAFFlags eq "1"\n',
    });
    expect(await run("check", "strict/a.lpf")).toEqual({
      code: 1,
      stdout: "",
      stderr: `${rendered("error", "strict/a.lpf")}1 error\n`,
    });
    expect(await run("check", "strict/waf.lpf")).toEqual({
      code: 0,
      stdout: "ok: 1 of 30 comparisons, 56 of 1000 bytes\n",
      stderr: "",
    });
    expect((await run("check", "--allow", "W0120", "strict/a.lpf")).code).toBe(0);
    const denied = await run("check", "--deny", "W0101", "strict/waf.lpf");
    expect([denied.code, denied.stderr.split("\n")[0]]).toEqual([
      1,
      "error[W0101]: `WAFFlags` is deprecated",
    ]);
  });

  it("apply to decompile's JSON too", async () => {
    const json = '{"where":{"key":"EdgeStartTimestamp","operator":"gt","value":1700000000}}';
    const run = await project({
      "quiet/filterc.json": '{"diagnostics": {"W0120": "off"}}',
      "quiet/f.json": json,
      "f.json": json,
    });
    expect(await run("decompile", "quiet/f.json")).toEqual({ code: 0, stdout: SECONDS, stderr: "" });
    const loud = await run("decompile", "f.json");
    expect([loud.code, loud.stdout, loud.stderr.split("\n")[0]]).toEqual([
      0,
      SECONDS,
      `warning[W0120]: /where/value: ${W0120}`,
    ]);
  });

  it("is refused, each problem at its place, when a code or level is wrong", async () => {
    const run = await project({
      "filterc.json": '{\n  "diagnostics": {"W0210": "off", "W0120": "warn"}\n}\n',
      "a.lpf": SECONDS,
    });
    expect(await run("check", "a.lpf")).toEqual({
      code: 1,
      stdout: "",
      stderr: [
        `filterc check: filterc.json:2:19: "diagnostics" names \`W0210\`, which is no code of a warning or note (those that can be tuned are ${KNOWN})`,
        'filterc.json:2:44: "diagnostics" sets `W0120` to "warn"; a level is "off", "note", "warning" or "error"',
        "",
      ].join("\n"),
    });
  });
});

describe("# filterc-ignore in filter files", () => {
  it("silences its code on the next line, whatever the levels; what silences nothing is reported", async () => {
    const run = await project({
      "ignored.lpf": `# filterc-ignore W0120: the job's logs are in seconds\n${SECONDS}`,
      "stale.lpf": `# filterc-ignore W0105: once needed\n${SECONDS}`,
    });
    expect(await run("check", "--deny", "warnings", "ignored.lpf")).toEqual({
      code: 0,
      stdout: "ok: 1 of 30 comparisons, 75 of 1000 bytes\n",
      stderr: "",
    });
    expect(await run("check", "--allow", "W0120", "stale.lpf")).toEqual({
      code: 0,
      stdout: "ok: 1 of 30 comparisons, 75 of 1000 bytes\n",
      stderr: [
        "warning[W0150]: this `filterc-ignore` silences no W0105: none is reported where it applies",
        " --> stale.lpf:1:18",
        "  |",
        "1 | # filterc-ignore W0105: once needed",
        "  |                  ^^^^^",
        "  = help: remove the comment",
        "1 warning",
        "",
      ].join("\n"),
    });
    expect((await run("check", "--deny", "W0150", "--allow", "W0120", "stale.lpf")).code).toBe(1);
  });
});

describe("fmt --check", () => {
  const NEAR = "# Dataset: gateway_http\nBotScore lt 5\n";
  const W0122 = [
    "error[W0122]: this comment is not read as a dataset directive, so the file is not checked against gateway_http; write `# dataset: gateway_http`",
    " --> near.lpf:1:1",
    "  |",
    "1 | # Dataset: gateway_http",
    "  | ^^^^^^^^^^^^^^^^^^^^^^^",
    "  = help: write the directive: # dataset: gateway_http",
    "1 error",
    "",
  ].join("\n");

  it("fails on a parser's warning the flags or filterc.json make an error, and is silent otherwise", async () => {
    const run = await project({
      "near.lpf": NEAR,
      "strict/near.lpf": NEAR,
      "strict/filterc.json": '{"diagnostics": {"W0122": "error"}}',
    });
    expect(await run("fmt", "--check", "near.lpf")).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await run("fmt", "--check", "--deny", "W0122", "near.lpf")).toEqual({
      code: 1,
      stdout: "",
      stderr: W0122,
    });
    const strict = await run("fmt", "--check", "strict/near.lpf");
    expect([strict.code, strict.stdout, strict.stderr]).toEqual([
      1,
      "",
      W0122.replace("near.lpf", "strict/near.lpf"),
    ]);
  });

  it("does not call unused an ignore meant for the checker's warnings", async () => {
    const run = await project({ "ignored.lpf": `# filterc-ignore W0120: seconds\n${SECONDS}` });
    expect(await run("fmt", "--check", "--deny", "warnings", "ignored.lpf")).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
  });
});

describe("the Terraform check", () => {
  const job = (name: string, where: string, comment = "") =>
    [
      `resource "cloudflare_logpush_job" "${name}" {`,
      '  zone_id          = "023e105f4ecef8ad9ca31a8372d0c353"',
      '  dataset          = "http_requests"',
      `  destination_conf = "https://logs.example.com/${name}"`,
      "  output_options = {",
      '    field_names = ["ClientIP"]',
      "  }",
      ...(comment === "" ? [] : [`  ${comment}`]),
      "  filter = jsonencode({",
      `    where = ${where}`,
      "  })",
      "}",
      "",
    ].join("\n");
  const SECONDS_WHERE = '{ key = "EdgeStartTimestamp", operator = "gt", value = 1700000000 }';
  const WAF_WHERE = '{ key = "WAFFlags", operator = "eq", value = "1" }';

  it("silences a code in the argument after a # or // filterc-ignore, and tells one that silences nothing", async () => {
    const run = await project({
      "main.tf": [
        job("http", SECONDS_WHERE, "# filterc-ignore W0120: the bound is in seconds on purpose"),
        "// filterc-ignore W0101: the old dashboards read it",
        job("waf", WAF_WHERE),
        job("stale", WAF_WHERE, "# filterc-ignore W0105"),
      ].join("\n"),
    });
    const result = await run("check", "--json", ".");
    expect(result.code).toBe(0);
    const [file] = JSON.parse(result.stdout).files;
    expect(
      file.diagnostics.map(
        (d: { code: string; severity: string; range: { start: { line: number; column: number } } }) =>
          `${d.code} ${d.severity} ${d.range.start.line}:${d.range.start.column}`,
      ),
    ).toEqual(["W0151 warning 34:3", "W0150 warning 34:20", "W0101 warning 36:21"]);
  });

  it("takes --deny, --allow and the folder's filterc.json; the exit code follows", async () => {
    const run = await project({
      "infra/main.tf": job("http", SECONDS_WHERE),
      "infra/filterc.json": '{"diagnostics": {"W0120": "off"}}',
    });
    expect(await run("check", "infra")).toEqual({
      code: 0,
      stdout: "ok: 1 Terraform file checked\n",
      stderr: "",
    });
    const denied = await run("check", "--deny", "W0120", "infra");
    expect([denied.code, denied.stderr.split("\n")[0], denied.stderr.split("\n").at(-2)]).toEqual([
      1,
      `error[W0120]: /where/value: ${W0120}`,
      "1 error",
    ]);
  });
});
