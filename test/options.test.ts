import { describe, expect, it } from "vitest";
import { check, compile, decompile, emit, format, parse, print } from "../src/index.js";
import { runCli } from "./helpers/cli.js";

const message = (options: object) => compile("BotScore lt 30", options).diagnostics.map((d) => d.message);

describe("numeric options are validated, never thrown over", () => {
  it("maxDiagnostics 0 or negative: E0006 with the option named (it threw before)", () => {
    expect(message({ maxDiagnostics: 0 })).toEqual([
      "option maxDiagnostics must be a whole number of at least 1, not 0",
    ]);
    expect(message({ maxDiagnostics: -3 })).toEqual([
      "option maxDiagnostics must be a whole number of at least 1, not -3",
    ]);
  });

  it("every numeric option of every entry point", () => {
    expect(message({ maxOperators: 0.5, maxBytes: Number.NaN })).toEqual([
      "option maxOperators must be a whole number of at least 1, not 0.5",
      "option maxBytes must be a whole number of at least 1, not NaN",
    ]);
    expect(message({ maxSourceLength: "10" })).toEqual([
      'option maxSourceLength must be a whole number of at least 1, not "10"',
    ]);
    expect(parse("BotScore lt 30", { maxDepth: -1 }).diagnostics.map((d) => d.code)).toEqual(["E0006"]);
    const parsed = { ...parse("BotScore lt 30"), source: "BotScore lt 30" };
    expect(check(parsed, { maxDiagnostics: 0 }).diagnostics.map((d) => d.code)).toEqual(["E0006"]);
    const condition = check("BotScore lt 30").condition!;
    const emitted = emit(condition, { maxOperators: 0 });
    expect([emitted.filter, emitted.diagnostics.map((d) => d.code)]).toEqual([null, ["E0006"]]);
    const decompiled = decompile('{"where":{"key":"BotScore","operator":"lt","value":30}}', {
      maxInputLength: -1,
      lineWidth: 0,
    });
    expect(decompiled.diagnostics.map((d) => d.message)).toEqual([
      "option maxInputLength must be a whole number of at least 1, not -1",
      "option lineWidth must be a whole number of at least 1, not 0",
    ]);
    expect(format("BotScore lt 30", { lineWidth: 0 })).toEqual({
      text: null,
      diagnostics: [expect.objectContaining({ code: "E0006" })],
    });
    expect(() => print(parse("BotScore lt 30").filter, { lineWidth: -1 })).toThrow(
      new RangeError("option lineWidth must be a whole number of at least 1, not -1"),
    );
  });

  it("reports in the order of the names, whatever order they are given in, and ignores other names", () => {
    expect(message({ maxBytes: 0, maxDepth: -1 })).toEqual([
      "option maxDepth must be a whole number of at least 0, not -1",
      "option maxBytes must be a whole number of at least 1, not 0",
    ]);
    const inherited = Object.create({ maxOperators: 0 }) as object;
    expect(message(inherited)).toEqual(["option maxOperators must be a whole number of at least 1, not 0"]);
    expect(message({ toString: 0, hasOwnProperty: -1, maxColour: 0 })).toEqual([]);
  });

  it("no limit (Infinity) and maxDepth 0 are valid", () => {
    expect(compile("BotScore lt 30", { maxSourceLength: Number.POSITIVE_INFINITY, maxDepth: 0 }).ok).toBe(
      true,
    );
  });

  it.each([
    ["compile", "--max-operators"],
    ["compile", "--max-bytes"],
    ["fmt", "--line-width"],
    ["decompile", "--line-width"],
  ])("%s %s 0 is a usage error (exit 2)", async (command, flag) => {
    const run = await runCli([command, flag, "0", "-"], "");
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n")[0]).toBe(
      `filterc ${command}: ${flag} takes a whole number of at least 1, not "0"`,
    );
  });
});
