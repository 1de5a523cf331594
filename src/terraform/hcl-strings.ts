import { MappedText } from "./mapped-text.js";
import type { SourceFile } from "./source-file.js";

/** A problem in how a string is written, at its place in the file. */
export interface StringProblem {
  message: string;
  start: number;
  end: number;
}

const simpleEscapes: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };

/**
 * The value of the text of a quoted string from `start` to `end` (between its quotes, or one
 * literal stretch between interpolations), read as HCL reads it: `\n \r \t \" \\`, `\uNNNN`,
 * `\UNNNNNNNN`, and `$${` / `%%{` for a literal `${` / `%{`. Each character of the value is mapped to
 * the escape or character it is written as. A newline, or an escape HCL does not know, is a problem.
 */
export function decodeQuoted(file: SourceFile, start: number, end: number): MappedText | StringProblem {
  const text = file.text;
  const value = new MappedText({ file, start: end, end });
  let i = start;
  while (i < end) {
    const c = text[i]!;
    if (c === "\n" || c === "\r")
      return {
        message: "a quoted string cannot span lines; write \\n, or use a heredoc (<<EOT)",
        start: i,
        end: i + 1,
      };
    if ((c === "$" || c === "%") && text[i + 1] === c && text[i + 2] === "{") {
      value
        .append(c, { file, start: i, end: i + 2 }, "quoted")
        .append("{", { file, start: i + 2, end: i + 3 }, "quoted");
      i += 3;
      continue;
    }
    if (c !== "\\") {
      // A surrogate pair stays together, mapped to both of its units.
      const width = isHighSurrogate(text.charCodeAt(i)) && i + 1 < end ? 2 : 1;
      value.append(text.slice(i, i + width), { file, start: i, end: i + width }, "quoted");
      i += width;
      continue;
    }
    const next = text[i + 1] ?? "";
    const simple = simpleEscapes[next];
    if (simple !== undefined) {
      value.append(simple, { file, start: i, end: i + 2 }, "quoted");
      i += 2;
      continue;
    }
    const digits = next === "u" ? 4 : next === "U" ? 8 : 0;
    const hex = text.slice(i + 2, i + 2 + digits);
    const code = Number.parseInt(hex, 16);
    if (digits === 0 || hex.length < digits || !/^[0-9A-Fa-f]+$/.test(hex) || code > 0x10ffff) {
      const shown = text.slice(i, next === "" ? i + 1 : i + 2 + (digits ? Math.min(hex.length, digits) : 0));
      return {
        message: `invalid escape \`${shown}\` in a string; HCL takes \\n \\r \\t \\" \\\\ \\uNNNN \\UNNNNNNNN, and $\${ or %%{ for a literal \${ or %{`,
        start: i,
        end: i + shown.length,
      };
    }
    value.append(String.fromCodePoint(code), { file, start: i, end: i + 2 + digits }, "quoted");
    i += 2 + digits;
  }
  return value;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** HCL's white space at the start of a heredoc line (Go's unicode.IsSpace, less the line ends). */
const LEADING_SPACE = /^[\t\v\f \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*/u;

/**
 * The value of a heredoc without interpolation whose lines run from `start` (after the newline of
 * `<<EOT`) to `end` (the start of the line of the closing marker). `<<-` (`flush`) removes from
 * each line as many leading spaces as the least indented line has, as HCL does: lines of only
 * spaces are not counted, nor changed; each space character counts one (a tab, an em space).
 * `$${` and `%%{` stand for a literal `${` and `%{`.
 */
export function heredocValue(file: SourceFile, start: number, end: number, flush: boolean): MappedText {
  const text = file.text;
  const lines: { start: number; end: number; indent: number; blank: boolean }[] = [];
  for (let at = start; at < end; ) {
    const newline = text.indexOf("\n", at);
    const lineEnd = newline === -1 || newline >= end ? end : newline + 1;
    const line = text.slice(at, lineEnd);
    const spaces = LEADING_SPACE.exec(line)![0];
    const blank = line.slice(spaces.length).replace(/\r?\n$/, "") === "" && line.endsWith("\n");
    lines.push({ start: at, end: lineEnd, indent: spaces.length, blank });
    at = lineEnd;
  }
  let strip = 0;
  if (flush) {
    const counted = lines.filter((line) => !line.blank);
    strip =
      counted.length === 0
        ? 0
        : Math.min(...counted.map((line) => codePoints(text, line.start, line.indent)));
  }
  const value = new MappedText({ file, start: end, end });
  for (const line of lines) {
    let at = line.start;
    if (!line.blank)
      for (let removed = 0; removed < strip; removed++) at += text.codePointAt(at)! > 0xffff ? 2 : 1;
    while (at < line.end) {
      const c = text[at]!;
      if ((c === "$" || c === "%") && text[at + 1] === c && text[at + 2] === "{") {
        value
          .append(c, { file, start: at, end: at + 2 }, "raw")
          .append("{", { file, start: at + 2, end: at + 3 }, "raw");
        at += 3;
        continue;
      }
      value.append(c, { file, start: at, end: at + 1 }, "raw");
      at++;
    }
  }
  return value;
}

/** How many code points the `units` UTF-16 units from `start` hold. */
function codePoints(text: string, start: number, units: number): number {
  let count = 0;
  for (let at = start; at < start + units; at += text.codePointAt(at)! > 0xffff ? 2 : 1) count++;
  return count;
}

/** Text as an HCL quoted string writes it, without the quotes. */
export function quotedHcl(text: string): string {
  return text
    .replace(/[\\"]/g, (c) => `\\${c}`)
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r")
    .replace(/\t/g, "\\t")
    .replace(/([$%])\{/g, "$1$1{");
}

/** Text as a heredoc writes it: only `${` and `%{` are escaped. */
export function heredocHcl(text: string): string {
  return text.replace(/([$%])\{/g, "$1$1{");
}
