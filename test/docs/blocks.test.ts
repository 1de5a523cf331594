import { describe, expect, it } from "vitest";
import {
  consoleCommands,
  fencedBlocks,
  instrument,
  outputMatches,
  valueChecks,
} from "../helpers/doc-blocks.js";

describe("the doc-example harness reads blocks as docs/testing.md says", () => {
  it("finds fenced blocks with their line and info words, not inline code that starts a line", () => {
    const page =
      "# t\n\n```console sandbox\n$ echo a\na\n```\n  ```` ```ts ```` is inline\n~~~ts\nx; // → 1\n~~~\n";
    expect(fencedBlocks(page)).toEqual([
      { line: 3, info: ["console", "sandbox"], text: "$ echo a\na\n" },
      { line: 8, info: ["ts"], text: "x; // → 1\n" },
    ]);
    expect(() => fencedBlocks("```\nopen\n")).toThrow("line 1: code block without a closing fence");
  });

  it("splits console blocks into commands, continued lines, outputs and exit statuses", () => {
    const [block] = fencedBlocks("```console\n$ a \\\n  b\nout\n[exit 2]\n$ c\n```\n");
    expect(consoleCommands(block!)).toEqual([
      { line: 2, command: "a \\\n  b", output: "out\n", exit: 2 },
      { line: 6, command: "c", output: "", exit: 0 },
    ]);
    const [zero] = fencedBlocks("```console\n$ a\n[exit 0]\n```\n");
    expect(() => consoleCommands(zero!)).toThrow('line 3: "[exit 0]" is written by leaving it out');
    const [after] = fencedBlocks("```console\n$ a\n[exit 1]\nmore\n```\n");
    expect(() => consoleCommands(after!)).toThrow('line 4: output after "[exit N]"');
  });

  it("matches output exactly, with … standing for any text within one line", () => {
    expect(outputMatches("a\n", "a\n")).toBe(true);
    expect(outputMatches("a\n", "a")).toBe(false);
    expect(outputMatches("id …!\n", "id 0f3a!\n")).toBe(true);
    expect(outputMatches("id …!\n", "id 0f\n3a!\n")).toBe(false);
    expect(outputMatches("x (…)\n", "x (a.b)\n")).toBe(true);
    expect(outputMatches("x (…)\n", "x [a.b]\n")).toBe(false);
  });

  it("turns shown values into checks: on the line, on the next line, continued on indented comments", () => {
    const [block] = fencedBlocks(
      "```ts\nconst a = 1;\na + 1; // → 2\nf(a); // remark\n// → { b: 1,\n//     c: 2 }\n// not a value\n```\n",
    );
    expect(valueChecks(block!)).toEqual([
      { line: 3, statement: 1, comment: { first: 1, last: 1 }, expected: "2" },
      { line: 5, statement: 2, comment: { first: 3, last: 4 }, expected: "{ b: 1,\n     c: 2 }" },
    ]);
    expect(instrument(block!)).toBe(
      "const a = 1;\n__doc.check(3, (a + 1), (2));\n__doc.check(5, (f(a)), ({ b: 1,\n     c: 2 }));\n\n// not a value",
    );
  });
});
