import { type Diagnostic, diagnose } from "../diagnostics/index.js";
import type { Attribute, Block, Body, Expr, ObjectItem, Span, TemplatePart } from "./hcl-ast.js";
import { decodeQuoted, heredocValue, type StringProblem } from "./hcl-strings.js";
import { MappedText } from "./mapped-text.js";
import type { SourceFile } from "./source-file.js";

/**
 * Reads the grammar's tree of a file without syntax errors into the AST, holding it to HCL's
 * layout rules. The reader is total: it assumes no shape of the tree, so a node of a kind it does
 * not know, or one missing a part, is an expression it cannot evaluate (`dynamic`), never a throw.
 */

/** What the reader needs of a tree-sitter node (a test may hand it nodes of any shape). */
export interface SyntaxNode {
  readonly type: string;
  readonly isNamed: boolean;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly children: readonly (SyntaxNode | null)[];
}

/** A nesting deeper than the limit, found while reading. */
export class TooDeep extends Error {
  constructor(readonly at: number) {
    super("too deep");
  }
}

export const invalid = (source: SourceFile, start: number, end: number, problem: string): Diagnostic =>
  diagnose("HclSyntax", source.rangeOf(start, Math.max(end, start)), { problem });

/** Nodes that start an expression term; the steps (`.name`, `[key]`, splats) after one apply to it. */
const TERMS = new Set([
  "expression",
  "literal_value",
  "template_expr",
  "collection_value",
  "variable_expr",
  "function_call",
  "for_expr",
  "conditional",
  "operation",
  "binary_operation",
  "unary_operation",
]);
const STEPS = new Set(["get_attr", "index", "splat"]);
const OPERATIONS = new Set(["operation", "binary_operation", "unary_operation"]);

export class Reader {
  readonly problems: Diagnostic[] = [];

  constructor(
    private readonly source: SourceFile,
    private readonly maxDepth: number,
  ) {}

  file(root: SyntaxNode): Body {
    const content = children(root)[0];
    if (!content) return { items: [] };
    if (content.type !== "body") {
      this.problem(content, "a configuration file holds arguments and blocks, not one object");
      return { items: [] };
    }
    const body = this.body(content, 0);
    this.multilineLayout(body.items, undefined);
    return body;
  }

  private body(node: SyntaxNode, depth: number): Body {
    const items: (Attribute | Block)[] = [];
    for (const child of children(node)) {
      const item =
        child.type === "block"
          ? this.block(child, depth)
          : child.type === "attribute"
            ? this.attribute(child, depth)
            : undefined;
      if (item) items.push(item);
    }
    return { items };
  }

  private attribute(node: SyntaxNode, depth: number): Attribute | undefined {
    const parts = children(node);
    const name = parts.find((part) => part.type === "identifier");
    const value = parts.find((part) => part.type === "expression");
    if (!name || !value) return undefined;
    return {
      kind: "attribute",
      name: this.text(name),
      nameSpan: span(name),
      value: this.expression(value, depth),
      start: node.startIndex,
      end: node.endIndex,
    };
  }

  private block(node: SyntaxNode, depth: number): Block | undefined {
    if (depth >= this.maxDepth) throw new TooDeep(node.startIndex);
    const parts = children(node);
    const type = parts[0];
    const open = parts.find((part) => part.type === "block_start");
    const close = parts.find((part) => part.type === "block_end");
    if (type?.type !== "identifier" || !open) return undefined;
    const labels = parts
      .slice(1, parts.indexOf(open))
      .map((label) => ({ value: this.label(label), span: span(label) }));
    const bodyNode = parts.find((part) => part.type === "body");
    const body = bodyNode ? this.body(bodyNode, depth + 1) : { items: [] };
    const block: Block = {
      kind: "block",
      type: this.text(type),
      typeSpan: span(type),
      labels,
      body,
      start: node.startIndex,
      end: node.endIndex,
    };
    if (this.line(open.startIndex) !== this.line(node.startIndex))
      this.problem(open, "a block's `{` goes on the line of its type and labels");
    const first = body.items[0];
    if (first && close && this.line(first.start) === this.line(open.startIndex))
      this.oneLineLayout(body.items, close);
    else this.multilineLayout(body.items, close);
    return block;
  }

  private label(node: SyntaxNode): string {
    if (node.type === "identifier") return this.text(node);
    return this.stringValue(node)?.text ?? "";
  }

  /** A block opened and closed on one line: `a { b = 1 }`. */
  private oneLineLayout(items: (Attribute | Block)[], close: SyntaxNode): void {
    const first = items[0]!;
    if (this.line(first.end) !== this.line(close.startIndex)) {
      this.problemAt(
        first.end,
        first.end + 1,
        "a block that starts on one line ends on it: put `}` on this line, or a newline after `{`",
      );
    } else if (items.length > 1) {
      this.problemAt(
        items[1]!.start,
        items[1]!.start + 1,
        "a block written on one line holds one argument; write it on several lines",
      );
    } else if (first.kind === "block") {
      const open = this.source.text.indexOf("{", first.start);
      this.problemAt(
        first.start,
        open + 1,
        "a block written on one line cannot hold another block; write it on several lines",
      );
    }
  }

  /** A body of several lines: each argument and block ends its line. */
  private multilineLayout(items: (Attribute | Block)[], close: SyntaxNode | undefined): void {
    items.forEach((item, index) => {
      const next = items[index + 1];
      if (next && this.line(next.start) === this.line(item.end))
        this.problemAt(
          next.start,
          next.start + 1,
          "each argument and block goes on its own line: put a newline before this one",
        );
    });
    const last = items[items.length - 1];
    if (last && close && this.line(close.startIndex) === this.line(last.end))
      this.problemAt(close.startIndex, close.endIndex, "the `}` closing a block goes on its own line");
  }

  /** An `expression` node: a term (or one in parentheses) and the steps after it. */
  private expression(node: SyntaxNode, depth: number): Expr {
    if (depth >= this.maxDepth) throw new TooDeep(node.startIndex);
    if (node.type !== "expression") return this.term(node, depth);
    const parts = children(node);
    if (parts[0]?.type === "(") {
      const close = parts.findIndex((part) => part.type === ")");
      const inner = parts.find((part) => part.type === "expression");
      const expr = inner
        ? this.expression(inner, depth + 1)
        : this.dynamic(node, "an empty expression", depth);
      const after = close === -1 ? [] : parts.slice(close + 1).filter((part) => part.isNamed);
      return this.steps(expr, after, node, depth);
    }
    const named = parts.filter((part) => part.isNamed);
    const head = named[0];
    if (!head) return this.dynamic(node, "an empty expression", depth);
    return this.steps(this.term(head, depth), named.slice(1), node, depth);
  }

  /** The steps (`.name`, `[key]`, `.0`, splats) after `target`, in order; past a splat all is dynamic. */
  private steps(target: Expr, steps: SyntaxNode[], whole: SyntaxNode, depth: number): Expr {
    let expr = target;
    for (const step of steps) expr = this.step(expr, step, whole.startIndex, depth);
    return expr;
  }

  private step(target: Expr, node: SyntaxNode, start: number, depth: number): Expr {
    const at = { start, end: node.endIndex };
    if (target.kind !== "dynamic") {
      if (node.type === "get_attr") {
        const name = children(node).find((part) => part.type === "identifier");
        if (name) return { kind: "access", target, key: { kind: "attribute", name: this.text(name) }, ...at };
      }
      const inner = node.type === "index" ? children(node).find((part) => part.isNamed) : undefined;
      if (inner?.type === "legacy_index" && /^\.\d+$/.test(this.text(inner))) {
        const key: Expr = {
          kind: "number",
          text: this.text(inner).slice(1),
          start: inner.startIndex + 1,
          end: inner.endIndex,
        };
        return { kind: "access", target, key: { kind: "index", expr: key }, ...at };
      }
      const keyNode = inner?.type === "new_index" ? children(inner).find((part) => part.isNamed) : undefined;
      if (keyNode?.type === "expression")
        return {
          kind: "access",
          target,
          key: { kind: "index", expr: this.expression(keyNode, depth + 1) },
          ...at,
        };
    }
    const what = target.kind === "dynamic" ? target.what : node.type === "splat" ? "a splat expression" : "";
    return {
      kind: "dynamic",
      what: what || `${words(node.type)} expression`,
      parts: [target, ...this.operands(node, depth)],
      ...at,
    };
  }

  private term(node: SyntaxNode, depth: number): Expr {
    const first = children(node).find((part) => part.isNamed);
    switch (node.type) {
      case "expression":
        return this.expression(node, depth + 1);
      case "literal_value":
        return first ? this.literal(first, node) : this.dynamic(node, "an empty literal", depth);
      case "template_expr":
        return first ? this.template(first, depth) : this.dynamic(node, "an empty template", depth);
      case "collection_value":
        return first ? this.collection(first, depth) : this.dynamic(node, "an empty collection", depth);
      case "variable_expr":
        return { kind: "variable", name: this.text(node), ...span(node) };
      case "function_call":
        return this.call(node, depth);
      case "for_expr":
        return this.dynamic(node, "a for expression", depth);
      case "conditional":
        return this.dynamic(node, "a conditional expression", depth);
      case "operation":
      case "binary_operation":
      case "unary_operation":
        return this.dynamic(node, "an operation", depth);
      default:
        return this.dynamic(node, words(node.type), depth);
    }
  }

  /** An expression filterc does not evaluate, with the expressions inside it read (a filter may sit in one). */
  private dynamic(node: SyntaxNode, what: string, depth: number): Expr {
    return { kind: "dynamic", what, parts: this.operands(node, depth), ...span(node) };
  }

  /**
   * The expressions inside a node: each term with its steps, read, and what lies between them
   * searched in turn. Operations and the nodes between terms are walked with a list, not by
   * recursion, so that a chain of a thousand `+` is one level deep, not a thousand.
   */
  private operands(node: SyntaxNode, depth: number): Expr[] {
    const found: Expr[] = [];
    const pending: SyntaxNode[] = [node];
    for (let next = pending.shift(); next; next = pending.shift()) {
      const named = children(next).filter((part) => part.isNamed);
      for (let i = 0; i < named.length; i++) {
        const part = named[i]!;
        if (OPERATIONS.has(part.type) || !TERMS.has(part.type)) {
          pending.push(part);
          continue;
        }
        let end = i + 1;
        while (end < named.length && STEPS.has(named[end]!.type)) end++;
        const head = this.term(part, depth + 1);
        found.push(this.steps(head, named.slice(i + 1, end), part, depth + 1));
        i = end - 1;
      }
    }
    return found;
  }

  private literal(node: SyntaxNode, whole: SyntaxNode): Expr {
    const at = span(node);
    switch (node.type) {
      case "numeric_lit":
        return { kind: "number", text: this.text(node), ...at };
      case "bool_lit":
        return { kind: "bool", value: this.text(node) === "true", ...at };
      case "null_lit":
        return { kind: "null", ...at };
      case "string_lit": {
        const value = this.stringValue(node);
        return value
          ? { kind: "string", value, ...at }
          : { kind: "dynamic", what: "an invalid string", parts: [], ...at };
      }
      default:
        return { kind: "dynamic", what: words(node.type), parts: [], ...span(whole) };
    }
  }

  /** A quoted string without interpolation, read through its escapes; undefined (reported) when invalid. */
  private stringValue(node: SyntaxNode): MappedText | undefined {
    const parts = children(node);
    const open = parts[0];
    const close = parts[parts.length - 1];
    if (parts.length < 2 || open?.type !== "quoted_template_start" || close?.type !== "quoted_template_end")
      return undefined;
    const decoded = decodeQuoted(this.source, open.endIndex, close.startIndex);
    if (decoded instanceof MappedText)
      return decoded.endAt({ file: this.source, start: close.startIndex, end: close.endIndex });
    this.stringProblem(decoded);
    return undefined;
  }

  private template(node: SyntaxNode, depth: number): Expr {
    if (depth >= this.maxDepth) throw new TooDeep(node.startIndex);
    const at = span(node);
    const parts = children(node);
    const heredoc = node.type === "heredoc_template";
    const bounds = heredoc ? this.heredocBounds(parts) : quotedBounds(parts);
    if (!bounds) return this.dynamic(node, words(node.type), depth);
    const { contentStart, contentEnd, flush } = bounds;
    const inner = parts.filter(
      (part) => part.type === "template_interpolation" || part.type === "template_directive",
    );
    if (inner.length === 0) {
      const value = heredoc
        ? heredocValue(this.source, contentStart, contentEnd, flush)
        : decodeQuoted(this.source, contentStart, contentEnd);
      if (!(value instanceof MappedText)) {
        this.stringProblem(value);
        return { kind: "dynamic", what: "an invalid string", parts: [], ...at };
      }
      return { kind: "string", value, ...at };
    }
    if (flush) return this.dynamic(node, "an indented heredoc with interpolation", depth);
    const result: TemplatePart[] = [];
    let cursor = contentStart;
    const text = (to: number) => {
      if (to <= cursor) return;
      const value = heredoc
        ? heredocValue(this.source, cursor, to, false)
        : decodeQuoted(this.source, cursor, to);
      if (value instanceof MappedText) result.push({ kind: "text", value });
      else this.stringProblem(value);
    };
    for (const part of inner) {
      text(part.startIndex);
      const content = children(part);
      const expression = content.find((child) => child.type === "expression");
      if (
        part.type === "template_interpolation" &&
        expression &&
        !content.some((c) => c.type === "strip_marker")
      )
        result.push({ kind: "interpolation", expr: this.expression(expression, depth + 1) });
      else result.push({ kind: "directive", parts: this.operands(part, depth + 1), ...span(part) });
      cursor = part.endIndex;
    }
    text(contentEnd);
    return { kind: "template", parts: result, ...at };
  }

  /** Where a heredoc's text runs: from the line after `<<MARKER` to the line of the closing marker. */
  private heredocBounds(parts: SyntaxNode[]) {
    const start = parts[0];
    const marker = parts[1];
    const closing = parts[parts.length - 1];
    if (
      parts.length < 3 ||
      start?.type !== "heredoc_start" ||
      marker?.type !== "heredoc_identifier" ||
      closing?.type !== "heredoc_identifier"
    )
      return undefined;
    const newline = this.source.text.indexOf("\n", marker.endIndex);
    const contentStart = newline === -1 ? marker.endIndex : newline + 1;
    const contentEnd = Math.max(contentStart, this.source.text.lastIndexOf("\n", closing.startIndex - 1) + 1);
    return { contentStart, contentEnd, flush: this.text(start) === "<<-" };
  }

  private collection(node: SyntaxNode, depth: number): Expr {
    if (depth >= this.maxDepth) throw new TooDeep(node.startIndex);
    const at = span(node);
    const parts = children(node);
    if (node.type === "tuple") {
      const elements = parts
        .filter((part) => part.type === "expression")
        .map((part) => this.expression(part, depth + 1));
      return { kind: "tuple", elements, ...at };
    }
    if (node.type !== "object") return this.dynamic(node, words(node.type), depth);
    const items: ObjectItem[] = [];
    for (const part of parts) {
      const item = part.type === "object_elem" ? this.objectItem(part, depth) : undefined;
      if (item) items.push(item);
    }
    return { kind: "object", items, ...at };
  }

  private objectItem(node: SyntaxNode, depth: number): ObjectItem | undefined {
    const expressions = children(node).filter((part) => part.type === "expression");
    const keyNode = expressions[0];
    const valueNode = expressions[1];
    if (!keyNode || !valueNode) return undefined;
    const value = this.expression(valueNode, depth + 1);
    const keyParts = children(keyNode);
    const at = { start: node.startIndex, end: node.endIndex };
    const only = keyParts.length === 1 ? keyParts[0]! : undefined;
    if (only?.type === "variable_expr") {
      const name = new MappedText({ file: this.source, start: only.endIndex, end: only.endIndex });
      for (let i = 0; i < this.text(only).length; i++)
        name.append(
          this.text(only)[i]!,
          { file: this.source, start: only.startIndex + i, end: only.startIndex + i + 1 },
          "syntax",
        );
      return { key: { kind: "name", name, span: span(only) }, value, ...at };
    }
    const key = this.expression(keyNode, depth + 1);
    if (key.kind === "string")
      return { key: { kind: "name", name: key.value, span: span(keyNode) }, value, ...at };
    return { key: { kind: "expression", expr: key }, value, ...at };
  }

  private call(node: SyntaxNode, depth: number): Expr {
    if (depth >= this.maxDepth) throw new TooDeep(node.startIndex);
    const parts = children(node);
    const name = parts.find((part) => part.type === "identifier");
    if (!name) return this.dynamic(node, "a function call", depth);
    const argumentsNode = parts.find((part) => part.type === "function_arguments");
    const argumentParts = argumentsNode ? children(argumentsNode) : [];
    return {
      kind: "call",
      name: this.text(name),
      args: argumentParts
        .filter((part) => part.type === "expression")
        .map((part) => this.expression(part, depth + 1)),
      expandsLast: argumentParts.some((part) => part.type === "ellipsis"),
      ...span(node),
    };
  }

  /** A node's text, from the file (the grammar's input differs in bare exponents). */
  private text(node: SyntaxNode): string {
    return this.source.text.slice(node.startIndex, node.endIndex);
  }

  private line(offset: number): number {
    return this.source.lines.positionAt(offset).line;
  }

  private stringProblem(problem: StringProblem): void {
    this.problemAt(problem.start, problem.end, problem.message);
  }

  private problem(node: SyntaxNode, message: string): void {
    this.problemAt(node.startIndex, node.endIndex, message);
  }

  private problemAt(start: number, end: number, message: string): void {
    this.problems.push(invalid(this.source, start, end, message));
  }
}

/** Where a quoted template's text runs: between its quotes. */
function quotedBounds(parts: SyntaxNode[]) {
  const open = parts[0];
  const close = parts[parts.length - 1];
  if (parts.length < 2 || open?.type !== "quoted_template_start" || close?.type !== "quoted_template_end")
    return undefined;
  return { contentStart: open.endIndex, contentEnd: close.startIndex, flush: false };
}

/** A node's children without comments and the `,` between elements. */
function children(node: SyntaxNode): SyntaxNode[] {
  return node.children.filter(
    (child): child is SyntaxNode => child !== null && child.type !== "comment" && child.type !== ",",
  );
}

function span(node: SyntaxNode): Span {
  return { start: node.startIndex, end: node.endIndex };
}

/** A node kind in words: `for_tuple_expr` as "for tuple expr". */
const words = (type: string) => type.replaceAll("_", " ");
