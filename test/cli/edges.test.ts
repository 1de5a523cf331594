import { constants } from "node:buffer";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "filterc-edges-"));
const file = (name: string, content: string | Uint8Array) => {
  writeFileSync(join(dir, name), content);
  return join(dir, name);
};
const logs = '{"BotScore":1}\n{"BotScore":90}\n';

describe("eval with an empty filter", () => {
  it("says on stderr that every line is selected", async () => {
    // The summary line after the notice is the eval command's own.
    const inline = await runCli(["eval", "--expr", "  # nothing yet\n"], logs);
    expect([inline.code, inline.stdout, inline.stderr.split("\n")[0]]).toEqual([
      0,
      logs,
      "filterc eval: the filter <expr> is empty: every line is selected",
    ]);
    const empty = file("empty.flt", "");
    const run = await runCli(["eval", "--filter", empty], logs);
    expect(run.stderr.split("\n")[0]).toBe(
      `filterc eval: the filter ${empty} is empty: every line is selected`,
    );
  });

  it("a filter that selects something says nothing of the kind", async () => {
    const run = await runCli(["eval", "--expr", "BotScore lt 30"], logs);
    expect([run.code, run.stdout, run.stderr.includes("empty")]).toEqual([0, '{"BotScore":1}\n', false]);
  });
});

const BOM = "\uFEFF";

describe("a UTF-8 byte order mark is dropped wherever a filter is read", () => {
  const source = `${BOM}BotScore lt 30\n`;
  const json = `${BOM}{"where":{"key":"BotScore","operator":"lt","value":"30"}}`;

  it("decompile, from a file and from standard input (it gave E0502 at 1:1)", async () => {
    const expected = { code: 0, stdout: "BotScore lt 30\n", stderr: "" };
    expect(await runCli(["decompile", file("bom.json", json)])).toEqual(expected);
    expect(await runCli(["decompile"], json)).toEqual(expected);
  });

  it("eval --filter with filter JSON or source, and --expr", async () => {
    for (const filter of [file("bom-filter.json", json), file("bom.flt", source)]) {
      const run = await runCli(["eval", "--filter", filter], logs);
      expect([run.code, run.stdout]).toEqual([0, '{"BotScore":1}\n']);
    }
    const run = await runCli(["eval", "--expr", source], logs);
    expect([run.code, run.stdout]).toEqual([0, '{"BotScore":1}\n']);
  });

  it("fmt --check, check, explain and compile --catalog", async () => {
    expect(await runCli(["fmt", "--check", file("bom-fmt.flt", source)])).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
    expect((await runCli(["check"], source)).code).toBe(0);
    expect((await runCli(["explain"], source)).code).toBe(0);
    const catalog = file("bom-catalog.json", `${BOM}[{"name":"Score","type":"int"}]`);
    expect(await runCli(["compile", "--dataset", "x", "--catalog", catalog], "Score lt 3")).toEqual({
      code: 0,
      stdout: '{"where":{"key":"Score","operator":"lt","value":"3"}}\n',
      stderr: "",
    });
  });

  it("the library's decompile reads it as a blank, keeping offsets", async () => {
    const { decompile } = await import("../../src/index.js");
    expect(decompile(json).source).toBe("BotScore lt 30");
    expect(decompile(`${BOM}{"where":1}`).diagnostics[0]!.range.start.offset).toBe(10);
  });

  it("a mark later in the source is text, not dropped", async () => {
    const run = await runCli(["compile"], `BotScore lt 30 and ClientRequestHost eq "a${BOM}"`);
    expect(run.stdout).toBe(
      '{"where":{"and":[{"key":"BotScore","operator":"lt","value":"30"},{"key":"ClientRequestHost","operator":"eq","value":"a\uFEFF"}]}}\n',
    );
  });
});

describe("source that is not UTF-8", () => {
  it("is an error naming the byte offset, not U+FFFD compiled silently", async () => {
    const bad = file("latin1.flt", Buffer.from([...Buffer.from('ClientCountry eq "caf'), 0xe9, 0x22]));
    expect(await runCli(["compile", bad])).toEqual({
      code: 1,
      stdout: "",
      stderr: `filterc compile: ${bad} is not valid UTF-8: byte 21 (0xE9) is not; save it as UTF-8\n`,
    });
    const cut = file("cut.flt", Buffer.from([...Buffer.from('ClientCountry eq "a'), 0xe2, 0x82]));
    expect((await runCli(["fmt", cut])).stderr).toBe(
      `filterc fmt: ${cut} is not valid UTF-8: byte 19 (0xE2) is not; save it as UTF-8\n`,
    );
  });
});

describe("fmt keeps what the file had", () => {
  it("comments after list elements stay with their elements", async () => {
    const source =
      'ClientRequestHost in [\n  "a.com", # prod\n  "b.com", # staging\n]\n  and BotScore lt 3 # bots\n';
    expect(await runCli(["fmt"], source)).toEqual({ code: 0, stdout: source, stderr: "" });
    expect(await runCli(["fmt"], 'ClientRequestHost in ["a.com", # prod\n"b.com"]')).toEqual({
      code: 0,
      stdout: 'ClientRequestHost in [\n  "a.com", # prod\n  "b.com",\n]\n',
      stderr: "",
    });
  });

  it("CRLF line endings stay CRLF, so fmt --check passes a formatted CRLF file", async () => {
    const crlf = 'ClientRequestHost eq "a" # host\r\n  and BotScore lt 3\r\n';
    expect(await runCli(["fmt", "--check", file("crlf.flt", crlf)])).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
    expect((await runCli(["fmt"], "BotScore lt 3 # x\r\n# end\r\n")).stdout).toBe(
      "BotScore lt 3 # x\r\n# end\r\n",
    );
  });
});

describe("a catalog that is not JSON", () => {
  it("is named with the place it goes wrong, never with its bytes", async () => {
    const catalog = file("not-a-catalog.json", '[{"name":"Score","type":"int"},\n TOKEN=planted-secret-77]');
    expect(await runCli(["compile", "--dataset", "x", "--catalog", catalog], "Score lt 3")).toEqual({
      code: 1,
      stdout: "",
      stderr: `filterc compile: catalog ${catalog} is not JSON (line 2, column 2)\n`,
    });
  });
});

describe("files without end are read to a bound (a device, a pipe)", () => {
  it("--catalog and test files: an error at their bound, not all memory", async () => {
    expect(await runCli(["compile", "--catalog", "/dev/zero", "-"], "BotScore lt 5")).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "filterc compile: /dev/zero is larger than 16777216 bytes, more than a field catalog needs; not read\n",
    });
    const suite = await runCli(["test", "/dev/zero"]);
    expect(suite.code).toBe(2);
    expect(suite.stdout + suite.stderr).toContain(
      "cannot read /dev/zero: larger than 16777216 bytes; not read",
    );
  });
});

describe("CLI conventions", () => {
  it("filterc with no arguments prints the usage on stderr, exit 2", async () => {
    const run = await runCli([]);
    expect([run.code, run.stdout, run.stderr.split("\n")[0]]).toEqual([
      2,
      "",
      "filterc: Cloudflare Logpush filters, checked before they are sent",
    ]);
  });

  it("filterc help compile prints compile's help, like compile --help", async () => {
    const help = await runCli(["help", "compile"]);
    expect(help).toEqual(await runCli(["compile", "--help"]));
    expect([help.code, help.stdout.split("\n")[0]]).toEqual([0, "filterc compile [FILE|-] [options]"]);
    expect((await runCli(["help", "bogus"])).code).toBe(2);
  });

  it("explain --json", async () => {
    const run = await runCli(["explain", "--json"], "BotScore lt 30");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      ok: true,
      explanation:
        "a record is pushed when BotScore (int) is less than 30\n1 of 30 comparisons, 57 of 1000 bytes\n",
      stats: { operators: 1, bytes: 57, maxOperators: 30, maxBytes: 1000 },
      diagnostics: [],
    });
    const bad = await runCli(["explain", "--json"], "BotScore lt");
    expect([bad.code, JSON.parse(bad.stdout).ok, JSON.parse(bad.stdout).explanation]).toEqual([
      1,
      false,
      null,
    ]);
  });

  it.each([
    [["compile", "--json", "--hcl"], "--json prints the filter in its JSON output; it takes no --hcl"],
    [["compile", "--json", "--string"], "--json prints the filter in its JSON output; it takes no --string"],
    [["compile", "--json", "--bogus"], "unknown option --bogus"],
    [["check", "--json", "--max-bytes", "0"], '--max-bytes takes a whole number of at least 1, not "0"'],
    [["bogus", "--json"], 'unknown command "bogus"'],
  ])("a usage error under --json is JSON on stdout: %j", async (args, message) => {
    const run = await runCli(args, "BotScore lt 30");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("");
    const output = JSON.parse(run.stdout);
    expect(output.ok).toBe(false);
    expect(output.failure).toBe("usage");
    expect(output.message.startsWith(message)).toBe(true);
  });

  it("an input error under --json is JSON on stdout, exit 1", async () => {
    expect(await runCli(["compile", "--json", "/nonexistent/f.flt"])).toEqual({
      code: 1,
      stdout: '{"ok":false,"failure":"input","message":"cannot read /nonexistent/f.flt: no such file"}\n',
      stderr: "",
    });
  });

  it("--string with --hcl, and fmt - -, are refused like eval refuses - twice", async () => {
    expect((await runCli(["compile", "--string", "--hcl"], "BotScore lt 3")).stderr.split("\n")[0]).toBe(
      "filterc compile: --hcl is --string with HCL escapes: give one of them",
    );
    const run = await runCli(["fmt", "-", "-"], "BotScore lt 3");
    expect([run.code, run.stdout, run.stderr.split("\n")[0]]).toEqual([
      2,
      "",
      "filterc fmt: standard input can be read only once: give - once",
    ]);
  });
});

describe("no control character reaches a terminal raw", () => {
  it("a file name and a message with escapes are shown as code points", async () => {
    const run = await runCli(["compile", "/nonexistent/\x1b]0;owned\x07.flt"]);
    expect(run.stderr).toBe(
      "filterc compile: cannot read /nonexistent/<U+001B>]0;owned<U+0007>.flt: no such file\n",
    );
  });

  it("a file name with a newline or a tab stays on its line", async () => {
    const name = "b\n::warning::x\t.lpf";
    const path = file(name, "Nope  eq 1\n");
    const shown = `${dir}/b<U+000A>::warning::x<U+0009>.lpf`;
    const check = await runCli(["check", path]);
    expect(check.code).toBe(1);
    expect(check.stderr).toBe(
      [
        "error[E0201]: unknown field `Nope` in dataset http_requests",
        ` --> ${shown}:1:1`,
        "  |",
        "1 | Nope  eq 1",
        "  | ^^^^",
        "1 error",
        "",
      ].join("\n"),
    );
    const fmt = await runCli(["fmt", "--check", path]);
    expect(fmt).toEqual({ code: 1, stdout: `${shown}\n`, stderr: "" });
    const missing = await runCli(["check", `${path}.gone`]);
    expect([missing.code, missing.stderr]).toEqual([
      1,
      `filterc check: cannot read ${shown}.gone: no such file\n`,
    ]);
  });

  it("explain shows a string's bidi override as an escape", async () => {
    const run = await runCli(["explain"], 'ClientRequestHost eq "a\\u202Eb"');
    expect(run.stdout.split("\n")[0]).toBe(
      'a record is pushed when ClientRequestHost (string) is "a\\u202Eb"',
    );
  });

  it("terminalJson keeps the value and escapes what a terminal must not see", async () => {
    const { terminalJson } = await import("../../src/diagnostics/index.js");
    const value = { destination_conf: "s3://b\u202e/\u0085x", name: "👨‍👩‍👧" };
    const text = terminalJson(value);
    expect(text).toBe('{"destination_conf":"s3://b\\u202e/\\u0085x","name":"👨‍👩‍👧"}');
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe("every numeric flag has its least value", () => {
  it("--timeout-ms 0 is a usage error, not a request that times out at once", async () => {
    const run = await runCli([
      "jobs",
      "list",
      "--zone",
      "023e105f4ecef8ad9ca31a8372d0c353",
      "--timeout-ms",
      "0",
    ]);
    expect([run.code, run.stderr.split("\n")[0]]).toEqual([
      2,
      'filterc jobs: --timeout-ms takes a whole number from 1 to 2147483647, not "0"',
    ]);
  });
});

describe("every numeric flag has its greatest value", () => {
  const zone = ["--zone", "023e105f4ecef8ad9ca31a8372d0c353"];
  it.each([
    // 200 workers took 1.8 GB and 11 s for 600 lines; with no bound, memory ran out.
    [
      ["eval", "--expr", "BotScore lt 3", "--jobs", "257"],
      'filterc eval: --jobs takes a whole number from 1 to 256, not "257"',
    ],
    [
      ["query", "--expr", "BotScore lt 3", "--threads", "257", "x.ndjson"],
      'filterc query: --threads takes a whole number from 1 to 256, not "257"',
    ],
    // Past 2^31 - 1 ms a timer fires at once: every request timed out after 1 ms.
    [
      ["jobs", "list", ...zone, "--timeout-ms", "2147483648"],
      'filterc jobs: --timeout-ms takes a whole number from 1 to 2147483647, not "2147483648"',
    ],
    [
      ["sandbox", "--shutdown-grace", "2147484"],
      'filterc sandbox: --shutdown-grace takes a whole number from 0 to 2147483, not "2147484"',
    ],
    // A longer line cannot be decoded into one string: eval ended with an internal error.
    [
      ["eval", "--expr", "BotScore lt 3", "--max-line-bytes", String(constants.MAX_STRING_LENGTH)],
      `filterc eval: --max-line-bytes takes a whole number from 0 to ${constants.MAX_STRING_LENGTH - 1}, not "${constants.MAX_STRING_LENGTH}"`,
    ],
    // 65,536 bytes at least: --range-bytes 100 on 194 MB made 240,000 parts and took 45 s.
    [
      ["eval", "--expr", "BotScore lt 3", "--range-bytes", "65535"],
      'filterc eval: --range-bytes takes a whole number of at least 65536, not "65535"',
    ],
    // Past 2^53 - 1 a number is not exact.
    [
      ["compile", "--max-bytes", "99999999999999999999", "-"],
      'filterc compile: --max-bytes takes a whole number from 1 to 9007199254740991, not "99999999999999999999"',
    ],
  ])("%j is a usage error", async (args, message) => {
    const run = await runCli(args, "");
    expect([run.code, run.stdout, run.stderr.split("\n")[0]]).toEqual([2, "", message]);
  });
});

describe("option errors in filterc's words", () => {
  it.each([
    [
      ["compile", "--datset", "dns_logs"],
      "filterc compile: unknown option --datset; did you mean --dataset?",
    ],
    [["compile", "--expr", "BotScore lt 3"], "filterc compile: unknown option --expr"],
    [["compile", "-x"], "filterc compile: unknown option -x"],
    [["compile", "--max-bytes"], "filterc compile: --max-bytes needs a value"],
    [
      ["compile", "--max-bytes", "-5"],
      'filterc compile: --max-bytes needs a value; one that starts with "-" is written --max-bytes=VALUE',
    ],
    [["compile", "--hcl=yes"], "filterc compile: --hcl takes no value"],
    [["sandbox", "data"], 'filterc sandbox: unexpected argument "data": this command takes options only'],
  ])("%j", async (args, message) => {
    const run = await runCli(args, "");
    expect([run.code, run.stderr.split("\n")[0]]).toEqual([2, message]);
  });
});

describe("fmt --write keeps a byte order mark", () => {
  it("rewrites the file with its mark and its CRLF", async () => {
    const { readFileSync } = await import("node:fs");
    const path = file("bom-write.flt", "\uFEFFBotScore  <  3\r\n");
    expect(await runCli(["fmt", "--write", path])).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(readFileSync(path, "utf8")).toBe("\uFEFFBotScore lt 3\r\n");
  });
});
