import { readFileSync } from "node:fs";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { IGrammar } from "vscode-textmate";
import { generatedFiles } from "../../editors/generated.js";
import { lexicon, TEXTMATE_SCOPES } from "../../editors/syntax.js";
import type { HighlightKind } from "../../src/service/index.js";
import { classesOf, readSamples } from "./samples.js";
import { loadGrammar, scopesOf } from "./textmate.js";

const root = new URL("../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");

let grammar: IGrammar;
beforeAll(async () => {
  grammar = await loadGrammar();
});

const classScopes = new Map(Object.entries(TEXTMATE_SCOPES).map(([kind, scope]) => [scope, kind]));

/**
 * Where the grammar and the scanner disagree on `text`: for each character the scanner puts in a
 * class (blanks aside), the grammar must give it that class's scope and no other class's. A
 * character left with no class scope is "unscoped".
 */
function disagreements(text: string): string[] {
  const scopes = scopesOf(grammar, text);
  const classes = classesOf(text);
  const found: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const expected = classes[i];
    const given = scopes[i]!.filter((scope) => classScopes.has(scope)).map((scope) => classScopes.get(scope));
    const wanted = expected === undefined ? [] : [expected];
    if (given.join() !== wanted.join())
      found.push(
        `${JSON.stringify(text[i])} at ${i} of ${JSON.stringify(text)}: the scanner reads ${expected ?? "a blank"}, the grammar gives ${given.length ? given.join(" and ") : "no class (unscoped)"} (${scopes[i]!.join(" ")})`,
      );
  }
  return found;
}

describe("the TextMate grammar", () => {
  it("is what editors/generate.mjs makes from the vocabulary, as are the Vim syntax and the dataset setting", () => {
    for (const [path, text] of Object.entries(generatedFiles(read)))
      expect(read(path), `${path}: run node editors/generate.mjs`).toBe(text);
  });

  const samples = readSamples();

  it("gives each annotated column of the samples its scope", () => {
    const failures: string[] = [];
    for (const sample of samples) {
      const lines = sample.text.split("\n");
      const offsets = lines.map((_, index) => lines.slice(0, index).join("\n").length + (index ? 1 : 0));
      const scopes = scopesOf(grammar, sample.text);
      for (const assertion of sample.assertions)
        for (const column of assertion.columns) {
          const at = scopes[offsets[assertion.line]! + column];
          if (!at?.includes(assertion.scope))
            failures.push(
              `${assertion.where}: column ${column} has ${at?.join(" ")}, not ${assertion.scope}`,
            );
        }
    }
    expect(failures).toEqual([]);
    expect(samples.flatMap((sample) => sample.assertions).length).toBeGreaterThan(60);
  });

  it("scopes every character of the samples as the scanner classes it, and the samples hold every class", () => {
    for (const sample of samples) expect(disagreements(sample.text), sample.name).toEqual([]);
    const seen = new Set(samples.flatMap((sample) => classesOf(sample.text)));
    const kinds = Object.keys(TEXTMATE_SCOPES) as HighlightKind[];
    expect(kinds.filter((kind) => !seen.has(kind))).toEqual([]);
  });

  it("reads every operator spelling, logic word and value word of the vocabulary", () => {
    const spellings = [...lexicon.operatorWords, ...lexicon.bangOperators, ...lexicon.symbolOperators];
    const text = [
      ...spellings.map((spelling) => `Field ${spelling} 1`),
      ...lexicon.logicWords.flatMap((word) => [
        word,
        word.toUpperCase(),
        `${word[0]!.toUpperCase()}${word.slice(1)}`,
      ]),
      ...lexicon.logicSymbols.map((symbol) => `A eq 1 ${symbol} B eq 2`),
      ...lexicon.booleans.map((word) => `Field eq ${word}`),
      ...lexicon.escapes.map((character) => `Field eq "\\${character}"`),
      'Field eq "\\u12aF"',
    ].join("\n");
    expect(disagreements(text)).toEqual([]);
    expect(spellings.length).toBe(51);
  });

  it("agrees with the scanner on generated text", () => {
    const pieces = [
      ...lexicon.operatorWords,
      ...lexicon.bangOperators,
      ...lexicon.symbolOperators,
      ...lexicon.logicWords,
      ...lexicon.logicSymbols,
      ...lexicon.booleans,
      ...lexicon.punctuation,
      "Field",
      "_x9",
      "AND",
      "1",
      "-",
      "0.5",
      "1e",
      "e+",
      // Units and status classes after a number: one value (`50ms`, `5xx`).
      "ms",
      "xx",
      "s",
      "M",
      "µs",
      ".",
      '"',
      "'",
      "\\",
      "\\u00",
      "#",
      "=",
      "&",
      "|",
      "!",
      "@",
      "é",
      "\u201c",
      "\u2019",
      "😀",
      " ",
      "\t",
      "\u00a0",
      "\n",
      "\r\n",
      "\r",
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 24 }), (parts) => {
        expect(disagreements(parts.join(""))).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});
