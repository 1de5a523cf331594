import { describe, expect, it } from "vitest";
import { MAX_SOURCE_FILE_BYTES } from "../../src/cli/io.js";
import { DEFAULT_MAX_INPUT_LENGTH, DEFAULT_MAX_SOURCE_LENGTH } from "../../src/index.js";
import { ensureBundles } from "../helpers/bundles.js";
import { runCli, spawnCli } from "../helpers/cli.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

describe("filterc compile (the built bundle)", () => {
  it("prints the compact JSON and a newline, exit 0", async () => {
    const run = await spawnCli(
      ["compile"],
      'EdgeResponseStatus geq 500 and not ClientRequestPath startsWith "/health"',
    );
    expect(run).toEqual({
      code: 0,
      stdout:
        '{"where":{"and":[{"key":"EdgeResponseStatus","operator":"geq","value":"500"},{"key":"ClientRequestPath","operator":"!startsWith","value":"/health"}]}}\n',
      stderr: "",
    });
  });

  it("--hcl escapes HCL template sequences (${ as $${, %{ as %%{); --string leaves them", async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the value holds an HCL template sequence on purpose
    const source = 'ClientRequestPath eq "/${a}/%{b}"';
    const stored =
      '"{\\"where\\":{\\"key\\":\\"ClientRequestPath\\",\\"operator\\":\\"eq\\",\\"value\\":\\"/';
    expect(await spawnCli(["compile", "--string"], source)).toEqual({
      code: 0,
      stdout: `${stored}\${a}/%{b}\\"}}"\n`,
      stderr: "",
    });
    expect(await spawnCli(["compile", "--hcl"], source)).toEqual({
      code: 0,
      stdout: `${stored}$\${a}/%%{b}\\"}}"\n`,
      stderr: "",
    });
  });

  it("renders every error with its place and caret on stderr, exit 1", async () => {
    const run = await spawnCli(["compile", "-"], 'ClientIp eq "1.2.3.4"\n  and EdgeResponseStatus neq 5');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      [
        "error[E0202]: unknown field `ClientIp`; field names are case-sensitive: did you mean `ClientIP`?",
        " --> <stdin>:1:1",
        "  |",
        '1 | ClientIp eq "1.2.3.4"',
        "  | ^^^^^^^^",
        "  = help: replace with `ClientIP`: ClientIP",
        "",
        "error[E0205]: unknown operator `neq`; did you mean `!eq`?",
        " --> <stdin>:2:26",
        "  |",
        "2 |   and EdgeResponseStatus neq 5",
        "  |                          ^^^",
        "  = help: replace with `!eq`: !eq",
        "2 errors",
        "",
      ].join("\n"),
    );
  });

  it("exits 1 with one line for a file that cannot be read (an error raised inside the command's own bundle)", async () => {
    expect(await spawnCli(["compile", "/nonexistent/filter.flt"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "filterc compile: cannot read /nonexistent/filter.flt: no such file\n",
    });
  });

  it("reads no further than any filter can be: a file or standard input without end is an error at once", async () => {
    const tooLarge = (name: string) =>
      `filterc compile: ${name} is larger than ${MAX_SOURCE_FILE_BYTES} bytes, longer than any filter or filter JSON can be; not read\n`;
    // Regression: `compile /dev/zero` grew to 3 GB in 20 s and never ended.
    expect(await spawnCli(["compile", "/dev/zero"])).toEqual({
      code: 1,
      stdout: "",
      stderr: tooLarge("/dev/zero"),
    });
    expect(await spawnCli(["compile"], { file: "/dev/zero" })).toEqual({
      code: 1,
      stdout: "",
      stderr: tooLarge("standard input"),
    });
    // Through a pipe as well; a source just under the bound is read and given its diagnostic.
    const long = "BotScore lt 5 and ".repeat(20_000);
    expect(await spawnCli(["compile"], long)).toEqual({
      code: 1,
      stdout: "",
      stderr: tooLarge("standard input"),
    });
    const run = await spawnCli(["compile"], long.slice(0, MAX_SOURCE_FILE_BYTES));
    expect([run.code, run.stderr.split("\n")[0]]).toEqual([
      1,
      "error[E0001]: the source is 300003 characters long; the limit is 100000",
    ]);
    // The bound: three UTF-8 bytes a character of the longest input, and a byte order mark.
    expect(MAX_SOURCE_FILE_BYTES).toBe(3 * Math.max(DEFAULT_MAX_SOURCE_LENGTH, DEFAULT_MAX_INPUT_LENGTH) + 3);
  });

  it("exits 2 on an unknown flag with the synopsis and where the rest is (was: the whole usage, 30 lines)", async () => {
    expect(await spawnCli(["compile", "--bogus"], "")).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "filterc compile: unknown option --bogus\nUsage: filterc compile [FILE|-] [options]\nRun filterc compile --help for the options.\n",
    });
  });

  it("gives each synopsis line of a command with subcommands", async () => {
    const run = await runCli(["fields", "bogus"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'filterc fields: unknown subcommand "bogus"; use get, set, add, remove, clear\n' +
        "Usage: filterc fields get --zone ID [options]\n" +
        "       filterc fields set|add|remove --zone ID [--request-header H]… [--response-header H]… [--cookie C]… [options]\n" +
        "       filterc fields clear --zone ID [options]\n" +
        "Run filterc fields --help for the options.\n",
    );
  });
});
