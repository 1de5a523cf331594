import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Expr, parse, scan } from "../../src/syntax/index.js";
import { filterParser } from "../../src/syntax/parser.js";
import { OPERATOR_SPELLINGS } from "../../src/syntax/vocabulary.js";
import { parseWellFormed } from "../../src/syntax/well-formed.js";

/** chevrotain's parse of the whole source, and whether it found nothing wrong. */
function chevrotainParse(source: string): { expr: Expr | null; clean: boolean } {
  const lexed = scan(source);
  const context = { source, endOfInput: lexed.end, lexingErrorOffsets: [] };
  const { expr, problems, errors } = filterParser().parseTokens(lexed.tokens, context);
  return { expr, clean: problems.length === 0 && errors.length === 0 };
}

const field = fc.constantFrom("EdgeResponseStatus", "ClientRequestHost", "X", "_a1");
const operator = fc.oneof(
  fc.constantFrom(...OPERATOR_SPELLINGS.keys()),
  // Near misses, `not` before an operator or a word, words and `!word` as operators.
  fc.constantFrom("<>", "===", "!lt", "not in", "NOT contains", "not eq", "NOT In", "like", "!like"),
);
const scalar = fc.constantFrom(
  "1",
  "-20",
  "007",
  "1.5",
  "2e3",
  '"a b"',
  '"\\u00e9\\""',
  "'single'",
  "“curly”",
  "true",
  "FALSE",
  "word",
  '"open',
);
const list = fc
  .tuple(fc.array(fc.oneof(scalar, fc.constant("[1]")), { maxLength: 3 }), fc.boolean())
  .map(([elements, trailing]) => `[${elements.join(", ")}${trailing && elements.length > 0 ? "," : ""}]`);
const comparison = fc
  .tuple(field, operator, fc.oneof(scalar, list))
  .map(([name, op, value]) => `${name} ${op} ${value}`);
const { expr } = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    comparison,
    fc.tuple(fc.constantFrom("not ", "! ", "NOT "), tie("expr")).map(([not, operand]) => not + operand),
    tie("expr").map((inner) => `(${inner})`),
    fc
      .tuple(
        fc.constantFrom(" and ", " or ", " && ", " || ", "\n  AND "),
        fc.array(tie("expr"), { minLength: 2, maxLength: 3 }),
      )
      .map(([join, operands]) => operands.join(join)),
  ),
}));

/** A source mostly of the grammar, sometimes broken: a piece cut out, doubled, or put elsewhere. */
const source = fc
  .tuple(expr, fc.nat(), fc.nat(), fc.constantFrom("none", "cut", "double", "move", "comment"))
  .map(([text, a, b, edit]) => {
    const pieces = text.split(/(?<=[ ()[\],])|(?=[ ()[\],])/);
    const i = a % pieces.length;
    const j = b % pieces.length;
    if (edit === "cut") pieces.splice(i, 1);
    if (edit === "double") pieces.splice(i, 0, pieces[i]!);
    if (edit === "move") pieces.splice(j, 0, ...pieces.splice(i, 1));
    if (edit === "comment") pieces.splice(i, 0, " # note\n");
    return pieces.join("");
  });

describe("the parse of well-formed filters", () => {
  it("builds exactly chevrotain's tree wherever it takes a filter, and takes only filters chevrotain reads without error", () => {
    let taken = 0;
    let runs = 0;
    fc.assert(
      fc.property(source, (text) => {
        runs++;
        const fast = parseWellFormed(scan(text).tokens);
        if (fast === undefined) return;
        taken++;
        const reference = chevrotainParse(text);
        expect(reference.clean).toBe(true);
        expect(fast).toEqual(reference.expr);
      }),
      { numRuns: 3000 },
    );
    // The property says nothing of the filters it declines: a good part of the generated ones must be taken.
    expect(taken).toBeGreaterThan(runs * 0.2);
  });

  it.each([
    ["a word as operator", "X like 1", true],
    ["`!` and a word as operator", "X !like 1", true],
    ["`not` before a word", "X NOT In [1]", true],
    ["nesting past 64", `${"(".repeat(65)}X eq 1${")".repeat(65)}`, true],
    ["a list in a list", "X in [[1]]", false],
    ["input after the end", "X eq 1 Y eq 2", false],
  ])("declines %s, which chevrotain's parser reads", (_, text, clean) => {
    expect(parseWellFormed(scan(text).tokens)).toBeUndefined();
    const reference = chevrotainParse(text);
    expect(reference.clean).toBe(clean);
    if (clean) expect(parse(text).filter.expr).toEqual(reference.expr);
  });

  it("takes the empty filter, a comment alone too, as chevrotain's parser does: no tree", () => {
    for (const text of ["", "  # only a note\n"]) {
      expect(parseWellFormed(scan(text).tokens)).toBeNull();
      expect(chevrotainParse(text)).toEqual({ expr: null, clean: true });
      expect(parse(text)).toEqual({ filter: expect.objectContaining({ expr: null }), diagnostics: [] });
    }
  });

  /*
   * A filter the reader takes is read before the depth check when maxDepth is past the reader's
   * limit (64): the check counts an infix `not` as one more level, so 64 parentheses around
   * `X not in [1]` are 65 deep to it, and the reader takes them.
   */
  it.each([
    [63, 63, ["E0002"]],
    [63, 64, []],
    [64, 64, ["E0002"]],
    [64, 65, []],
    [64, 66, []],
  ])("%i parentheses around `X not in [1]`, maxDepth %i: %j", (parens, maxDepth, codes) => {
    const text = `${"(".repeat(parens)}X not in [1]${")".repeat(parens)}`;
    expect(parseWellFormed(scan(text).tokens)).toBeDefined();
    expect(parse(text, { maxDepth }).diagnostics.map((d) => d.code)).toEqual(codes);
  });

  it("takes 64 levels of nesting, and `not` before an operator", () => {
    const text = `${"(".repeat(32)}${"not ".repeat(32)}X not in [1,]${")".repeat(32)}`;
    const fast = parseWellFormed(scan(text).tokens);
    expect(fast).toBeDefined();
    expect(fast).toEqual(chevrotainParse(text).expr);
  });
});
