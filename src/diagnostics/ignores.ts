/**
 * `filterc-ignore` comments: `# filterc-ignore W0120, W0105: the reason` silences those codes where
 * the comment applies (in filter source, the next line that holds code; in a Terraform file, the
 * argument or block after it). This module reads one comment's text; each front end finds its
 * comments and says where each applies, and `tuneDiagnostics` silences and reports with them.
 */
import { diagnose, type Suggestion } from "./diagnostic.js";
import type { IgnoreComment } from "./ignore-comment.js";
import { whyNotTunable } from "./kinds.js";
import type { LineIndex } from "./range.js";
import { closestMatch } from "./suggest.js";
import { severityOfCode, TUNABLE_CODES } from "./tuning.js";

/** The word that starts an ignore, after the comment's marker and blanks. */
const KEYWORD = /^[ \t]*filterc-ignore(?![A-Za-z0-9_])/;
const CODE = /^[A-Za-z0-9_]+/;

/** Whether a comment's text (after its marker) is a `filterc-ignore`: a cheap test before reading it. */
export const isIgnoreText = (text: string): boolean => KEYWORD.test(text);

/**
 * Reads the comment `source[start, end)` whose text (after `#` or `//`) begins at `textStart`, or
 * undefined when it is no `filterc-ignore`. `applies` is what it silences (undefined: nothing,
 * such as a comment at the end of the file); a comment after code on its line is not read.
 */
export function readIgnore(
  source: string,
  lines: LineIndex,
  comment: { start: number; end: number; textStart: number },
  applies: { start: number; end: number } | undefined,
): IgnoreComment | undefined {
  const keyword = KEYWORD.exec(source.slice(comment.textStart, comment.end));
  if (!keyword) return undefined;
  const range = lines.rangeOf(comment.start, comment.end);
  const lineNumber = range.start.line;
  const lineStart = lines.lineStart(lineNumber);
  const line = lines.rangeOf(lineStart, lines.lineStart(lineNumber + 1));
  const ignore: IgnoreComment = { range, codes: [], applies, line, list: undefined, problems: [] };
  const notRead = (problem: string, suggestion?: Suggestion): IgnoreComment => {
    ignore.problems.push(diagnose("MalformedIgnore", range, { problem }, suggestion));
    return ignore;
  };
  if (source.slice(lineStart, comment.start).trim() !== "")
    return notRead("it follows code on its line; put it on a line of its own, before the line it silences");
  const afterKeyword = comment.textStart + keyword[0].length;
  let i = skipBlanks(source, afterKeyword, comment.end);
  if (i === afterKeyword && i < comment.end && source[i] !== ":")
    return notRead("a blank goes between `filterc-ignore` and its codes");
  const named: { code: string; start: number; end: number }[] = [];
  for (;;) {
    const code = CODE.exec(source.slice(i, comment.end))?.[0];
    if (code === undefined)
      return notRead(
        named.length === 0
          ? "it names no code; write `# filterc-ignore CODE: reason`"
          : "a code follows each `,`; write `# filterc-ignore CODE, CODE: reason`",
      );
    named.push({ code, start: i, end: i + code.length });
    i = skipBlanks(source, i + code.length, comment.end);
    if (source[i] !== ",") break;
    i = skipBlanks(source, i + 1, comment.end);
  }
  const last = named[named.length - 1]!;
  let reason = "";
  if (i < comment.end) {
    if (source[i] !== ":") {
      const at = lines.rangeOf(last.end, last.end);
      return notRead("a `:` goes between the codes and the reason", {
        message: "write `:` after the codes",
        range: at,
        replacement: ":",
      });
    }
    reason = source.slice(i + 1, comment.end).trim();
  }
  ignore.list = { written: named.map(({ code }) => code), range: lines.rangeOf(named[0]!.start, last.end) };
  for (const entry of named) {
    const codeRange = lines.rangeOf(entry.start, entry.end);
    const severity = severityOfCode(entry.code);
    if (severity === undefined) {
      const meant = closestMatch(entry.code, TUNABLE_CODES);
      const fix =
        meant === undefined
          ? undefined
          : { message: `replace with \`${meant}\``, range: codeRange, replacement: meant };
      ignore.problems.push(diagnose("IgnoreOfUnknownCode", codeRange, { code: entry.code, meant }, fix));
      continue;
    }
    const why = whyNotTunable(entry.code, severity);
    if (why !== undefined) {
      ignore.problems.push(diagnose("IgnoreOfError", codeRange, { code: entry.code, why }));
      continue;
    }
    ignore.codes.push({ code: entry.code, range: codeRange });
  }
  if (reason === "") ignore.problems.push(diagnose("IgnoreWithoutReason", range, {}));
  return ignore;
}

/**
 * The ignores of a source whose comments run from a marker to the end of their line (filter
 * source: `#`): each applies to the next line that holds code, past blank lines and other comments,
 * so that several ignores may stand one above the other.
 */
export function lineIgnores(
  source: string,
  lines: LineIndex,
  comments: readonly { start: number; end: number; textStart: number }[],
): IgnoreComment[] {
  const ignores: IgnoreComment[] = [];
  for (const comment of comments) {
    if (!isIgnoreText(source.slice(comment.textStart, comment.end))) continue;
    const ignore = readIgnore(source, lines, comment, nextCodeLine(lines, comment.end));
    if (ignore) ignores.push(ignore);
  }
  return ignores;
}

/** The first line after the one at `offset` that holds code (not blank, not only a `#` comment), as offsets. */
function nextCodeLine(lines: LineIndex, offset: number): { start: number; end: number } | undefined {
  for (let line = lines.positionAt(offset).line + 1; line <= lines.lineCount; line++) {
    const text = lines.lineText(line);
    const trimmed = text.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const start = lines.lineStart(line);
    return { start, end: start + text.length };
  }
  return undefined;
}

function skipBlanks(source: string, from: number, end: number): number {
  let i = from;
  while (i < end && (source[i] === " " || source[i] === "\t")) i++;
  return i;
}
