import type { Catalog } from "../catalog/index.js";
import { closestMatch } from "../diagnostics/index.js";

/** A Go text/template action's body as Logpush takes it: a field (`.Name`) or a string constant. */
const FIELD_ACTION = /^\.([A-Za-z_][A-Za-z0-9_]*)$/;
/** The blanks Go's template lexer knows (spaceChars): trim markers and actions skip these only. */
const BLANKS = " \t\r\n";

/** A piece of a record template: text written as it is (constants included), or a field's value. */
export type TemplatePart = { text: string } | { field: string; action: string; offset: number };

/** A problem of a template, at the offset of the action (or token) it is about. */
interface TemplateProblem {
  offset: number;
  message: string;
}

interface ParsedRecordTemplate {
  parts: TemplatePart[];
  /** What Go's parser or the push cannot take, in the order of the template. */
  problems: TemplateProblem[];
}

export interface RecordTemplateCheck {
  /** What is wrong, each naming the action and its offset. */
  problems: string[];
  /** The fields the template reads, in order, each once. */
  fields: string[];
}

const isBlank = (char: string | undefined) => char !== undefined && char !== "" && BLANKS.includes(char);

function trimBlanksEnd(text: string): string {
  let end = text.length;
  while (end > 0 && isBlank(text[end - 1])) end--;
  return text.slice(0, end);
}

function trimBlanksStart(text: string): string {
  let start = 0;
  while (start < text.length && isBlank(text[start])) start++;
  return text.slice(start);
}

/** A right delimiter at `at` (`}}`, or ` -}}` that also trims the blanks after it). */
function rightDelimiter(template: string, at: number): { end: number; trim: boolean } | undefined {
  if (isBlank(template[at]) && template[at + 1] === "-" && template.startsWith("}}", at + 2))
    return { end: at + 4, trim: true };
  if (template.startsWith("}}", at)) return { end: at + 2, trim: false };
  return undefined;
}

/** The end of a quoted token (`"…"` or `'…'`) opened at `at`, as Go's lexer finds it; undefined when unterminated. */
function quotedEnd(template: string, at: number, quote: string): number | undefined {
  for (let i = at + 1; i < template.length; i++) {
    const char = template[i];
    if (char === "\\") {
      if (i + 1 >= template.length || template[i + 1] === "\n") return undefined;
      i++;
    } else if (char === "\n") return undefined;
    else if (char === quote) return i + 1;
  }
  return undefined;
}

const HEX_DIGITS: Record<string, number> = { x: 2, u: 4, U: 8 };
const SIMPLE_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  '"': '"',
};
const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The value of a Go interpreted string literal (`"…"`, as strconv.Unquote reads it), or why it is
 * none. `\xNN` and octal `\NNN` give bytes: a run of them must be UTF-8 text, as the push writes text.
 */
function goString(literal: string): { value: string } | { problem: string } {
  let value = "";
  let bytes: number[] = [];
  const flushBytes = (): string | undefined => {
    if (bytes.length === 0) return undefined;
    const written = bytes.map((byte) => `\\x${byte.toString(16).padStart(2, "0")}`).join("");
    try {
      value += utf8.decode(new Uint8Array(bytes));
    } catch {
      return `its bytes ${written} are not UTF-8 text`;
    }
    bytes = [];
    return undefined;
  };
  const body = literal.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const char = body[i]!;
    if (char !== "\\") {
      const problem = flushBytes();
      if (problem) return { problem };
      value += char;
      continue;
    }
    const kind = body[i + 1]!;
    const written = `\\${kind}`;
    i++;
    const digits = HEX_DIGITS[kind];
    if (digits !== undefined) {
      const hex = body.slice(i + 1, i + 1 + digits);
      if (!new RegExp(`^[0-9A-Fa-f]{${digits}}$`).test(hex))
        return { problem: `${written} takes ${digits} hex digits` };
      i += digits;
      const code = Number.parseInt(hex, 16);
      if (kind === "x") {
        bytes.push(code);
        continue;
      }
      if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
        return { problem: `${written}${hex} is not a Unicode character` };
      const problem = flushBytes();
      if (problem) return { problem };
      value += String.fromCodePoint(code);
    } else if (kind >= "0" && kind <= "7") {
      const octal = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(octal)) return { problem: `an octal escape takes 3 digits, as in \\101` };
      const code = Number.parseInt(octal, 8);
      if (code > 0xff) return { problem: `\\${octal} is more than a byte` };
      bytes.push(code);
      i += 2;
    } else {
      const simple = SIMPLE_ESCAPES[kind];
      if (simple === undefined) return { problem: `${written} is not an escape of a Go string` };
      const problem = flushBytes();
      if (problem) return { problem };
      value += simple;
    }
  }
  const problem = flushBytes();
  return problem ? { problem } : { value };
}

interface Action {
  /** Where the action ends, its right delimiter included. */
  end: number;
  /** `-}}`: the blanks after the action are trimmed. */
  trimAfter: boolean;
  part?: TemplatePart;
  problem?: string;
}

/**
 * Reads the action whose `{{` is at `open`, as Go's lexer does: a comment right after the delimiter
 * (`{{/* … *\/}}`), or tokens (strings may hold `}}`) up to the right delimiter. A problem without
 * an end: the rest of the template cannot be read (Go stops there too).
 */
function readAction(template: string, open: number, trimBefore: boolean): Action | { problem: string } {
  let at = open + 2 + (trimBefore ? 2 : 0);
  if (template.startsWith("/*", at)) {
    const close = template.indexOf("*/", at + 2);
    if (close === -1) return { problem: `the comment opened at offset ${open} is not closed with */` };
    const delimiter = rightDelimiter(template, close + 2);
    if (!delimiter)
      return { problem: `the comment opened at offset ${open} does not end at }}: write {{/* … */}}` };
    return { end: delimiter.end, trimAfter: delimiter.trim };
  }
  const tokens: { text: string; offset: number }[] = [];
  for (;;) {
    const delimiter = rightDelimiter(template, at);
    if (delimiter) {
      const action = template.slice(open, delimiter.end);
      return { end: delimiter.end, trimAfter: delimiter.trim, ...evaluate(action, open, tokens) };
    }
    const char = template[at];
    if (char === undefined) return { problem: `the action opened at offset ${open} is not closed with }}` };
    if (isBlank(char)) {
      at++;
      continue;
    }
    let end: number | undefined;
    if (char === '"' || char === "'") {
      end = quotedEnd(template, at, char);
      if (end === undefined)
        return {
          problem: `the ${char === '"' ? "string" : "character constant"} at offset ${at} is not closed on its line`,
        };
    } else if (char === "`") {
      const close = template.indexOf("`", at + 1);
      if (close === -1) return { problem: `the raw string at offset ${at} is not closed with \`` };
      end = close + 1;
    } else {
      end = at + 1;
      while (end < template.length && !isBlank(template[end]) && !rightDelimiter(template, end)) {
        if ("\"'`".includes(template[end]!)) break;
        end++;
      }
    }
    tokens.push({ text: template.slice(at, end), offset: at });
    at = end;
  }
}

/** What an action of these tokens writes: a field, a string constant's text, or a problem. */
function evaluate(
  action: string,
  open: number,
  tokens: readonly { text: string }[],
): { part?: TemplatePart; problem?: string } {
  const where = `${JSON.stringify(action)} at offset ${open}`;
  const only = tokens.length === 1 ? tokens[0]!.text : undefined;
  const field = only === undefined ? undefined : FIELD_ACTION.exec(only)?.[1];
  if (field !== undefined) return { part: { field, action, offset: open } };
  if (only?.startsWith('"')) {
    const read = goString(only);
    if ("problem" in read) return { problem: `${where} holds a string Go cannot write: ${read.problem}` };
    return { part: { text: read.value } };
  }
  // strconv.Unquote drops carriage returns from a raw string.
  if (only?.startsWith("`")) return { part: { text: only.slice(1, -1).replaceAll("\r", "") } };
  return { problem: `${where} is neither a field nor a constant` };
}

/**
 * Reads a `record_template` as Go's text/template reads it, for what Logpush takes (no functions):
 * text, and actions `{{ .Field }}`, `{{ "constant" }}` (Go string syntax: `\n`, `\x41`, `\101`,
 * `\u00e9`, raw `` `…` ``), comments `{{/* … *\/}}`, with trim markers `{{- ` and ` -}}` removing the
 * blanks (space, tab, CR, LF) beside them. Constants become text. After a problem that leaves the
 * end of its action unknown (an unclosed action, string or comment) nothing more is read.
 */
export function parseRecordTemplate(template: string): ParsedRecordTemplate {
  const parts: TemplatePart[] = [];
  const problems: TemplateProblem[] = [];
  const addText = (text: string) => {
    if (text === "") return;
    const last = parts.at(-1);
    if (last && "text" in last) last.text += text;
    else parts.push({ text });
  };
  let at = 0;
  let trimNext = false;
  for (;;) {
    const open = template.indexOf("{{", at);
    let text = template.slice(at, open === -1 ? undefined : open);
    if (trimNext) text = trimBlanksStart(text);
    if (open === -1) {
      addText(text);
      return { parts, problems };
    }
    const trimBefore = template[open + 2] === "-" && isBlank(template[open + 3]);
    addText(trimBefore ? trimBlanksEnd(text) : text);
    const action = readAction(template, open, trimBefore);
    if (!("end" in action)) {
      problems.push({ offset: open, message: action.problem });
      return { parts, problems };
    }
    if (action.problem !== undefined) problems.push({ offset: open, message: action.problem });
    if (action.part !== undefined) {
      if ("text" in action.part) addText(action.part.text);
      else parts.push(action.part);
    }
    trimNext = action.trimAfter;
    at = action.end;
  }
}

/**
 * Checks a `record_template`: it must parse (`parseRecordTemplate`), and every field it reads must
 * be a field of the dataset.
 */
export function checkRecordTemplate(template: string, catalog: Catalog | undefined): RecordTemplateCheck {
  const { parts, problems } = parseRecordTemplate(template);
  const fields: string[] = [];
  for (const part of parts) {
    if (!("field" in part)) continue;
    if (catalog && !catalog.fields.has(part.field)) {
      const closest = closestMatch(part.field, catalog.fields.keys());
      problems.push({
        offset: part.offset,
        message: `${JSON.stringify(part.action)} at offset ${part.offset} reads ${part.field}, which is not a field of ${catalog.dataset}${closest ? ` (did you mean ${closest}?)` : ""}`,
      });
    } else if (!fields.includes(part.field)) fields.push(part.field);
  }
  problems.sort((a, b) => a.offset - b.offset);
  return { problems: problems.map((problem) => problem.message), fields };
}
