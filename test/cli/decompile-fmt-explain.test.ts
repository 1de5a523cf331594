import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { builtCli, ensureBundles } from "../helpers/bundles.js";
import { runCli, spawnCli } from "../helpers/cli.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

const filter =
  '{"where":{"or":[{"key":"EdgeResponseStatus","operator":"in","value":[500,502]},{"key":"ClientRequestPath","operator":"!startsWith","value":"/health"}]}}';

describe("filterc decompile", () => {
  it("prints canonical source (the built bundle)", async () => {
    expect(await spawnCli(["decompile"], filter)).toEqual({
      code: 0,
      stdout: 'EdgeResponseStatus in [500, 502] or ClientRequestPath !startsWith "/health"\n',
      stderr: "",
    });
  });

  it("reads a job record and uses its dataset", async () => {
    const job = JSON.stringify({
      dataset: "dns_logs",
      filter: '{"where":{"key":"QueryName","operator":"endsWith","value":".example"}}',
    });
    expect(await runCli(["decompile"], job)).toEqual({
      code: 0,
      stdout: 'QueryName endsWith ".example"\n',
      stderr: "",
    });
  });

  it("prints nothing for no filter", async () => {
    expect(await runCli(["decompile"], '""')).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("renders errors with the pointer, place and fix, exit 1", async () => {
    const run = await runCli(
      ["decompile"],
      '{"where":{"and":[{"key":"ClientCountry","operator":"neq","value":"ca"}]}}',
    );
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr: [
        'error[E0511]: /where/and/0/operator: unknown operator "neq"; did you mean "!eq"?',
        " --> <stdin>:1:52",
        "  |",
        '1 | {"where":{"and":[{"key":"ClientCountry","operator":"neq","value":"ca"}]}}',
        "  |                                                    ^^^^^",
        '  = help: replace with "!eq": "!eq"',
        "1 error",
        "",
      ].join("\n"),
    });
  });

  it("prints JSON with --json", async () => {
    const run = await runCli(
      ["decompile", "--json"],
      '{"where":{"key":"BotScore","operator":"lt","value":"30"}}',
    );
    expect(run).toEqual({
      code: 0,
      stdout: '{"ok":true,"source":"BotScore lt 30","diagnostics":[]}\n',
      stderr: "",
    });
  });

  it("rejects a bad flag with usage, exit 2", async () => {
    const run = await runCli(["decompile", "--line-width", "wide"], filter);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--line-width takes a whole number");
  });
});

describe("filterc fmt", () => {
  // 1,500 comparisons: ~85 KB in (under the 100,000-character source limit), more out, past the
  // 64 KiB a pipe buffers.
  const longSource = Array.from(
    { length: 1_500 },
    (_, i) => `ClientRequestPath eq "/a/longer/page/path/${i}"`,
  ).join(" or ");

  it("reads standard input and writes output larger than a pipe holds, whole and in order (a real process)", async () => {
    const inProcess = await runCli(["fmt"], longSource);
    expect(inProcess.code).toBe(0);
    expect(inProcess.stdout.length).toBeGreaterThan(65_536);
    expect(await spawnCli(["fmt"], longSource)).toEqual(inProcess);
  });

  it("stops quietly when the reader goes away (`filterc fmt … | head`): exit 0, nothing on stderr", async () => {
    const child = spawn(process.execPath, [builtCli(), "fmt"]);
    child.stdin.end(longSource);
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  });

  const dir = mkdtempSync(join(tmpdir(), "filterc-fmt-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("prints standard input formatted, comments kept", async () => {
    const run = await runCli(["fmt"], "# hosts\na == 1 && (b > 2 || !c not in [1,2]) # why\n");
    expect(run).toEqual({
      code: 0,
      stdout: "# hosts\na eq 1\n  and (\n    b gt 2\n    or not c !in [1, 2] # why\n  )\n",
      stderr: "",
    });
  });

  it("--check lists unformatted files and exits 1; --write fixes them", async () => {
    const messy = join(dir, "messy.lpf");
    const tidy = join(dir, "tidy.lpf");
    writeFileSync(messy, "a  ==  1\n");
    writeFileSync(tidy, "a eq 1\n");
    expect(await runCli(["fmt", "--check", messy, tidy])).toEqual({
      code: 1,
      stdout: `${messy}\n`,
      stderr: "",
    });
    expect(await runCli(["fmt", "--write", messy, tidy])).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(readFileSync(messy, "utf8")).toBe("a eq 1\n");
    expect(await runCli(["fmt", "--check", messy, tidy])).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  it("reports syntax errors and exits 1", async () => {
    const run = await runCli(["fmt"], "a eq");
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("error[E0104]");
  });

  it("refuses --write with --check, and --write on standard input, exit 2", async () => {
    expect((await runCli(["fmt", "--write", "--check", "x"])).code).toBe(2);
    expect((await runCli(["fmt", "--write"])).code).toBe(2);
  });
});

describe("filterc explain", () => {
  it("prints the tree in words and the limits", async () => {
    const run = await runCli(
      ["explain"],
      'EdgeResponseStatus geq 500 and not (ClientRequestPath startsWith "/health" or ClientRequestMethod in ["HEAD", "OPTIONS"]) and SecurityActions contains "block"',
    );
    expect(run).toEqual({
      code: 0,
      stdout: [
        "a record is pushed when all of:",
        "  EdgeResponseStatus (int) is at least 500",
        '  ClientRequestPath (string) does not start with "/health" (or is missing)',
        '  ClientRequestMethod (string) is none of "HEAD", "OPTIONS" (or is missing)',
        '  SecurityActions (array[string]) has an element "block"',
        "4 of 30 comparisons, 288 of 1000 bytes",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("explains what the JSON means: `not` pushed down, so a `not lt` needs the field", async () => {
    const run = await runCli(["explain"], 'not (BotScore lt 30 or ClientCountry !eq "us")');
    expect(run).toEqual({
      code: 0,
      stdout: [
        "a record is pushed when all of:",
        "  BotScore (int) is at least 30",
        '  ClientCountry (string) is "us"',
        "2 of 30 comparisons, 121 of 1000 bytes",
        "",
      ].join("\n"),
      stderr: "",
    });
    expect((await runCli(["explain"], "BotScore lt 30")).stdout).toBe(
      "a record is pushed when BotScore (int) is less than 30\n1 of 30 comparisons, 57 of 1000 bytes\n",
    );
  });

  it("explains the empty filter", async () => {
    expect(await runCli(["explain"], "# nothing\n")).toEqual({
      code: 0,
      stdout: "no filter: every log line is pushed\n0 of 30 comparisons, 0 of 1000 bytes\n",
      stderr: "",
    });
  });

  it("reports errors, exit 1", async () => {
    const run = await runCli(["explain"], "BotScore startsWith 1");
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("error[E0301]");
  });
});
