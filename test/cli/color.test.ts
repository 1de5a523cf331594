import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const source = 'ClientIp eq "1"';
const plain =
  "error[E0202]: unknown field `ClientIp`; field names are case-sensitive: did you mean `ClientIP`?\n" +
  ' --> <stdin>:1:1\n  |\n1 | ClientIp eq "1"\n  | ^^^^^^^^\n  = help: replace with `ClientIP`: ClientIP\n1 error\n';
const coloured =
  "\x1b[1m\x1b[31merror[E0202]\x1b[0m\x1b[1m: unknown field `ClientIp`; field names are case-sensitive: did you mean `ClientIP`?\x1b[0m\n" +
  ' \x1b[34m-->\x1b[0m <stdin>:1:1\n\x1b[34m  |\x1b[0m\n\x1b[34m1 |\x1b[0m ClientIp eq "1"\n' +
  "\x1b[34m  |\x1b[0m \x1b[31m^^^^^^^^\x1b[0m\n  \x1b[34m=\x1b[0m \x1b[1mhelp\x1b[0m: replace with `ClientIP`: ClientIP\n1 error\n";

describe("colour in diagnostics: only on a terminal, and never with NO_COLOR set non-empty (no-color.org)", () => {
  it("colours a terminal's stderr", async () => {
    expect(await runCli(["check"], source, {}, true)).toEqual({ code: 1, stdout: "", stderr: coloured });
  });

  it("an empty NO_COLOR does not turn colour off", async () => {
    expect(await runCli(["check"], source, { NO_COLOR: "" }, true)).toEqual({
      code: 1,
      stdout: "",
      stderr: coloured,
    });
  });

  it("a non-empty NO_COLOR, or stderr that is not a terminal, gives plain text", async () => {
    expect(await runCli(["check"], source, { NO_COLOR: "1" }, true)).toEqual({
      code: 1,
      stdout: "",
      stderr: plain,
    });
    expect(await runCli(["check"], source, {}, false)).toEqual({ code: 1, stdout: "", stderr: plain });
  });
});
