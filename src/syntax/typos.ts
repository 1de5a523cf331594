import type { IToken, TokenType } from "chevrotain";
import { type Diagnostic, diagnose, editDistance } from "../diagnostics/index.js";
import { tokenRange } from "./nodes.js";
import { And, Not, Or, tokenFacts } from "./tokens.js";
import { LOGIC, OPERATORS } from "./vocabulary.js";

/*
 * Slips in the words that join comparisons: `adn`, `nad`, `ro`, `nto` are read as the keyword they
 * stand for, with an error whose fix writes it, rather than as a field and an operator that cascade
 * into three errors. Only where the keyword makes sense on both sides: `and`/`or` between a complete
 * comparison and the start of the next, `not` before one (or between a field and `in`, `contains`,
 * `startsWith`, `endsWith`), so a field with such a name is never taken for one.
 */

const keywords: [string, TokenType][] = [
  [LOGIC.and.word, And],
  [LOGIC.or.word, Or],
  [LOGIC.not.word, Not],
];

/** The keyword `word` is one slip from: its letters swapped (`adn`), or one letter added, dropped or changed (`annd`). */
function keywordMeant(word: string): [string, TokenType] | undefined {
  const lower = word.toLowerCase();
  const letters = [...lower].sort().join("");
  let best: [string, TokenType] | undefined;
  let bestDistance = 2;
  for (const entry of keywords) {
    const distance =
      lower.length === entry[0].length && letters === [...entry[0]].sort().join("")
        ? 1
        : editDistance(lower, entry[0], 1);
    if (distance < bestDistance) {
      best = entry;
      bestDistance = distance;
    }
  }
  return best;
}

const facts = (token: IToken | undefined) => (token === undefined ? undefined : tokenFacts(token));
const isPunctuation = (token: IToken | undefined, text: string) => {
  const found = facts(token);
  return found?.class === "punctuation" && found.punctuation === text;
};
const isLogic = (token: IToken | undefined, ...words: string[]) => {
  const found = facts(token);
  return found?.class === "logic" && words.includes(found.logic);
};
const isOperator = (token: IToken | undefined) => facts(token)?.class === "operator";
const isField = (token: IToken | undefined) => facts(token)?.class === "field";
const isValue = (token: IToken | undefined) => {
  const found = facts(token);
  return found?.class === "value" || found?.class === "field";
};

/** Whether a comparison, group or `not` may start at `i`: at the start, after `(`, `and`, `or`, `not`. */
function atOperandStart(tokens: readonly IToken[], i: number): boolean {
  return i === 0 || isPunctuation(tokens[i - 1], "(") || isLogic(tokens[i - 1], "and", "or", "not");
}

/** Whether a comparison (a field then an operator), a group or a `not` starts at `i`. */
function startsOperand(tokens: readonly IToken[], i: number): boolean {
  if (isPunctuation(tokens[i], "(") || isLogic(tokens[i], "not")) return true;
  return isField(tokens[i]) && (isOperator(tokens[i + 1]) || isLogic(tokens[i + 1], "not"));
}

/** Whether a complete comparison or group ends just before `i`: `)`, `]`, or a value right after an operator. */
function endsOperand(tokens: readonly IToken[], i: number): boolean {
  const previous = tokens[i - 1];
  return (
    isPunctuation(previous, ")") ||
    isPunctuation(previous, "]") ||
    (isValue(previous) && isOperator(tokens[i - 2]))
  );
}

/** Whether a stray character at `offset` (`&`, `|`) stands between two comparisons, where `&&` or `||` belongs. */
export function joinsComparisons(tokens: readonly IToken[], offset: number): boolean {
  let next = 0;
  while (next < tokens.length && tokens[next]!.startOffset < offset) next++;
  return next > 0 && endsOperand(tokens, next) && startsOperand(tokens, next);
}

/** Slips are 2 to 4 letters long (`ro`, `annd`): the scanner lists the words of these lengths. */
export const isSlipLength = (length: number) => length >= 2 && length <= 4;

/**
 * Reads each slip of `and`, `or` or `not` in a place only that keyword fits as the keyword (the
 * token is replaced in `tokens`), and reports E0112 with the keyword as the fix. `shortWords` are
 * the indices of the words of a slip's length (ScanResult.shortWords).
 */
export function readKeywordSlips(
  tokens: IToken[],
  shortWords: readonly number[],
  diagnostics: Diagnostic[],
): void {
  for (const i of shortWords) {
    const token = tokens[i]!;
    const meant = keywordMeant(token.image);
    if (meant === undefined) continue;
    const [keyword, type] = meant;
    const fits =
      type === Not
        ? (atOperandStart(tokens, i) && startsOperand(tokens, i + 1)) || infixNotFits(tokens, i)
        : endsOperand(tokens, i) && startsOperand(tokens, i + 1);
    if (!fits) continue;
    tokens[i] = { ...token, tokenType: type, tokenTypeIdx: type.tokenTypeIdx! };
    const range = tokenRange(token);
    diagnostics.push(
      diagnose(
        "KeywordSlip",
        range,
        { word: token.image, keyword },
        { message: `replace with \`${keyword}\``, range, replacement: keyword },
      ),
    );
  }
}

/** `Field nto in [...]`: a field starting a comparison before, an operator with an infix `not` after. */
function infixNotFits(tokens: readonly IToken[], i: number): boolean {
  const after = facts(tokens[i + 1]);
  return (
    isField(tokens[i - 1]) &&
    atOperandStart(tokens, i - 1) &&
    after?.class === "operator" &&
    OPERATORS[after.operator].infixNot
  );
}
