import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { check } from "../../src/check/index.js";
import { compileLineFilter, LineVerdict } from "../../src/eval/index.js";
import { runCli } from "../helpers/cli.js";
import { jsonNode, mutate, mutation, whitespace, writeJson } from "./json-lines.js";

/** Filters the prefilter has a clue for (strings, bools, string arrays), alone and combined. */
const filters = [
  'ClientCountry eq "ca"',
  'ClientCountry !eq "ca"',
  'ClientCountry in ["ca", "us"]',
  'ClientRequestPath startsWith "/api"',
  'ClientRequestPath contains "a"',
  "CacheReserveUsed eq true",
  'BotTags contains "api"',
  'ClientCountry eq "ca" and EdgeResponseStatus geq 500',
  'not (ClientCountry eq "ca" or ClientRequestPath endsWith "x")',
];

describe("the prefilter changes only the speed", () => {
  it("gives the same verdicts while it is timed against reading without it, in every phase of the choice", () => {
    const condition = check('ClientCountry eq "ca" and EdgeResponseStatus geq 500').condition!;
    const chosen = compileLineFilter(condition);
    const without = compileLineFilter(condition, { prefilter: false });
    // Past two trials of 2,048 lines and the 61,440 lines the faster way then keeps, into the next trial.
    const lines = Array.from({ length: 70_000 }, (_, i) =>
      i % 13 === 0
        ? '{"ClientCountry":"ca",}'
        : JSON.stringify({ ClientCountry: ["ca", "us", "de"][i % 3], EdgeResponseStatus: 400 + (i % 200) }),
    );
    const verdicts = (filter: (line: string) => LineVerdict) => lines.map(filter).join("");
    const expected = verdicts(without);
    expect(expected).toContain(String(LineVerdict.malformed));
    expect(expected).toContain(String(LineVerdict.match));
    expect(verdicts(chosen)).toBe(expected);
  });

  it("counts a malformed line it rejects as malformed (regression: it was a miss)", () => {
    const condition = check('ClientCountry eq "us"').condition!;
    const quick = compileLineFilter(condition);
    for (const line of ['{"ClientCountry":"ca",}', '{"ClientCountry":ca}', '{"a":1 "b":2}', "{}}"])
      expect(quick(line)).toBe(LineVerdict.malformed);
    expect(quick('{"ClientCountry":"ca"}')).toBe(LineVerdict.miss);
  });

  it("--invert and --strict treat malformed lines alike with and without the prefilter", async () => {
    const input = '{"ClientCountry":"ca",}\n{"ClientCountry":ca}\n{"ClientCountry":"ca"}\n';
    const expr = ["eval", "--expr", 'ClientCountry eq "us"'];
    expect(await runCli([...expr, "--invert"], input)).toEqual({
      code: 0,
      stdout: '{"ClientCountry":"ca"}\n',
      stderr: "read 3 lines, matched 0, malformed 2 (first at lines 1, 2)\n",
    });
    expect(await runCli([...expr, "--strict"], input)).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "read 1 line, matched 0, malformed 1 (first at line 1)\nfilterc eval: stopped at malformed line 1 of <stdin> (--strict)\n",
    });
  });

  it("gives the same output, summary and exit status under every flag combination", async () => {
    const keys = fc.constantFrom("ClientCountry", "ClientRequestPath", "CacheReserveUsed", "BotTags", "x");
    const line = fc
      .tuple(jsonNode(keys), whitespace, fc.option(mutation, { nil: undefined }))
      .map(([node, ws, change]) => {
        const text = writeJson(node, ws);
        return change ? mutate(text, change) : text;
      });
    const flagSets = [[], ["--invert"], ["--strict"], ["--count"]].flatMap((a) =>
      [[], ["--invert"], ["--count"]].map((b) => [...new Set([...a, ...b])]),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...filters),
        fc.array(line, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...flagSets),
        async (filter, lines, flags) => {
          const input = `${lines.join("\n")}\n`;
          const args = ["eval", "--expr", filter, ...flags];
          expect(await runCli(args, input)).toEqual(await runCli([...args, "--no-prefilter"], input));
        },
      ),
      { numRuns: 400 },
    );
  });
});
