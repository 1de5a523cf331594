import { readFileSync } from "node:fs";
import { createSyntaxDiagramsCode, type ISerializedGast } from "chevrotain";
import { describe, expect, it } from "vitest";
import { DiagnosticKind } from "../../src/diagnostics/index.js";
import { INFIX_NOT_OPERATORS, OPERATOR_SPELLINGS } from "../../src/syntax/index.js";
import { filterParser } from "../../src/syntax/parser.js";

const grammarFile = (name: string) => readFileSync(new URL(`../../grammar/${name}`, import.meta.url), "utf8");
/** A serialized rule or reference: rules, non-terminals and terminals all carry a name. */
type Named = ISerializedGast & { name: string };
const productions = filterParser().getSerializedGastProductions() as Named[];

/** The rules and tokens a serialized rule refers to. */
function references(node: ISerializedGast, found = new Set<string>()): Set<string> {
  if (node.type === "NonTerminal" || node.type === "Terminal") found.add((node as Named).name);
  for (const child of (node as { definition?: ISerializedGast[] }).definition ?? []) references(child, found);
  return found;
}

/** EBNF rules: name → the identifiers on its right-hand side (quoted text and comments left out). */
function ebnfRules(text: string): Map<string, Set<string>> {
  const bare = text.replace(/\(\*[\s\S]*?\*\)/g, " ");
  const rules = new Map<string, Set<string>>();
  for (const match of bare.matchAll(/^(\w+)\s*::=([\s\S]*?);\s*$/gm)) {
    const body = match[2]!.replace(/"[^"]*"|'[^']*'/g, " ");
    rules.set(match[1]!, new Set(body.match(/[A-Za-z_]\w*/g) ?? []));
  }
  return rules;
}

describe("grammar/ stays in step with the parser", () => {
  it("diagrams.html is what grammar/generate.mjs writes (run it after changing the parser)", () => {
    expect(grammarFile("diagrams.html")).toBe(createSyntaxDiagramsCode(productions));
  });

  it("filter.ebnf has every parser rule, each using exactly the parser's rules and tokens", () => {
    const rules = ebnfRules(grammarFile("filter.ebnf"));
    for (const production of productions) {
      expect(rules.has(production.name), `rule ${production.name} missing from filter.ebnf`).toBe(true);
      expect([...rules.get(production.name)!].sort(), `rule ${production.name}`).toEqual(
        [...references(production)].sort(),
      );
      for (const token of references(production)) {
        expect(rules.has(token), `token or rule ${token} not defined in filter.ebnf`).toBe(true);
      }
    }
  });

  it("REFERENCE.md documents every diagnostic code and every operator", () => {
    const reference = grammarFile("REFERENCE.md");
    for (const kind of Object.values(DiagnosticKind)) {
      expect(reference.includes(`| ${kind.code} |`), `${kind.code} missing from grammar/REFERENCE.md`).toBe(
        true,
      );
    }
    for (const spelling of OPERATOR_SPELLINGS.keys()) expect(reference).toContain(`\`${spelling}\``);
    for (const operator of INFIX_NOT_OPERATORS) expect(reference).toContain(`\`not ${operator}\``);
  });
});
