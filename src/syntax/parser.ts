import {
  EmbeddedActionsParser,
  EOF,
  type IOrAlt,
  type IRecognitionException,
  type IToken,
  type TokenType,
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
} from "./nodes.js";
import {
  AndOperator,
  allTokens,
  Bang,
  Comma,
  ComparisonOperator,
  Identifier,
  LBracket,
  LParen,
  Negation,
  Not,
  OrOperator,
  RBracket,
  RParen,
  Scalar as ScalarToken,
} from "./tokens.js";

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
  /** Set before each parse: where recovered nodes point when no token is at hand. */
  endOfInput: Position = { offset: 0, line: 1, column: 1 };

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

  /** Syntax errors found by the grammar's own checks (missing operand, value or bracket), as opposed to chevrotain's. */
  problems: Diagnostic[] = [];

  /** Where the lexer rejected characters, set before each parse. */
  lexingErrorOffsets: number[] = [];

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
    const explained = this.lexingErrorOffsets.some(
      (offset) => offset >= previousEnd.offset && offset < gapEnd,
    );
    if (!explained)
      this.problems.push(
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
      const foundOperator = this.OPTION(this.optionalOperator);
      const operator = this.ACTION(
        () => foundOperator ?? this.missing("an operator{after}, such as `eq`, `in` or `startsWith`"),
      );
      const foundValue = this.OPTION2(this.optionalValue);
      return this.ACTION(() => {
        // A field name invented while recovering: the syntax error says what is missing.
        if (!isRealToken(name)) return { kind: "error" as const, range: tokenRange(name) };
        // Only one error per comparison: a missing operator already explains the missing value.
        const value =
          foundValue ??
          (foundOperator
            ? this.missing('a value{after}: a "string", a number, true, false or a [list]')
            : { kind: "error" as const, range: operator.range });
        return comparisonNode(name, operator, value);
      });
    },
    this.recovery,
  );

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

  private readonly valueForms: IOrAlt<Value>[] = [
    { ALT: () => this.SUBRULE(this.list) },
    {
      ALT: () => {
        const token = this.CONSUME(ScalarToken);
        return this.ACTION(() => scalarOf(token));
      },
    },
  ];
  private readonly optionalValue = () => this.OR(this.valueForms);

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
        return this.ACTION(() => scalarOf(token));
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
          this.problems.push(diagnose("NestedList", range, {}));
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
