import { afterAll, describe, expect, it } from "vitest";
import { CLI_OPTION_LABELS } from "../../src/cli/option-labels.js";
import { DiagnosticKind } from "../../src/diagnostics/index.js";
import { compile } from "../../src/index.js";
import { runCli } from "../helpers/cli.js";
import {
  type ConformanceCase,
  catalogFixturePath,
  compileOptionsOf,
  conformanceDiagnostic,
  loadConformance,
  sourceOf,
  textOf,
  writeConformance,
} from "../helpers/conformance.js";

const files = loadConformance();
const allCases = files.flatMap((file) => file.cases);
/** Set to record the compiler's output as the expectations (see writeConformance) instead of asserting it. */
const rewrite = process.env["FILTERC_REWRITE_CONFORMANCE"] === "1";

describe("conformance (library)", () => {
  for (const { file, cases } of files) {
    describe(file, () => {
      if (rewrite) afterAll(() => writeConformance(file, cases));
      it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, testCase) => {
        // A source that is no string is given as it is: a JavaScript caller's mistake (E0113).
        const result = compile(sourceOf(testCase) as string, compileOptionsOf(testCase));
        if (rewrite) {
          testCase.filter = result.filter;
          testCase.diagnostics = result.diagnostics.map(conformanceDiagnostic);
        }
        expect({ filter: result.filter, diagnostics: result.diagnostics.map(conformanceDiagnostic) }).toEqual(
          {
            filter: testCase.filter,
            diagnostics: testCase.diagnostics,
          },
        );
        expect(result.ok).toBe(!result.diagnostics.some((d) => d.severity === "error"));
      });
    });
  }
});

/** Diagnostics whose message names an option: limits (E0001–E0005, E0401, E0402) and bad options. */
const namesAnOption = /^E0(00[1-6]|40[12]) /;

/** The CLI flags that stand for the options; cases using options without a flag run only in the library. */
function cliArgs(testCase: ConformanceCase): string[] | undefined {
  const args: string[] = [];
  for (const [name, value] of Object.entries(testCase.options ?? {})) {
    if (name === "dataset") args.push("--dataset", String(value));
    else if (name === "catalog")
      // The catalog is named after its fixture, as the library cases name it.
      args.push("--catalog", catalogFixturePath(String(value)), "--dataset", String(value));
    else if (name === "optimize" && value === false) args.push("--no-optimize");
    else if (name === "maxOperators") args.push("--max-operators", String(value));
    else if (name === "maxBytes") args.push("--max-bytes", String(value));
    else return undefined;
  }
  return args;
}

describe("conformance (CLI compile --json)", () => {
  const runnable = allCases.flatMap((c) => {
    const args = textOf(c) === undefined ? undefined : cliArgs(c);
    return args && !c.diagnostics.some((d) => d.startsWith("E0004")) ? [[c.name, c, args] as const] : [];
  });

  it("runs most cases", () => {
    expect(runnable.length).toBeGreaterThan(allCases.length - 20);
  });

  /**
   * The diagnostics the CLI must give: the case's, but that a message naming an option names it as
   * the CLI does (`--max-operators`; nothing for a limit no flag sets), as the library words it
   * for that label.
   */
  function cliDiagnostics(testCase: ConformanceCase): string[] {
    const labelled = compile(textOf(testCase)!, {
      ...compileOptionsOf(testCase),
      optionLabels: CLI_OPTION_LABELS,
    }).diagnostics.map(conformanceDiagnostic);
    return testCase.diagnostics.map((expected, i) =>
      namesAnOption.test(expected) ? labelled[i]! : expected,
    );
  }

  it("names the CLI's flags in place of the library's options, and no option it has no flag for", () => {
    const named = runnable.flatMap(([, testCase]) =>
      cliDiagnostics(testCase).filter((d) => namesAnOption.test(d)),
    );
    expect(named.length).toBeGreaterThan(5);
    for (const diagnostic of named) expect(diagnostic).not.toMatch(/\boption (max|optimize)/);
    expect(named.filter((d) => d.includes("(--max-operators)")).length).toBeGreaterThan(0);
    expect(named.filter((d) => d.includes("(--max-bytes)")).length).toBeGreaterThan(0);
    expect(named.filter((d) => d.includes("(--no-optimize)")).length).toBeGreaterThan(0);
  });

  it.each(runnable)("%s", async (_name, testCase, args) => {
    const run = await runCli(["compile", "--json", ...args, "-"], textOf(testCase)!);
    const output = JSON.parse(run.stdout) as {
      ok: boolean;
      filter: string | null;
      diagnostics: Parameters<typeof conformanceDiagnostic>[0][];
    };
    const ok = !testCase.diagnostics.some((d) => d.startsWith("E"));
    expect({
      code: run.code,
      stderr: run.stderr,
      ok: output.ok,
      filter: output.filter,
      diagnostics: output.diagnostics.map(conformanceDiagnostic),
    }).toEqual({
      code: ok ? 0 : 1,
      stderr: "",
      ok,
      filter: testCase.filter,
      diagnostics: cliDiagnostics(testCase),
    });
  });

  it("an unknown --dataset is a usage error (exit 2)", async () => {
    const run = await runCli(["compile", "--dataset", "http_request", "-"], "BotScore lt 30");
    expect(run.code).toBe(2);
    // The nearest few names and where the rest are: not all 37 and the synopsis.
    expect(run.stderr).toBe(
      'filterc compile: unknown dataset "http_request"; known datasets: http_requests, access_requests, nel_reports, dns_logs, gateway_dns and 32 more (did you mean http_requests?)\n' +
        "Run filterc datasets for every name.\n",
    );
  });
});

describe("conformance coverage", () => {
  it("has at least 200 cases, with unique names", () => {
    expect(allCases.length).toBeGreaterThanOrEqual(200);
    expect(new Set(allCases.map((c) => c.name)).size).toBe(allCases.length);
  });

  it("has a case for every diagnostic code of the compiler (E00xx–E04xx, W01xx)", () => {
    const compilerCodes = Object.values(DiagnosticKind)
      .map((kind) => kind.code)
      .filter((code) => /^(E0[0-4]|W01)\d\d$/.test(code));
    const covered = new Set(allCases.flatMap((c) => c.diagnostics.map((d) => d.split(" ")[0])));
    expect(compilerCodes.filter((code) => !covered.has(code))).toEqual([]);
  });

  it("accepts and rejects every operator on every type", () => {
    const matrix = files.find((f) => f.file === "operator-type-matrix.json")!.cases;
    expect(matrix).toHaveLength(14 * 7);
    // From grammar/REFERENCE.md's operator table, with float under int and arrays split by element type:
    // eq/!eq 2×4, lt…geq 4×2, startsWith… 4×1, contains/!contains 2×3, in/!in 2×5.
    expect(matrix.filter((c) => c.filter !== null)).toHaveLength(36);
  });
});
