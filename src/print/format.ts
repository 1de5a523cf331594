import { type Diagnostic, hasErrors, optionDiagnostics } from "../diagnostics/index.js";
import {
  type Comment,
  type Comparison,
  type Expr,
  type FilterSource,
  type ListValue,
  notText,
  parse,
} from "../syntax/index.js";
import { type CommentPlacement, type PrintOptions, printWithComments } from "./print.js";

/** What `format` returns: the formatted text (null on syntax errors) and the syntax errors. */
export interface FormatResult {
  /** The canonically printed source, ending in a newline; null when the source has syntax errors. */
  text: string | null;
  /** The syntax errors (formatting needs no catalog, so names and types are not checked). */
  diagnostics: Diagnostic[];
}

/** Prints a source canonically, keeping its comments in place. Idempotent: formatting the result changes nothing. */
export function format(source: string, options: PrintOptions = {}): FormatResult {
  const invalidOptions = optionDiagnostics(options);
  if (typeof source !== "string")
    return { text: null, diagnostics: notText(source, invalidOptions).diagnostics };
  if (invalidOptions.length > 0) return { text: null, diagnostics: invalidOptions };
  const parsed = parse(source, { optionLabels: options.optionLabels });
  if (hasErrors(parsed.diagnostics)) return { text: null, diagnostics: parsed.diagnostics };
  const comments = attachComments(parsed.filter, source);
  const printed = printWithComments(parsed.filter.expr, comments, options);
  // The source's line ending (its first line break) is kept: a CRLF file stays CRLF.
  const lineEnd = /\r\n|\n|\r/.exec(source)?.[0] ?? "\n";
  const text = printed === "" ? "" : `${printed}\n`;
  return { text: lineEnd === "\n" ? text : text.replace(/\n/g, lineEnd), diagnostics: parsed.diagnostics };
}

/**
 * Decides where each comment goes, so that the printed source reads the same and prints the same
 * again: a comment after code on its line trails the comparison that starts before it (the first
 * such comment only: one line ends in one comment); any other comment goes on its own line before
 * the next comparison, or at the end when no comparison follows.
 */
function attachComments(filter: FilterSource, source: string): CommentPlacement {
  const comparisons = filter.expr ? comparisonsOf(filter.expr) : [];
  const placement: CommentPlacement = {
    leading: new Map(),
    trailing: new Map(),
    end: [],
    elements: new Map(),
  };
  for (const comment of filter.comments) {
    const offset = comment.range.start.offset;
    const lineStart =
      Math.max(source.lastIndexOf("\n", offset - 1), source.lastIndexOf("\r", offset - 1)) + 1;
    const afterCode = source.slice(lineStart, offset).trim() !== "";
    if (placeInList(comparisons, comment, afterCode, placement)) continue;
    const before = afterCode ? lastStartingBefore(comparisons, offset) : undefined;
    if (before && !placement.trailing.has(before)) {
      placement.trailing.set(before, comment);
      continue;
    }
    const next = comparisons.find((comparison) => comparison.range.start.offset > offset);
    if (next) push(placement.leading, next, comment);
    else placement.end.push(comment);
  }
  return placement;
}

/**
 * A comment inside a list (`"a.com", # prod`) stays with its element: after code, it trails the
 * element before it (the first element, right after `[`); on a line of its own, it leads the
 * element after it. One on its own line after the last element goes where other comments go.
 */
function placeInList(
  comparisons: Comparison[],
  comment: Comment,
  afterCode: boolean,
  placement: CommentPlacement,
): boolean {
  const offset = comment.range.start.offset;
  const list = comparisons.find(
    (comparison) =>
      comparison.value.kind === "list" &&
      comparison.value.range.start.offset < offset &&
      offset < comparison.value.range.end.offset,
  )?.value as ListValue | undefined;
  if (!list || list.elements.length === 0) return false;
  const before = list.elements.filter((element) => element.range.start.offset < offset).at(-1);
  const after = list.elements.find((element) => element.range.start.offset > offset);
  const element = afterCode ? (before ?? after) : after;
  if (!element) return false;
  const entry = placement.elements.get(element) ?? { leading: [] };
  if (afterCode && before && !entry.trailing) entry.trailing = comment;
  else entry.leading.push(comment);
  placement.elements.set(element, entry);
  return true;
}

function push(map: Map<Comparison, Comment[]>, key: Comparison, comment: Comment): void {
  const list = map.get(key);
  if (list) list.push(comment);
  else map.set(key, [comment]);
}

function lastStartingBefore(comparisons: Comparison[], offset: number): Comparison | undefined {
  let found: Comparison | undefined;
  for (const comparison of comparisons) {
    if (comparison.range.start.offset < offset) found = comparison;
    else break;
  }
  return found;
}

/** The comparisons in source order. */
function comparisonsOf(expr: Expr): Comparison[] {
  const found: Comparison[] = [];
  const visit = (node: Expr): void => {
    if (node.kind === "comparison") found.push(node);
    else if (node.kind === "not") visit(node.operand);
    else if (node.kind === "and" || node.kind === "or") for (const operand of node.operands) visit(operand);
  };
  visit(expr);
  return found;
}
