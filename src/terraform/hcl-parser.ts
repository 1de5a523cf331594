import { readFile } from "node:fs/promises";
import type { Node, Parser } from "web-tree-sitter";
import { type Diagnostic, diagnose } from "../diagnostics/index.js";
import type { Attribute, Block, Body, Expr, HclFile, ObjectItem, Span, TemplatePart } from "./hcl-ast.js";
import { decodeQuoted, heredocValue, type StringProblem } from "./hcl-strings.js";
import { MappedText } from "./mapped-text.js";
import { hclParserFiles } from "./parser-files.js";
import type { SourceFile } from "./source-file.js";

/** Deepest nesting of HCL values, calls, templates and blocks read (a deeper file is E0902). */
export const DEFAULT_MAX_HCL_DEPTH = 100;

/** Syntax errors reported for one file: past them a broken file mostly repeats itself. */
export const MAX_SYNTAX_ERRORS = 10;

let loaded: Promise<Parser> | undefined;

/**
 * The tree-sitter parser with the HCL grammar, loaded on first use: the WebAssembly runtime and
 * grammar are read only when a Terraform file is checked.
 */
function hclParser(): Promise<Parser> {
  loaded ??= (async () => {
    const files = hclParserFiles();
    const { Parser, Language } = await import("web-tree-sitter");
    await Parser.init({ wasmBinary: await readFile(files.runtime) } as object);
    const language = await Language.load(await readFile(files.grammar));
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })();
  loaded.catch(() => {
    loaded = undefined;
  });
  return loaded;
}

/** A nesting deeper than the limit, found while reading. */
class TooDeep extends Error {
  constructor(readonly at: number) {
    super("too deep");
  }
}

/**
 * Parses a file of HCL native syntax (a `.tf` or `.tfvars` file). Syntax errors are diagnostics
 * (E0900) at their place, with HCL's own rules on top of the grammar's: each argument and block on
 * its own line, one-line blocks holding one argument, strings on one line with known escapes. A
 * file with errors comes back with an empty body: nothing in it is trusted.
 */
export async function parseHcl(source: SourceFile, maxDepth = DEFAULT_MAX_HCL_DEPTH): Promise<HclFile> {
  const parser = await hclParser();
  const tree = parser.parse(source.text);
  if (!tree) throw new Error("the HCL parser stopped");
  try {
    const root = tree.rootNode;
    const errors = root.hasError ? syntaxErrors(source, root) : [];
    if (errors.length > 0) return { source, body: { items: [] }, diagnostics: errors };
    const reader = new Reader(source, maxDepth);
    let body: Body;
    try {
      body = reader.file(root);
    } catch (error) {
      if (!(error instanceof TooDeep)) throw error;
      const range = source.rangeOf(error.at, error.at + 1);
      return {
        source,
        body: { items: [] },
        diagnostics: [diagnose("HclTooDeep", range, { limit: maxDepth })],
      };
    }
    const diagnostics = reader.problems.slice(0, MAX_SYNTAX_ERRORS);
    return { source, body: diagnostics.length > 0 ? { items: [] } : body, diagnostics };
  } finally {
    tree.delete();
  }
}

const invalid = (source: SourceFile, start: number, end: number, problem: string): Diagnostic =>
  diagnose("HclSyntax", source.rangeOf(start, Math.max(end, start)), { problem });

/** The opening token each closing one answers, for "never closed" messages. */
const OPENERS: Record<string, { opener: string; shown: string }> = {
  block_end: { opener: "block_start", shown: "{" },
  object_end: { opener: "object_start", shown: "{" },
  tuple_end: { opener: "tuple_start", shown: "[" },
  ")": { opener: "(", shown: "(" },
  "]": { opener: "[", shown: "[" },
  template_interpolation_end: { opener: "template_interpolation_start", shown: "${" },
  template_directive_end: { opener: "template_directive_start", shown: "%{" },
};

/** The ERROR and MISSING nodes of a tree, as diagnostics in order (at most MAX_SYNTAX_ERRORS). */
function syntaxErrors(source: SourceFile, root: Node): Diagnostic[] {
  const found: Diagnostic[] = [];
  // Depth first, in order, without recursion (a tree may nest as deep as the file does).
  const pending: Node[] = [root];
  while (pending.length > 0 && found.length < MAX_SYNTAX_ERRORS) {
    const node = pending.pop()!;
    const problem = node.isMissing
      ? missing(source, node)
      : node.isError
        ? unexpected(source, node)
        : undefined;
    // One error a line: the parser's recovery from the first often trips again on the same line.
    if (problem && found[found.length - 1]?.range.start.line !== problem.range.start.line)
      found.push(problem);
    else if (!problem && node.hasError) pending.push(...node.children.reverse());
  }
  return found;
}

function missing(source: SourceFile, node: Node): Diagnostic {
  // A closing token may come back missing inside its named wrapper (`block_end` holding `}`).
  const wrapper = node.parent && OPENERS[node.parent.type] ? node.parent : undefined;
  const siblings = (wrapper ? wrapper.parent : node.parent)?.children ?? [];
  const sibling = (type: string) => siblings.find((other) => other.type === type && !other.isMissing);
  const closing = OPENERS[wrapper?.type ?? node.type];
  const opener = closing && sibling(closing.opener);
  if (closing && opener) {
    const { line, column } = source.lines.positionAt(opener.startIndex);
    return invalid(
      source,
      opener.startIndex,
      opener.endIndex,
      `the \`${closing.shown}\` at ${line}:${column} is never closed`,
    );
  }
  if (node.type === "quoted_template_end") {
    const start = sibling("quoted_template_start")?.startIndex ?? node.startIndex;
    return invalid(source, start, start + 1, 'unterminated string: it has no closing `"` on its line');
  }
  if (node.type === "heredoc_identifier") {
    const start = node.parent?.startIndex ?? node.startIndex;
    const marker = sibling("heredoc_identifier")?.text ?? "";
    return invalid(
      source,
      start,
      start + 2,
      `the heredoc is never closed: no line holds its marker \`${marker}\``,
    );
  }
  const shown = node.type.length <= 3 ? `\`${node.type}\`` : node.type.replaceAll("_", " ");
  return invalid(source, node.startIndex, node.startIndex + 1, `expected ${shown}`);
}

/** Nodes that may stand complete at the start of an ERROR node before the token the parser choked on. */
const COMPLETE = new Set(["expression", "attribute", "block", "body", "identifier", "comment"]);

function unexpected(source: SourceFile, node: Node): Diagnostic {
  const inString = ["string_lit", "quoted_template", "heredoc_template"].includes(node.parent?.type ?? "");
  if (inString && source.text[node.startIndex] === "\\") {
    const lineEnd = source.text.indexOf("\n", node.startIndex);
    const problem = decodeQuoted(source, node.startIndex, lineEnd === -1 ? source.text.length : lineEnd);
    if (!(problem instanceof MappedText)) return invalid(source, problem.start, problem.end, problem.message);
  }
  const token = node.children.find(
    (child) => !(child.isNamed && COMPLETE.has(child.type) && !child.hasError),
  );
  const start = token?.startIndex ?? node.startIndex;
  const text = source.text.slice(start, token?.endIndex ?? node.endIndex).trim();
  const shown =
    text === ""
      ? "end of file"
      : text.length > 20 || text.includes("\n")
        ? `\`${text.slice(0, 20).split("\n")[0]}…\``
        : `\`${text}\``;
  return invalid(source, start, Math.max(start + 1, token?.endIndex ?? start + 1), `unexpected ${shown}`);
}

/** Reads the tree of a file without errors into the AST, holding it to HCL's layout rules. */
class Reader {
  readonly problems: Diagnostic[] = [];

  constructor(
    private readonly source: SourceFile,
    private readonly maxDepth: number,
  ) {}

  file(root: Node): Body {
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

  private body(node: Node, depth: number): Body {
    const items = children(node).map((child) =>
      child.type === "block" ? this.block(child, depth) : this.attribute(child, depth),
    );
    return { items };
  }

  private attribute(node: Node, depth: number): Attribute {
    const [name, value] = children(node).filter((child) => child.type !== "=");
    return {
      kind: "attribute",
      name: name!.text,
      nameSpan: span(name!),
      value: this.expression(value!, depth),
      start: node.startIndex,
      end: node.endIndex,
    };
  }

  private block(node: Node, depth: number): Block {
    if (depth >= this.maxDepth) throw new TooDeep(node.startIndex);
    const parts = children(node);
    const type = parts[0]!;
    const open = parts.find((part) => part.type === "block_start")!;
    const close = parts.find((part) => part.type === "block_end")!;
    const labels = parts
      .slice(1, parts.indexOf(open))
      .map((label) => ({ value: this.label(label), span: span(label) }));
    const bodyNode = parts.find((part) => part.type === "body");
    const body = bodyNode ? this.body(bodyNode, depth + 1) : { items: [] };
    const block: Block = {
      kind: "block",
      type: type.text,
      typeSpan: span(type),
      labels,
      body,
      start: node.startIndex,
      end: node.endIndex,
    };
    if (this.line(open.startIndex) !== this.line(node.startIndex))
      this.problem(open, "a block's `{` goes on the line of its type and labels");
    const first = body.items[0];
    if (first && this.line(first.start) === this.line(open.startIndex)) this.oneLineLayout(body.items, close);
    else this.multilineLayout(body.items, close);
    return block;
  }

  private label(node: Node): string {
    if (node.type === "identifier") return node.text;
    const value = this.stringValue(node);
    return value?.text ?? "";
  }

  /** A block opened and closed on one line: `a { b = 1 }`. */
  private oneLineLayout(items: (Attribute | Block)[], close: Node): void {
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
  private multilineLayout(items: (Attribute | Block)[], close: Node | undefined): void {
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

  private expression(node: Node, depth: number): Expr {
    if (depth >= this.maxDepth) throw new TooDeep(node.startIndex);
    const parts = children(node);
    let index = 0;
    let expr: Expr;
    const head = parts[0]!;
    if (head.type === "(") {
      expr = this.expression(parts[1]!, depth + 1);
      index = 3;
    } else {
      expr = this.term(head, depth);
      index = 1;
    }
    for (; index < parts.length; index++) expr = this.step(expr, parts[index]!, node, depth);
    return expr;
  }

  /** `.name`, `[key]`, `.0` or a splat after `target`. */
  private step(target: Expr, node: Node, whole: Node, depth: number): Expr {
    const at = { start: whole.startIndex, end: node.endIndex };
    if (node.type === "get_attr")
      return {
        kind: "access",
        target,
        key: { kind: "attribute", name: children(node).find((part) => part.type === "identifier")!.text },
        ...at,
      };
    if (node.type === "index") {
      const inner = children(node)[0]!;
      if (inner.type === "legacy_index") {
        const digits = inner.text.slice(1);
        const key: Expr = { kind: "number", text: digits, start: inner.startIndex + 1, end: inner.endIndex };
        return { kind: "access", target, key: { kind: "index", expr: key }, ...at };
      }
      const keyNode = children(inner)[0]!;
      return {
        kind: "access",
        target,
        key: { kind: "index", expr: this.expression(keyNode, depth + 1) },
        ...at,
      };
    }
    return { kind: "dynamic", what: "a splat expression", ...at };
  }

  private term(node: Node, depth: number): Expr {
    const at = span(node);
    switch (node.type) {
      case "literal_value":
        return this.literal(children(node)[0]!);
      case "template_expr":
        return this.template(children(node)[0]!, depth);
      case "collection_value":
        return this.collection(children(node)[0]!, depth);
      case "variable_expr":
        return { kind: "variable", name: node.text, ...at };
      case "function_call":
        return this.call(node, depth);
      case "for_expr":
        return { kind: "dynamic", what: "a for expression", ...at };
      case "conditional":
        return { kind: "dynamic", what: "a conditional expression", ...at };
      case "operation":
        return { kind: "dynamic", what: "an operation", ...at };
      default:
        return { kind: "dynamic", what: node.type.replaceAll("_", " "), ...at };
    }
  }

  private literal(node: Node): Expr {
    const at = span(node);
    switch (node.type) {
      case "numeric_lit":
        return { kind: "number", text: node.text, ...at };
      case "bool_lit":
        return { kind: "bool", value: node.text === "true", ...at };
      case "null_lit":
        return { kind: "null", ...at };
      default: {
        const value = this.stringValue(node);
        return value
          ? { kind: "string", value, ...at }
          : { kind: "dynamic", what: "an invalid string", ...at };
      }
    }
  }

  /** A quoted string without interpolation, read through its escapes; undefined (reported) when invalid. */
  private stringValue(node: Node): MappedText | undefined {
    const [open, , close] = [node.child(0), undefined, node.child(node.childCount - 1)];
    const decoded = decodeQuoted(this.source, open!.endIndex, close!.startIndex);
    if (decoded instanceof MappedText)
      return decoded.endAt({ file: this.source, start: close!.startIndex, end: close!.endIndex });
    this.stringProblem(decoded);
    return undefined;
  }

  private template(node: Node, depth: number): Expr {
    if (depth >= this.maxDepth) throw new TooDeep(node.startIndex);
    const at = span(node);
    const parts = children(node);
    const heredoc = node.type === "heredoc_template";
    let contentStart: number;
    let contentEnd: number;
    let flush = false;
    if (heredoc) {
      flush = parts[0]!.text === "<<-";
      const marker = parts[1]!;
      const closing = parts[parts.length - 1]!;
      const newline = this.source.text.indexOf("\n", marker.endIndex);
      contentStart = newline === -1 ? marker.endIndex : newline + 1;
      contentEnd = this.source.text.lastIndexOf("\n", closing.startIndex - 1) + 1;
      if (contentEnd < contentStart) contentEnd = contentStart;
    } else {
      contentStart = parts[0]!.endIndex;
      contentEnd = parts[parts.length - 1]!.startIndex;
    }
    const inner = parts.filter(
      (part) => part.type === "template_interpolation" || part.type === "template_directive",
    );
    if (inner.length === 0) {
      const value = heredoc
        ? heredocValue(this.source, contentStart, contentEnd, flush)
        : decodeQuoted(this.source, contentStart, contentEnd);
      if (!(value instanceof MappedText)) {
        this.stringProblem(value);
        return { kind: "dynamic", what: "an invalid string", ...at };
      }
      return { kind: "string", value, ...at };
    }
    if (flush) return { kind: "dynamic", what: "an indented heredoc with interpolation", ...at };
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
      else result.push({ kind: "directive", ...span(part) });
      cursor = part.endIndex;
    }
    text(contentEnd);
    return { kind: "template", parts: result, ...at };
  }

  private collection(node: Node, depth: number): Expr {
    if (depth >= this.maxDepth) throw new TooDeep(node.startIndex);
    const at = span(node);
    const parts = children(node);
    if (node.type === "tuple") {
      const elements = parts
        .filter((part) => part.type === "expression")
        .map((part) => this.expression(part, depth + 1));
      return { kind: "tuple", elements, ...at };
    }
    const items = parts
      .filter((part) => part.type === "object_elem")
      .map((part) => this.objectItem(part, depth));
    return { kind: "object", items, ...at };
  }

  private objectItem(node: Node, depth: number): ObjectItem {
    const keyNode = node.childForFieldName("key")!;
    const valueNode = node.childForFieldName("val")!;
    const value = this.expression(valueNode, depth + 1);
    const keyParts = children(keyNode);
    const at = { start: node.startIndex, end: node.endIndex };
    const only = keyParts.length === 1 ? keyParts[0]! : undefined;
    if (only?.type === "variable_expr") {
      const name = new MappedText({ file: this.source, start: only.endIndex, end: only.endIndex });
      for (let i = 0; i < only.text.length; i++)
        name.append(
          only.text[i]!,
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

  private call(node: Node, depth: number): Expr {
    if (depth >= this.maxDepth) throw new TooDeep(node.startIndex);
    const parts = children(node);
    const argumentsNode = parts.find((part) => part.type === "function_arguments");
    const argumentParts = argumentsNode ? children(argumentsNode) : [];
    return {
      kind: "call",
      name: parts[0]!.text,
      args: argumentParts
        .filter((part) => part.type === "expression")
        .map((part) => this.expression(part, depth + 1)),
      expandsLast: argumentParts.some((part) => part.type === "ellipsis"),
      ...span(node),
    };
  }

  private line(offset: number): number {
    return this.source.lines.positionAt(offset).line;
  }

  private stringProblem(problem: StringProblem): void {
    this.problemAt(problem.start, problem.end, problem.message);
  }

  private problem(node: Node, message: string): void {
    this.problemAt(node.startIndex, node.endIndex, message);
  }

  private problemAt(start: number, end: number, message: string): void {
    this.problems.push(invalid(this.source, start, end, message));
  }
}

/** A node's children without comments and the `,` between elements. */
function children(node: Node): Node[] {
  return node.children.filter((child) => child.type !== "comment" && child.type !== ",");
}

function span(node: Node): Span {
  return { start: node.startIndex, end: node.endIndex };
}
