import { describe, expect, it } from "vitest";
import { check, compile, decompile, emit, format, parse, print } from "../../src/index.js";
import { runCli } from "../helpers/cli.js";

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

describe("messages name an option as the caller's user sets it (optionLabels)", () => {
  const overBoth = "BotScore lt 1 or ClientCountry eq 'us' or EdgeResponseStatus eq 500";
  const split =
    "the filter's `or` can be split across several jobs, each pushing the records of some of its parts";
  const optimizer =
    "merges `eq` comparisons of one field joined by `or`, and `!eq` ones joined by `and`, into lists";

  it("the library names its options, and says what can bring a filter under a limit", () => {
    expect(message({ maxOperators: 0 })).toEqual([
      "option maxOperators must be a whole number of at least 1, not 0",
    ]);
    expect(compile(overBoth, { maxOperators: 2, optimize: false }).diagnostics.map((d) => d.message)).toEqual(
      [
        `the filter has 3 comparisons; Logpush accepts at most 2 (option maxOperators); this comparison crosses the limit; the optimizer, off here (option optimize), ${optimizer}; ${split}`,
      ],
    );
    // An `and` cannot be split, and with the optimizer on there is nothing to turn on.
    expect(compile("BotScore gt 0 and BotScore lt 9", { maxOperators: 1 }).diagnostics[0]!.message).toBe(
      "the filter has 2 comparisons; Logpush accepts at most 1 (option maxOperators); this comparison crosses the limit",
    );
  });

  it("a caller's labels name its controls; null leaves an option out, and its help with it", () => {
    const labels = {
      maxOperators: "the Comparisons box",
      optimize: null,
      maxDepth: null,
      maxDiagnostics: "M",
    };
    expect(
      compile(overBoth, { maxOperators: 2, optimize: false, optionLabels: labels }).diagnostics[0]!.message,
    ).toBe(
      `the filter has 3 comparisons; Logpush accepts at most 2 (the Comparisons box); this comparison crosses the limit; ${split}`,
    );
    expect(parse("(BotScore lt 1)", { maxDepth: 0, optionLabels: labels }).diagnostics[0]!.message).toBe(
      "the filter nests deeper than 0 levels; flatten the parentheses or `not`s",
    );
    expect(
      compile("a eq 1 or b eq 2", { maxDiagnostics: 1, optionLabels: labels }).diagnostics[1]!.message,
    ).toBe("too many problems; only the first 1 are reported (M)");
    expect(message({ maxOperators: 0, optionLabels: labels })).toEqual([
      "the Comparisons box must be a whole number of at least 1, not 0",
    ]);
  });

  it("the CLI names its flags, and no option it has no flag for", async () => {
    const operators = await runCli(["check", "--max-operators", "2", "--no-optimize", "-"], overBoth);
    expect(operators.stderr.split("\n")[0]).toBe(
      `error[E0401]: the filter has 3 comparisons; Logpush accepts at most 2 (--max-operators); this comparison crosses the limit; the optimizer, off here (--no-optimize), ${optimizer}; ${split}`,
    );
    const bytes = await runCli(["compile", "--max-bytes", "50", "-"], 'ClientRequestPath eq "/a"');
    expect(bytes.stderr.split("\n")[0]).toBe(
      "error[E0402]: the filter JSON is 66 bytes; Logpush accepts at most 50 (--max-bytes); this comparison crosses the limit",
    );
    const deep = await runCli(["fmt", "-"], `${"(".repeat(101)}BotScore lt 1${")".repeat(101)}`);
    expect(deep.stderr.split("\n")[0]).toBe(
      "error[E0002]: the filter nests deeper than 100 levels; flatten the parentheses or `not`s",
    );
    const input = await runCli(["decompile", "-"], " ".repeat(100_001));
    expect(input.stderr.split("\n")[0]).toBe(
      "error[E0501]: the input is 100001 characters long; the limit is 100000",
    );
  });
});
