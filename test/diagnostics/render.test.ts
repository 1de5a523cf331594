import { describe, expect, it } from "vitest";
import { renderDiagnostics } from "../../src/diagnostics/index.js";
import { compile, type Diagnostic } from "../../src/index.js";
import { runCli } from "../helpers/cli.js";

const render = (source: string) => renderDiagnostics(compile(source).diagnostics, source);

describe("the renderer", () => {
  it("a list with an empty slot: one syntax error at the second comma, no crash (exit 1)", async () => {
    expect(await runCli(["compile"], "EdgeResponseStatus in [4,,2]")).toEqual({
      code: 1,
      stdout: "",
      stderr: [
        'error[E0104]: expected a value after `,`: a "string", a number, true, false or a [list], found `,`',
        " --> <stdin>:1:26",
        "  |",
        "1 | EdgeResponseStatus in [4,,2]",
        "  |                          ^",
        "1 error",
        "",
      ].join("\n"),
    });
  });

  it("never throws on a range outside the source: it is clamped into it", () => {
    const at = (offset: number) => ({ offset, line: offset, column: offset });
    const outside: Diagnostic = {
      code: "E0302",
      severity: "error",
      message: "m",
      range: { start: at(-1), end: at(-1) },
    };
    const beyond: Diagnostic = { ...outside, range: { start: at(40), end: at(Number.NaN) } };
    expect(renderDiagnostics([outside, beyond], "ab")).toBe(
      [
        "error[E0302]: m",
        " --> <input>:1:1",
        "  |",
        "1 | ab",
        "  | ^",
        "",
        "error[E0302]: m",
        " --> <input>:1:3",
        "  |",
        "1 | ab",
        "  |   ^",
        "",
      ].join("\n"),
    );
  });

  it("a long line shows a window around the range, so the offending token is in it", () => {
    const source = `ClientRequestHost eq "${"a".repeat(200)}" and EdgeResponseStatus eq "x" and ClientRequestPath eq "/${"b".repeat(150)}"`;
    expect(render(source)).toBe(
      [
        'error[E0302]: `EdgeResponseStatus` is an int field, but the value is the string "x"',
        " --> <input>:1:251",
        "  |",
        `1 | …aa" and EdgeResponseStatus eq "x" and ClientRequestPath eq "/${"b".repeat(39)}…`,
        `  | ${" ".repeat(31)}^^^`,
        "",
      ].join("\n"),
    );
  });

  it("carets line up by display width: wide CJK characters, combining marks, tabs", () => {
    expect(render('ClientRequestHost eq "漢字" and Foo eq 1').split("\n").slice(3, 5)).toEqual([
      '1 | ClientRequestHost eq "漢字" and Foo eq 1',
      `  | ${" ".repeat(32)}^^^`,
    ]);
    expect(render('ClientRequestHost eq "e\u0301" and Foo eq 1').split("\n").slice(3, 5)).toEqual([
      '1 | ClientRequestHost eq "e\u0301" and Foo eq 1',
      `  | ${" ".repeat(29)}^^^`,
    ]);
    expect(render("\tFoo eq 1\tand\tBar eq 2").split("\n").slice(3, 5)).toEqual([
      "1 |     Foo eq 1    and Bar eq 2",
      "  |     ^^^",
    ]);
  });

  it("control characters in the source and the message are shown as code points, never raw", () => {
    const source = 'ClientRequestHost eq "\x1b]0;owned\x07\u202e" and Foo\x07 eq 1';
    const errors = compile(source).diagnostics.filter((d) => d.severity === "error");
    expect(renderDiagnostics(errors, source)).toBe(
      [
        "error[E0201]: unknown field `Foo` in dataset http_requests",
        " --> <input>:1:40",
        "  |",
        '1 | ClientRequestHost eq "<U+001B>]0;owned<U+0007><U+202E>" and Foo<U+0007> eq 1',
        `  | ${" ".repeat(60)}^^^`,
        "",
        "error[E0101]: unexpected character `U+0007`; it cannot be seen: delete it",
        " --> <input>:1:43",
        "  |",
        '1 | ClientRequestHost eq "<U+001B>]0;owned<U+0007><U+202E>" and Foo<U+0007> eq 1',
        `  | ${" ".repeat(63)}^^^^^^^^`,
        "  = help: delete U+0007",
        "",
      ].join("\n"),
    );
  });
});
