import {
  createToken,
  EmbeddedActionsParser,
  EOF,
  type IOrAlt,
  type IRecognitionException,
  type IToken,
  Lexer,
  type TokenType,
  tokenMatcher,
} from "chevrotain";
import { type Diagnostic, diagnose, type Position, type Range } from "../diagnostics/index.js";
import type { Comparison, ErrorNode, Expr, ListValue, OperatorRef, Scalar, Value } from "./ast.js";
import { errorMessages } from "./messages.js";
import {
  comparisonNode,
  grouped,
  infixNotNode,
  isRealToken,
  listNode,
  logical,
  notNode,
  operatorNode,
  scalarOf,
  spliceGroup,
  tokenEnd,
  tokenRange,
  tokenStart,
  wordOperatorNode,
  wordRun,
} from "./nodes.js";
import {
  AndOperator,
  allTokens,
  Bang,
  Comma,
  ComparisonOperator,
  Identifier,
  LBrace,
  LBracket,
  LParen,
  Negation,
  Not,
  numberTokenTypes,
  OrOperator,
  RBrace,
  RBracket,
  RParen,
  Scalar as ScalarToken,
} from "./tokens.js";
import { isListOperator } from "./vocabulary.js";

// chevrotain's parser finds the token types beneath a category through a table of its module,
// which only its createToken fills: each of filterc's token types (tokens.ts) is registered there
// once, and takes the index chevrotain gave it (the one it already has, unless chevrotain had
// numbered token types of its own first).
numberTokenTypes((type) => createToken({ name: type.name, pattern: Lexer.NA }).tokenTypeIdx!);

/** What one call of `parse` knows about its source, passed to the grammar for that call only. */
export interface ParseContext {
  /** The source: an unquoted run and a list in the wrong brackets are fixed from its text. */
  readonly source: string;
  /** Where recovered nodes point when no token is at hand. */
  readonly endOfInput: Position;
  /** Where the lexer rejected characters: an error there already explains a gap in the grammar. */
  readonly lexingErrorOffsets: readonly number[];
}

/** What `parseTokens` found: the expression (null for none) and the syntax errors on the way. */
export interface TokensParsed {
  expr: Expr | null;
  problems: Diagnostic[];
  errors: IRecognitionException[];
}

/** One call of `parseTokens`: its context, and the problems found so far. */
interface ParseCall {
  readonly context: ParseContext;
  readonly problems: Diagnostic[];
}

/**
 * The filter grammar as a chevrotain parser that builds the AST directly (embedded actions).
 * One instance is built per process and reused: building one costs far more than a parse.
 *
 *   filter     := orExpr?
 *   orExpr     := andExpr (("or" | "||") andExpr)*
 *   andExpr    := unary (("and" | "&&") unary)*
 *   unary      := ("not" | "!") unary | "(" orExpr ")" | comparison
 *   comparison := Identifier (ComparisonOperator | operator) (list | Scalar)
 *   operator   := "not" (ComparisonOperator | Identifier) | Identifier | "!" Identifier
 *   list       := "[" (element ("," element)* ","?)? "]"
 *   element    := Scalar
 *
 * The grammar is flat on purpose: every comparison passes through few rules, and a value is one
 * token category (Scalar) rather than an alternation; with the scanner work this cut the parse
 * time by about a third. `operator` and `element` stay rules for their recovery: an error inside
 * one is resynchronized there, so the rest of the comparison or list still parses.
 */
class FilterParser extends EmbeddedActionsParser {
  /**
   * The call being parsed, set by `parseTokens` for its duration only. Everything else on the
   * instance is chevrotain's own (its input, errors and rule stacks), reset by chevrotain each
   * time the input is set: nothing of one call is left for the next.
   */
  private call: ParseCall | undefined;

  /** Grammar validations cost start-up time on every run; the test suite builds one parser with them on. */
  constructor(validate = false) {
    super(allTokens, {
      recoveryEnabled: true,
      maxLookahead: 1,
      errorMessageProvider: errorMessages,
      skipValidations: !validate,
    });
    this.performSelfAnalysis();
  }

  private errorAt(exception: IRecognitionException): ErrorNode {
    const token = exception.token;
    if (isRealToken(token) && token.tokenType.name !== "EOF")
      return { kind: "error" as const, range: tokenRange(token) };
    return { kind: "error" as const, range: { start: this.endOfInput, end: this.endOfInput } };
  }

  private readonly recovery = { recoveryValueFunc: (e: IRecognitionException) => this.errorAt(e) };

  /**
   * A token chevrotain invents to recover (`[4,,2]` gets a value between the commas) sits, empty,
   * right after the token before it: chevrotain's own has offset -1, and a range built from it
   * would point outside the source. Nodes built from one are error nodes (see `scalarOf`).
   */
  override getTokenToInsert(tokenType: TokenType): IToken {
    const previous = this.LA(0);
    const at = isRealToken(previous) && previous.tokenType !== EOF ? tokenEnd(previous) : this.endOfInput;
    return {
      image: "",
      startOffset: at.offset,
      startLine: at.line,
      startColumn: at.column,
      tokenTypeIdx: tokenType.tokenTypeIdx!,
      tokenType,
      isInsertedInRecovery: true,
    };
  }

  /**
   * Parses `tokens` (all or the rest of one source) with what `context` knows about that source.
   * The problems are the syntax errors found by the grammar's own checks (missing operand, value
   * or bracket), the errors chevrotain's; both belong to this call alone.
   */
  parseTokens(tokens: IToken[], context: ParseContext): TokensParsed {
    const call: ParseCall = { context, problems: [] };
    this.call = call;
    // Tokens scanned before this module first loaded hold the indices their types had then.
    for (const token of tokens) token.tokenTypeIdx = token.tokenType.tokenTypeIdx!;
    try {
      this.input = tokens;
      const expr = (this.filter() as Expr | null | undefined) ?? null;
      return { expr, problems: call.problems, errors: this.errors };
    } finally {
      this.call = undefined;
    }
  }

  /** The current call's context: only grammar actions and recovery read it, and they run inside `parseTokens`. */
  private get context(): ParseContext {
    return this.call!.context;
  }

  private get endOfInput(): Position {
    return this.context.endOfInput;
  }

  /**
   * Records "expected …" at the next token (or right after the previous one at the end of input)
   * and returns an error node there, so the rest of the comparison or group still gets built.
   */
  private missing(expected: string): ErrorNode {
    const next = this.LA(1);
    const previous = this.LA(0);
    const atEnd = next.tokenType === EOF;
    const previousEnd = isRealToken(previous) ? tokenEnd(previous) : this.endOfInput;
    const range: Range = atEnd ? { start: previousEnd, end: previousEnd } : tokenRange(next);
    const after = isRealToken(previous) ? ` after \`${previous.image}\`` : "";
    const found = atEnd ? "the end of the filter" : `\`${next.image}\``;
    // A character the lexer already rejected stands in this gap: that error says it all.
    const gapEnd = atEnd ? this.endOfInput.offset : next.startOffset;
    const explained = this.context.lexingErrorOffsets.some(
      (offset) => offset >= previousEnd.offset && offset < gapEnd,
    );
    if (!explained)
      this.call!.problems.push(
        diagnose("Expected", range, { expected: expected.replace("{after}", after), found }),
      );
    return { kind: "error", range: atEnd ? range : { start: previousEnd, end: previousEnd } };
  }

  public filter = this.RULE("filter", (): Expr | null => {
    let expr: Expr | null = null;
    this.OPTION(() => {
      expr = this.SUBRULE(this.orExpr);
    });
    return expr;
  });

  private orExpr = this.RULE(
    "orExpr",
    (): Expr => {
      const first = this.SUBRULE(this.andExpr);
      let operands: Expr[] | undefined;
      this.MANY(() => {
        this.CONSUME(OrOperator);
        let next: Expr | undefined;
        this.OPTION(() => {
          next = this.SUBRULE2(this.andExpr);
        });
        this.ACTION(() => {
          operands ??= spliceGroup("or", [], first);
          spliceGroup("or", operands, next ?? this.missing("a comparison{after}"));
        });
      });
      return this.ACTION(() => (operands ? logical("or", operands) : first));
    },
    this.recovery,
  );

  private andExpr = this.RULE(
    "andExpr",
    (): Expr => {
      const first = this.SUBRULE(this.unary);
      let operands: Expr[] | undefined;
      this.MANY(() => {
        this.CONSUME(AndOperator);
        let next: Expr | undefined;
        this.OPTION(() => {
          next = this.SUBRULE2(this.unary);
        });
        this.ACTION(() => {
          operands ??= spliceGroup("and", [], first);
          spliceGroup("and", operands, next ?? this.missing("a comparison{after}"));
        });
      });
      return this.ACTION(() => (operands ? logical("and", operands) : first));
    },
    this.recovery,
  );

  private unary = this.RULE("unary", (): Expr => this.OR(this.unaryForms), this.recovery);

  /*
   * The alternatives and optional parts of the rules every comparison passes through are built
   * once, here, not on every call: chevrotain takes them as arrays and closures, and building
   * those per call was most of the parser's allocation. They use no local state of the rule.
   */

  private readonly optionalUnary = () => this.SUBRULE(this.unary);
  private readonly optionalGroupBody = () => this.SUBRULE(this.orExpr);
  private readonly optionalGroupEnd = () => this.CONSUME(RParen);

  private readonly unaryForms: IOrAlt<Expr>[] = [
    {
      ALT: () => {
        const keyword = this.CONSUME(Negation);
        const found = this.OPTION(this.optionalUnary);
        return this.ACTION(() => notNode(keyword, found ?? this.missing("a comparison{after}")));
      },
    },
    {
      ALT: () => {
        const open = this.CONSUME(LParen);
        const found = this.OPTION2(this.optionalGroupBody);
        const inner = this.ACTION(() => found ?? this.missing("a comparison{after}"));
        const close = this.OPTION3(this.optionalGroupEnd);
        return this.ACTION(() => {
          if (!close) this.missing("`)` to close the `(` at " + `${open.startLine}:${open.startColumn}`);
          if (inner.kind === "error") return inner;
          return grouped(open, inner, close ? tokenEnd(close) : inner.range.end);
        });
      },
    },
    { ALT: () => this.SUBRULE(this.comparison) },
  ];

  private comparison = this.RULE(
    "comparison",
    (): Comparison | ErrorNode => {
      const name = this.CONSUME(Identifier);
      // `RequestHeaders["x-debug"]`: a member of an object field, read only to say E0208.
      const member = this.OPTION4({
        GATE: this.memberAhead,
        DEF: () => {
          this.CONSUME(LBracket);
          this.CONSUME3(ScalarToken);
          return this.CONSUME(RBracket);
        },
      });
      const foundOperator = this.OPTION(this.optionalOperator);
      const operator = this.ACTION(
        () => foundOperator ?? this.missing("an operator{after}, such as `eq`, `in` or `startsWith`"),
      );
      const foundValue = this.OPTION2({ GATE: this.valueAhead, DEF: this.optionalValue });
      return this.ACTION(() => {
        // A field name invented while recovering: the syntax error says what is missing.
        if (!isRealToken(name)) return { kind: "error" as const, range: tokenRange(name) };
        // Only one error per comparison: a missing operator already explains the missing value.
        const value =
          foundValue === undefined
            ? foundOperator
              ? this.missing('a value{after}: a "string", a number, true, false or a [list]')
              : { kind: "error" as const, range: operator.range }
            : "open" in foundValue
              ? this.rebracketed(foundValue, operator)
              : foundValue;
        if (member === undefined) return comparisonNode(name, operator, value);
        const range = { start: tokenStart(name), end: tokenEnd(member) };
        const field = { kind: "field" as const, name: this.sourceOf(range), range };
        return comparisonNode(name, operator, value, field);
      });
    },
    this.recovery,
  );

  private readonly memberAhead = () =>
    this.LA(1).tokenType === LBracket &&
    tokenMatcher(this.LA(2), ScalarToken) &&
    this.LA(3).tokenType === RBracket;

  private sourceOf(range: Range): string {
    return this.context.source.slice(range.start.offset, range.end.offset);
  }

  /** The common case, an operator token, is taken here; the `operator` rule handles the other spellings. */
  private readonly operatorForms: IOrAlt<OperatorRef | ErrorNode>[] = [
    {
      ALT: () => {
        const token = this.CONSUME(ComparisonOperator);
        return this.ACTION(() => operatorNode(token));
      },
    },
    { ALT: () => this.SUBRULE(this.operator) },
  ];
  private readonly optionalOperator = () => this.OR2(this.operatorForms);

  private readonly valueForms: IOrAlt<Value | Bracketed>[] = [
    { ALT: () => this.SUBRULE(this.list) },
    {
      ALT: () => {
        const token = this.CONSUME(ScalarToken);
        // Words after an unquoted word, to the end of the comparison, are read with it
        // (`eq foo bar`), so that one error quotes them all.
        let last = token;
        let runEnd: number | undefined;
        this.MANY({
          GATE: () => {
            runEnd ??= this.wordRunEnd(token);
            return this.LA(1).startOffset <= runEnd;
          },
          DEF: () => {
            last = this.CONSUME2(Identifier);
          },
        });
        // `in 200, 201`: a list without its brackets, read to say E0111 with them.
        const more: IToken[] = [];
        this.MANY2({
          GATE: () =>
            this.LA(1).tokenType === Comma &&
            tokenMatcher(this.LA(2), ScalarToken) &&
            !tokenMatcher(this.LA(3), ComparisonOperator) &&
            !tokenMatcher(this.LA(3), Negation),
          DEF: () => {
            this.CONSUME(Comma);
            more.push(this.CONSUME2(ScalarToken));
          },
        });
        const trailing = this.OPTION3({
          GATE: () => more.length > 0 && this.LA(1).tokenType === Comma && endsComparison(this.LA(2)),
          DEF: () => this.CONSUME2(Comma),
        });
        return this.ACTION((): Value | Bracketed => {
          const first = last === token ? scalarOf(token) : wordRun(token, last, this.context.source);
          if (more.length === 0) return first;
          return { open: undefined, elements: [first, ...more.map(scalarOf)], close: trailing };
        });
      },
    },
    { ALT: () => this.SUBRULE(this.bracketed) },
  ];
  private readonly optionalValue = () => this.OR(this.valueForms);

  /** A `(` after an operator opens a value only where a list in the wrong brackets follows: `("us", …` or `("us")`. */
  private readonly valueAhead = () =>
    this.LA(1).tokenType !== LParen ||
    (tokenMatcher(this.LA(2), ScalarToken) && [Comma, RParen].includes(this.LA(3).tokenType));

  /**
   * The offset of the last word that joins the unquoted word `value` (-1 for none): the words
   * that follow it on its line, when what comes after them ends the value (the end, `and`, `or`,
   * `)`, `,`, `]` or another line). A word followed by an operator starts the next comparison.
   */
  private wordRunEnd(value: IToken): number {
    if (value.tokenType !== Identifier) return -1;
    let k = 1;
    while (this.LA(k).tokenType === Identifier && this.LA(k).startLine === value.startLine) k++;
    const next = this.LA(k);
    const ends =
      next.startLine !== value.startLine ||
      endsComparison(next) ||
      next.tokenType === Comma ||
      next.tokenType === RBracket;
    return k > 1 && ends ? this.LA(k - 1).startOffset : -1;
  }

  /**
   * Values in `( )` or `{ }` after an operator: read like a list, to say E0111 with the fix. The
   * closing bracket may be any of `)`, `}`, `]`, or missing.
   */
  private bracketed = this.RULE("bracketed", (): Bracketed => {
    const open = this.OR([{ ALT: () => this.CONSUME(LParen) }, { ALT: () => this.CONSUME(LBrace) }]);
    const elements: Scalar[] = [];
    this.OPTION(() => {
      elements.push(this.SUBRULE(this.element));
      this.MANY({
        GATE: () => !closesBracketed.includes(this.LA(2).tokenType),
        DEF: () => {
          this.CONSUME(Comma);
          elements.push(this.SUBRULE2(this.element));
        },
      });
      this.OPTION2(() => this.CONSUME2(Comma));
    });
    const close = this.OPTION3(() =>
      this.OR2([
        { ALT: () => this.CONSUME(RParen) },
        { ALT: () => this.CONSUME(RBrace) },
        { ALT: () => this.CONSUME(RBracket) },
      ]),
    );
    return { open, elements, close };
  });

  /**
   * The value that values in the wrong brackets (or none) stand for, with E0111 and its fix: a list
   * in `[ ]`, or for an operator that takes one value, one value alone (`eq ("us")` → `"us"`).
   */
  private rebracketed({ open, elements, close }: Bracketed, operator: OperatorRef | ErrorNode): Value {
    const last = close ?? elements[elements.length - 1];
    const start = open ? tokenStart(open) : elements[0]!.range.start;
    const range: Range = {
      start,
      end: last === undefined ? tokenEnd(open!) : "image" in last ? tokenEnd(last) : last.range.end,
    };
    const one = operator.kind === "operator" && operator.op !== null && !isListOperator(operator.op);
    const alone = one && elements.length === 1 ? elements[0] : undefined;
    const texts = elements.map((element) => this.sourceOf(element.range));
    const fixable = elements.length > 0 && elements.every((element) => element.kind !== "error");
    const replacement = !fixable ? undefined : alone ? texts[0]! : `[${texts.join(", ")}]`;
    const brackets = open === undefined ? undefined : open.image === "{" ? "{ }" : "( )";
    this.call!.problems.push(
      diagnose(
        "WrongBrackets",
        range,
        { brackets, list: alone === undefined, replacement },
        replacement === undefined ? undefined : { message: `write ${replacement}`, range, replacement },
      ),
    );
    return alone ?? { kind: "list", elements, range };
  }

  private operator = this.RULE(
    "operator",
    (): OperatorRef | ErrorNode =>
      this.OR([
        {
          ALT: () => {
            const not = this.CONSUME(Not);
            const token = this.OR2([
              { ALT: () => this.CONSUME2(ComparisonOperator) },
              { ALT: () => this.CONSUME3(Identifier) },
            ]);
            return this.ACTION((): OperatorRef | ErrorNode =>
              isRealToken(token) ? infixNotNode(not, token) : { kind: "error", range: tokenRange(not) },
            );
          },
        },
        {
          ALT: () => {
            const token = this.CONSUME(Identifier);
            return this.ACTION(() => wordOperatorNode(token));
          },
        },
        {
          ALT: () => {
            const bang = this.CONSUME(Bang);
            const token = this.CONSUME2(Identifier);
            return this.ACTION(() => wordOperatorNode(token, bang));
          },
        },
      ]),
    this.recovery,
  );

  private list = this.RULE(
    "list",
    (): ListValue | ErrorNode => {
      const open = this.CONSUME(LBracket);
      const elements: Scalar[] = [];
      this.OPTION(() => {
        elements.push(this.SUBRULE(this.element));
        this.MANY({
          GATE: () => this.LA(2).tokenType !== RBracket,
          DEF: () => {
            this.CONSUME(Comma);
            elements.push(this.SUBRULE2(this.element));
          },
        });
        this.OPTION2(() => this.CONSUME2(Comma));
      });
      let close: IToken | undefined;
      this.OPTION3(() => {
        close = this.CONSUME(RBracket);
      });
      return this.ACTION(() => {
        if (!close) this.missing("`]` to close the list");
        const last = elements[elements.length - 1];
        return listNode(open, elements, close ? tokenEnd(close) : last ? last.range.end : tokenEnd(open));
      });
    },
    this.recovery,
  );

  /**
   * A list inside a list (`[["us"]]`) is read to its `]` (values and commas only: no recursion, so
   * a thousand `[` cannot exhaust the stack), so that one error says lists do not nest.
   */
  private readonly elementForms: IOrAlt<Scalar>[] = [
    {
      ALT: () => {
        const token = this.CONSUME(ScalarToken);
        // As for a comparison's value: `[us east, ca]` holds the unquoted `us east`.
        let last = token;
        let runEnd: number | undefined;
        this.MANY2({
          GATE: () => {
            runEnd ??= this.wordRunEnd(token);
            return this.LA(1).startOffset <= runEnd;
          },
          DEF: () => {
            last = this.CONSUME(Identifier);
          },
        });
        return this.ACTION(() =>
          last === token ? scalarOf(token) : wordRun(token, last, this.context.source),
        );
      },
    },
    {
      ALT: () => {
        const open = this.CONSUME(LBracket);
        let last = open;
        this.MANY(() => {
          last = this.OR2(this.innerListParts);
        });
        this.OPTION(() => {
          last = this.CONSUME(RBracket);
        });
        return this.ACTION(() => {
          const range = { start: tokenStart(open), end: tokenEnd(last) };
          this.call!.problems.push(diagnose("NestedList", range, {}));
          return { kind: "error" as const, range };
        });
      },
    },
  ];

  private readonly innerListParts: IOrAlt<IToken>[] = [
    { ALT: () => this.CONSUME2(ScalarToken) },
    { ALT: () => this.CONSUME(Comma) },
  ];

  private element = this.RULE("element", (): Scalar => this.OR(this.elementForms), this.recovery);
}

/** Values in the wrong brackets or none, as read: the comparison turns them into its value (see `rebracketed`). */
interface Bracketed {
  /** `(` or `{`; none for values listed without brackets (`in 200, 201`). */
  open: IToken | undefined;
  elements: Scalar[];
  close: IToken | undefined;
}

const closesBracketed: TokenType[] = [RParen, RBrace, RBracket];

/** Whether a comparison ends before `token`: the end, `and`, `or` or `)`. */
const endsComparison = (token: IToken) =>
  token.tokenType === EOF ||
  token.tokenType === RParen ||
  tokenMatcher(token, AndOperator) ||
  tokenMatcher(token, OrOperator);

let instance: FilterParser | undefined;

/** The one parser of the process, built on first use. */
export function filterParser(): FilterParser {
  instance ??= new FilterParser();
  return instance;
}

/** Builds a parser with chevrotain's grammar validations (ambiguities, left recursion) on; throws if any fails. */
export function validatedParser(): FilterParser {
  return new FilterParser(true);
}

export type { FilterParser };
