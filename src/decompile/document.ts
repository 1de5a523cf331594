import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { type Diagnostic, diagnose, LineIndex, type Range } from "../diagnostics/index.js";
import { jsonEscapes } from "../syntax/index.js";

/**
 * A JSON text being read, and how its offsets map back to the input the user gave. The filter of
 * a job is JSON inside a JSON string: its document is the decoded string, and every offset in it
 * maps to the escaped characters of the enclosing text, so diagnostics point into the input.
 */
export class JsonDocument {
  readonly lines: LineIndex;

  private constructor(
    readonly text: string,
    /** Offset in the input of each character of `text`, and of its end; absent for the input itself. */
    private readonly inputOffsets: number[] | undefined,
    /** How many JSON string literals this text is nested in: suggested replacements are escaped that often. */
    readonly escapeLevel: number,
  ) {
    this.lines = new LineIndex(text);
  }

  static ofInput(text: string): JsonDocument {
    return new JsonDocument(text, undefined, 0);
  }

  /** The document held by a string node of this one: its decoded text, each character mapped to the input. */
  embedded(node: Node): JsonDocument {
    const decoded = decodeStringLiteral(this.text, node.offset, node.offset + node.length);
    const offsets = decoded.offsets.map((offset) => this.inputOffset(offset));
    return new JsonDocument(decoded.value, offsets, this.escapeLevel + 1);
  }

  inputOffset(offset: number): number {
    return this.inputOffsets ? this.inputOffsets[offset]! : offset;
  }

  rangeOf(node: { offset: number; length: number }): Range {
    return this.lines.rangeOf(node.offset, node.offset + node.length);
  }

  /** Replacement text as it must be written at this document's place in the input. */
  escape(replacement: string): string {
    let text = replacement;
    for (let level = 0; level < this.escapeLevel; level++) text = JSON.stringify(text).slice(1, -1);
    return text;
  }
}

/** The value of a JSON string literal spanning `start` to `end` of `text`, with the offset of each decoded character. */
function decodeStringLiteral(text: string, start: number, end: number): { value: string; offsets: number[] } {
  let value = "";
  const offsets: number[] = [];
  let i = start + 1;
  const close = end - 1;
  while (i < close) {
    const c = text[i]!;
    offsets.push(i);
    if (c !== "\\") {
      value += c;
      i++;
      continue;
    }
    const next = text[i + 1];
    if (next === "u") {
      value += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16));
      i += 6;
      continue;
    }
    value += jsonEscapes[next ?? ""] ?? next ?? "";
    i += 2;
  }
  offsets.push(close);
  return { value, offsets };
}

const problems: Record<string, string> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: "expected a property name in double quotes",
  ValueExpected: "expected a value",
  ColonExpected: "expected `:`",
  CommaExpected: "expected `,`",
  CloseBraceExpected: "expected `}` to close the object",
  CloseBracketExpected: "expected `]` to close the array",
  EndOfFileExpected: "unexpected text after the end of the JSON value",
  InvalidCommentToken: "comments are not JSON",
  UnexpectedEndOfComment: "comments are not JSON",
  UnexpectedEndOfString: "unterminated string",
  UnexpectedEndOfNumber: "unterminated number",
  InvalidUnicode: "invalid \\u escape",
  InvalidEscapeCharacter: "invalid escape in string",
  InvalidCharacter: "control character in string; escape it",
};

/**
 * Parses strict JSON (no comments, no trailing commas) into a tree with offsets. The depth is
 * checked first: the parser recurses, and a hostile input must not exhaust the stack.
 */
export function parseDocument(
  document: JsonDocument,
  maxJsonDepth: number,
  depthLimit: number,
): { root: Node | undefined; diagnostics: Diagnostic[] } {
  const deep = findDepthOverflow(document.text, maxJsonDepth);
  if (deep !== undefined) {
    const range = document.lines.rangeOf(deep, deep + 1);
    return { root: undefined, diagnostics: [diagnose("NestingTooDeep", range, { limit: depthLimit })] };
  }
  const errors: ParseError[] = [];
  const root = parseTree(document.text, errors, {
    disallowComments: true,
    allowTrailingComma: false,
    allowEmptyContent: false,
  });
  const diagnostics = errors.map((error) => {
    const name = printParseErrorCode(error.error);
    const range = document.lines.rangeOf(error.offset, error.offset + error.length);
    return diagnose("InvalidJson", range, { problem: problems[name] ?? name });
  });
  return { root: diagnostics.length ? undefined : root, diagnostics };
}

/** The offset of the first `[` or `{` nested deeper than `limit`, outside strings (read before a parser that recurses). */
export function findDepthOverflow(text: string, limit: number): number | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth > limit) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return undefined;
}

export function jsonTypeName(node: Node | undefined): string {
  switch (node?.type) {
    case undefined:
      return "nothing";
    case "object":
      return "an object";
    case "array":
      return "an array";
    case "string":
      return `the string ${excerpt(String(node.value))}`;
    case "number":
      return `the number ${String(node.value)}`;
    case "boolean":
      return String(node.value);
    case "null":
      return "null";
    case "property":
      return "a property";
  }
}

/** The members of an object node, in order. */
export function membersOf(node: Node): { key: Node; name: string; value: Node | undefined }[] {
  return (node.children ?? []).map((property) => {
    const [key, value] = property.children ?? [];
    return { key: key!, name: String(key!.value), value };
  });
}

export function pointerSegment(segment: string | number): string {
  return `/${String(segment).replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/** A string for a message: quoted, and cut short when long. */
export function excerpt(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
}
