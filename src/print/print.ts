import { expectArgument, isOptions, numericOptionProblem, type OptionLabels } from "../diagnostics/index.js";
import {
  type Comment,
  type Comparison,
  type Expr,
  type FilterSource,
  isPrintable,
  type Scalar,
  stringLiteral,
  type Value,
} from "../syntax/index.js";

/** Options of `print`, `format` and `decompile`'s output. */
export interface PrintOptions {
  /** The column lines are wrapped at (default 80). */
  lineWidth?: number;
  /** How messages name the options: see OptionLabels. */
  optionLabels?: OptionLabels;
}

/** The width `print`, `format` and `decompile` wrap lines at, unless told another (`lineWidth`). */
export const DEFAULT_LINE_WIDTH = 80;

/** Comments to keep next to the comparisons of a printed source (see `attachComments`). */
export interface CommentPlacement {
  /** Own-line comments printed on the lines before a comparison. */
  leading: Map<Comparison, Comment[]>;
  /** The comment printed at the end of a comparison's line. */
  trailing: Map<Comparison, Comment>;
  /** Comments after the last comparison (or of a source with none), printed at the end. */
  end: Comment[];
  /** Comments inside a list, by element: own-line ones before it, the one after code at the end of its line. */
  elements: Map<Scalar, { leading: Comment[]; trailing?: Comment }>;
}

/** Binding strength: a child binding more loosely than its parent needs parentheses. */
const precedence = { or: 1, and: 2, not: 3, comparison: 4, error: 4 } as const;
const INDENT = 2;

/** The canonical source of an AST: canonical operator spellings, minimal parentheses, wrapped lines. */
export function print(node: FilterSource | Expr, options: PrintOptions = {}): string {
  expectArgument(node, isPrintable, "print", "node", "a filter or expression from parse");
  expectArgument(options, isOptions, "print", "options", "an object");
  return printWithComments(node.kind === "filter" ? node.expr : node, undefined, options);
}

export function printWithComments(
  expr: Expr | null,
  comments: CommentPlacement | undefined,
  options: PrintOptions = {},
): string {
  // Printing returns text, not diagnostics: a line width that is not a whole number is a caller's error.
  const problem = numericOptionProblem("lineWidth", options.lineWidth, options.optionLabels);
  if (problem) throw new RangeError(problem);
  const printer = new Printer(options.lineWidth ?? DEFAULT_LINE_WIDTH, comments);
  if (expr) {
    printer.markCommented(expr);
    printer.expr(expr, 0, 0, 0);
  }
  const lines = printer.finish();
  for (const comment of comments?.end ?? []) lines.push(commentText(comment));
  return lines.join("\n");
}

function commentText(comment: Comment): string {
  return `#${comment.text}`.trimEnd();
}

/** A line-by-line writer that lays out an expression flat when it fits, broken over lines when not. */
class Printer {
  private readonly lines: string[] = [];
  private line = "";
  private readonly flatCache = new Map<Expr, string>();
  private readonly commented = new Set<Expr>();

  constructor(
    private readonly width: number,
    private readonly comments: CommentPlacement | undefined,
  ) {}

  finish(): string[] {
    if (this.line.trim() !== "" || this.lines.length === 0) this.lines.push(this.line.trimEnd());
    return this.lines.length === 1 && this.lines[0] === "" ? [] : this.lines;
  }

  private newline(indent: number): void {
    this.lines.push(this.line.trimEnd());
    this.line = " ".repeat(indent);
  }

  private get column(): number {
    return this.line.length;
  }

  /** Writes `expr` at the current column; `indent` is where its continuation lines start, `suffix` what follows it on its last line. */
  expr(expr: Expr, parentPrecedence: number, indent: number, suffix: number): void {
    const parenthesize = precedence[expr.kind] < parentPrecedence;
    const flat = this.flat(expr);
    const width = flat.length + (parenthesize ? 2 : 0);
    if (!this.hasComments(expr) && this.column + width + suffix <= this.width) {
      this.line += parenthesize ? `(${flat})` : flat;
      return;
    }
    switch (expr.kind) {
      case "and":
      case "or":
        if (parenthesize) {
          this.line += "(";
          this.newline(indent + INDENT);
          this.operands(expr.kind, expr.operands, indent + INDENT, indent + INDENT);
          this.newline(indent);
          this.line += ")";
        } else {
          this.operands(expr.kind, expr.operands, indent, indent + INDENT);
        }
        return;
      case "not":
        this.line += "not ";
        this.expr(expr.operand, precedence.not, indent, suffix);
        return;
      case "comparison":
        this.comparison(expr, indent, suffix);
        return;
      case "error":
        return;
    }
  }

  /** The first operand at the current column, each next one on a new line at `continuation` after its `and`/`or`. */
  private operands(kind: "and" | "or", operands: Expr[], indent: number, continuation: number): void {
    operands.forEach((operand, index) => {
      if (index > 0) {
        this.newline(continuation);
        this.line += `${kind} `;
      }
      this.expr(operand, precedence[kind], index > 0 ? continuation : indent, 0);
    });
  }

  private comparison(comparison: Comparison, indent: number, suffix: number): void {
    const leading = this.comments?.leading.get(comparison);
    if (leading) {
      // Comments go on their own lines before the line the comparison is on.
      const lineIndent = " ".repeat(this.line.length - this.line.trimStart().length);
      for (const comment of leading) this.lines.push(lineIndent + commentText(comment));
    }
    const head = `${comparison.field.name} ${operatorText(comparison)} `;
    const value = comparison.value;
    const flat = head + valueText(value);
    if (value.kind === "list" && value.elements.some((element) => this.comments?.elements.has(element))) {
      // A list with comments: one element a line, each with its comments.
      this.line += `${head}[`;
      for (const element of value.elements) {
        const comments = this.comments?.elements.get(element);
        for (const comment of comments?.leading ?? []) {
          this.newline(indent + INDENT);
          this.line += commentText(comment);
        }
        this.newline(indent + INDENT);
        this.line += `${scalarText(element)},`;
        if (comments?.trailing) this.line += ` ${commentText(comments.trailing)}`;
      }
      this.newline(indent);
      this.line += "]";
    } else if (
      value.kind === "list" &&
      value.elements.length > 0 &&
      this.column + flat.length + suffix > this.width
    ) {
      this.line += `${head}[`;
      this.newline(indent + INDENT);
      this.fill(value.elements.map(scalarText), indent + INDENT);
      this.newline(indent);
      this.line += "]";
    } else {
      this.line += flat;
    }
    const trailing = this.comments?.trailing.get(comparison);
    if (trailing) this.line += ` ${commentText(trailing)}`;
  }

  /** List elements packed onto lines of at most the width, each line but the last ending in a comma. */
  private fill(elements: string[], indent: number): void {
    elements.forEach((element, index) => {
      const text = index < elements.length - 1 ? `${element},` : element;
      if (this.column > indent && this.column + 1 + text.length > this.width) this.newline(indent);
      this.line += (this.column > indent ? " " : "") + text;
    });
  }

  private hasComments(expr: Expr): boolean {
    return this.commented.has(expr);
  }

  /** Every node above a commented comparison breaks over lines, so each comment has a line to itself or to end. */
  markCommented(expr: Expr): boolean {
    let has =
      this.comments?.leading.has(expr as Comparison) ||
      this.comments?.trailing.has(expr as Comparison) ||
      (expr.kind === "comparison" &&
        expr.value.kind === "list" &&
        expr.value.elements.some((element) => this.comments?.elements.has(element)));
    if (expr.kind === "and" || expr.kind === "or") {
      for (const operand of expr.operands) if (this.markCommented(operand)) has = true;
    } else if (expr.kind === "not") {
      if (this.markCommented(expr.operand)) has = true;
    }
    if (has) this.commented.add(expr);
    return has === true;
  }

  /** The expression on one line, as `expr` writes it when it fits. */
  private flat(expr: Expr): string {
    const cached = this.flatCache.get(expr);
    if (cached !== undefined) return cached;
    const text = flatText(expr, (child) => this.flat(child));
    this.flatCache.set(expr, text);
    return text;
  }
}

function flatText(expr: Expr, flat: (child: Expr) => string): string {
  switch (expr.kind) {
    case "and":
    case "or": {
      const strength = precedence[expr.kind];
      return expr.operands.map((operand) => wrap(operand, strength, flat)).join(` ${expr.kind} `);
    }
    case "not":
      return `not ${wrap(expr.operand, precedence.not, flat)}`;
    case "comparison":
      return `${expr.field.name} ${operatorText(expr)} ${valueText(expr.value)}`;
    case "error":
      return "";
  }
}

function wrap(expr: Expr, parentPrecedence: number, flat: (child: Expr) => string): string {
  const text = flat(expr);
  return precedence[expr.kind] < parentPrecedence ? `(${text})` : text;
}

/** The canonical spelling; an unknown operator is kept as written, so formatting never hides the mistake. */
function operatorText(comparison: Comparison): string {
  const operator = comparison.operator;
  if (operator.kind === "error") return "";
  return operator.op ?? operator.text;
}

function valueText(value: Value): string {
  if (value.kind === "list") return `[${value.elements.map(scalarText).join(", ")}]`;
  return scalarText(value);
}

function scalarText(value: Scalar): string {
  switch (value.kind) {
    case "string":
      return stringLiteral(value.value);
    case "int":
      return value.digits;
    case "decimal":
      return value.text;
    case "bool":
      return value.value ? "true" : "false";
    case "word":
      return value.name;
    case "error":
      return "";
  }
}
