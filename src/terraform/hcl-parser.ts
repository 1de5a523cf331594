import { readFile } from "node:fs/promises";
import type { Node, Parser, Tree } from "web-tree-sitter";
import { type Diagnostic, diagnose } from "../diagnostics/index.js";
import type { Body, HclFile } from "./hcl-ast.js";
import { invalid, Reader, type SyntaxNode, TooDeep } from "./hcl-reader.js";
import { decodeQuoted } from "./hcl-strings.js";
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
    const runtime = await import("web-tree-sitter");
    // Where the CLI's bundles share the runtime in a chunk, the chunk exports its CommonJS form as
    // its default only (its exports are assigned at run time, where esbuild cannot list them).
    const { Parser, Language } =
      "Parser" in runtime ? runtime : (runtime as unknown as { default: typeof runtime }).default;
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

/**
 * Parses a file of HCL native syntax (a `.tf` or `.tfvars` file). Syntax errors are diagnostics
 * (E0900) at their place, with HCL's own rules on top of the grammar's: each argument and block on
 * its own line, one-line blocks holding one argument, strings on one line with known escapes. A
 * file with errors comes back with an empty body: nothing in it is trusted.
 */
export async function parseHcl(source: SourceFile, maxDepth = DEFAULT_MAX_HCL_DEPTH): Promise<HclFile> {
  const parser = await hclParser();
  const tree = parser.parse(withoutBareExponents(source.text));
  if (!tree) throw new Error("the HCL parser stopped");
  try {
    const root = tree.rootNode;
    const errors = root.hasError ? syntaxErrors(source, root) : [];
    if (errors.length > 0) return { source, body: { items: [] }, diagnostics: errors };
    const reader = new Reader(source, maxDepth);
    let body: Body;
    try {
      body = reader.file(plainTree(tree));
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

/**
 * The tree as plain objects, comments left out, made in one pass of a cursor: reading a node's
 * children through the WebAssembly runtime costs more than parsing, and the reader asks often.
 */
function plainTree(tree: Tree): SyntaxNode {
  const cursor = tree.walk();
  try {
    const node = (): SyntaxNode & { children: SyntaxNode[] } => ({
      type: cursor.nodeType,
      isNamed: cursor.nodeIsNamed,
      startIndex: cursor.startIndex,
      endIndex: cursor.endIndex,
      children: [],
    });
    const root = node();
    // The plain node at the cursor and its ancestors.
    const stack = [root];
    for (;;) {
      if (!cursor.gotoFirstChild())
        for (;;) {
          stack.pop();
          if (cursor.gotoNextSibling()) break;
          if (!cursor.gotoParent()) return root;
        }
      const child = node();
      if (child.type !== "comment") stack[stack.length - 1]!.children.push(child);
      stack.push(child);
    }
  } finally {
    cursor.delete();
  }
}

/** A number with an exponent and no fraction (`1e3`, `2E-2`), not inside a name. */
const BARE_EXPONENT = /(?<![\w.])(?<![\w-]-)(\d+)([eE][-+]?)(?=\d)/g;

/**
 * The text as the grammar is given it: HCL takes `1e3`, the grammar only `1.0e3`, so each bare
 * exponent is written as a fraction of the same length (`1.3`, `2.02`) for the parse alone. The
 * reader takes every value from the file's own text, so nothing else sees the change; in a
 * string or a comment the change is of characters the grammar does not look at.
 */
function withoutBareExponents(text: string): string {
  return text.replace(
    BARE_EXPONENT,
    (_, digits: string, mark: string) => `${digits}.${"0".repeat(mark.length - 1)}`,
  );
}

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
