import type { ISerializedGast } from "chevrotain";
import { describe, expect, it } from "vitest";
import { createLanguageService } from "../../src/service/index.js";
import { filterParser } from "../../src/syntax/parser.js";
import { withMarks } from "./cursor.js";

/*
 * The completion context walks tokens by hand (src/service/completion-context.ts). These tests
 * tie it to the parser: what may come next at each place is computed from the parser's serialized
 * grammar (FIRST and FOLLOW sets), and completion must offer exactly that there.
 */

type Gast = ISerializedGast & { name?: string; definition?: Gast[] };
const rules = new Map(
  (filterParser().getSerializedGastProductions() as Gast[]).map((rule) => [rule.name!, rule]),
);

/** The terminals a sequence may start with, and whether it may be empty. */
function first(sequence: Gast[]): { terminals: Set<string>; empty: boolean } {
  const terminals = new Set<string>();
  for (const item of sequence) {
    const start = firstOfItem(item);
    for (const terminal of start.terminals) terminals.add(terminal);
    if (!start.empty) return { terminals, empty: false };
  }
  return { terminals, empty: true };
}

function firstOfItem(item: Gast): { terminals: Set<string>; empty: boolean } {
  switch (item.type) {
    case "Terminal":
      return { terminals: new Set([item.name!]), empty: false };
    case "NonTerminal":
      return first(rules.get(item.name!)!.definition!);
    case "Alternation": {
      const terminals = new Set<string>();
      let empty = false;
      for (const alternative of item.definition!) {
        const start = first(alternative.definition!);
        for (const terminal of start.terminals) terminals.add(terminal);
        empty ||= start.empty;
      }
      return { terminals, empty };
    }
    case "Option":
    case "Repetition":
      return { terminals: first(item.definition!).terminals, empty: true };
    default:
      return first(item.definition!);
  }
}

/** FOLLOW of every rule: the terminals that may come right after it (EOF at the end of the filter). */
function followSets(): Map<string, Set<string>> {
  const follow = new Map([...rules.keys()].map((name) => [name, new Set<string>()]));
  follow.get("filter")!.add("EOF");
  let changed = true;
  const walk = (sequence: Gast[], after: Set<string>): void => {
    let current = after;
    for (let i = sequence.length - 1; i >= 0; i--) {
      const item = sequence[i]!;
      if (item.type === "NonTerminal") {
        const set = follow.get(item.name!)!;
        for (const terminal of current)
          if (!set.has(terminal)) {
            set.add(terminal);
            changed = true;
          }
      } else if (item.type === "Alternation") {
        for (const alternative of item.definition!) walk(alternative.definition!, current);
      } else if (item.type === "Repetition") {
        walk(item.definition!, new Set([...current, ...first(item.definition!).terminals]));
      } else if (item.type !== "Terminal") {
        walk(item.definition!, current);
      }
      const start = firstOfItem(item);
      current = start.empty ? new Set([...start.terminals, ...current]) : start.terminals;
    }
  };
  while (changed) {
    changed = false;
    for (const [name, rule] of rules) walk(rule.definition!, follow.get(name)!);
  }
  return follow;
}

/** The terminals a rule names itself. */
function terminalsOf(name: string): Set<string> {
  const found = new Set<string>();
  const visit = (item: Gast) => {
    if (item.type === "Terminal") found.add(item.name!);
    for (const child of item.definition ?? []) visit(child);
  };
  visit(rules.get(name)!);
  return found;
}

/** What completion offers for each terminal of the grammar (a field name for Identifier). */
const offered: Record<string, string> = {
  Identifier: "a field",
  Negation: "not",
  Not: "not",
  LParen: "(",
  RParen: ")",
  AndOperator: "and",
  OrOperator: "or",
  LBracket: "[",
  RBracket: "]",
  Comma: ",",
};

function offers(marked: string): Set<string> {
  const { text, offset } = withMarks(marked);
  const items = createLanguageService({ dataset: "http_requests" }).completions(text, offset);
  return new Set(items.map((item) => (item.kind === "field" ? "a field" : item.label)));
}

const expected = (terminals: Iterable<string>) =>
  new Set([...terminals].filter((terminal) => terminal !== "EOF").map((terminal) => offered[terminal]!));

describe("completion offers what the parser's grammar allows next", () => {
  const follow = followSets();

  it("where an operand starts: FIRST(unary)", () => {
    const start = firstOfItem({ type: "NonTerminal", name: "unary" } as Gast).terminals;
    expect(start).toEqual(new Set(["Negation", "LParen", "Identifier"]));
    expect(offers("<|>")).toEqual(expected(start));
    expect(offers("BotScore lt 1 and <|>")).toEqual(expected(start));
  });

  it("after a comparison inside a group: FOLLOW(comparison)", () => {
    expect(follow.get("comparison")).toEqual(new Set(["AndOperator", "OrOperator", "RParen", "EOF"]));
    expect(offers("(BotScore lt 1 <|>")).toEqual(expected(follow.get("comparison")!));
  });

  it("after a list element: FOLLOW(element) within the list", () => {
    // The closing `]` is optional in the grammar (a missing one is reported, and parsing goes on),
    // so FOLLOW(element) also holds what follows a list; inside an open list, only its own tokens.
    const inList = [...follow.get("element")!].filter((terminal) => terminalsOf("list").has(terminal));
    expect(inList).toEqual(["Comma", "RBracket"]);
    expect(offers('ClientRequestHost in ["a" <|>')).toEqual(expected(inList));
  });

  it("where a list value starts: FIRST(list)", () => {
    const start = firstOfItem({ type: "NonTerminal", name: "list" } as Gast).terminals;
    expect(offers("ClientRequestHost in <|>")).toEqual(expected(start));
  });
});
