import type { IToken } from "chevrotain";
import {
  codePointName,
  type Diagnostic,
  diagnose,
  isHiddenCharacter,
  LineIndex,
  type Range,
} from "../diagnostics/index.js";
import type { ScanResult } from "./lexer.js";
import { shift, tokenRange } from "./nodes.js";
import { hasExponent, plainDigits } from "./numbers.js";
import { findInvalidEscapes, isTerminated, stringLiteral, unicodeEscapes } from "./strings.js";
import { CurlyQuoted, Decimal, DoubleQuoted, Integer, SingleQuoted, UnterminatedString } from "./tokens.js";
import { joinsComparisons } from "./typos.js";

/*
 * The diagnostics read off the scanned tokens alone, before any parse: characters no token starts
 * with, and tokens that scan but are written wrong (an unterminated or curly-quoted string, an
 * invalid escape, a character that cannot be seen, an exponent or a leading zero in a number).
 */

/** Appends the diagnostics of the scanner's rejected characters, then those of each token, to `diagnostics`. */
export function lintTokens(lexed: ScanResult, source: string, diagnostics: Diagnostic[]): void {
  if (lexed.errors.length > 0) {
    // The scanner tracks lines itself; a line index is built only to place rejected characters.
    const lines = new LineIndex(source);
    for (const error of lexed.errors) diagnostics.push(lexingDiagnostic(error, source, lines, lexed.tokens));
  }
  for (const index of lexed.lintable) tokenDiagnostics(lexed.tokens[index]!, source, diagnostics);
}

const andHint = "; join comparisons with `and` or `&&`";
const orHint = "; join comparisons with `or` or `||`";
/** By the first character of a rejected run: `&`, `|`, and the same typed as other characters (`∧`, full-width `＆＆`). */
const characterHints: Record<string, string> = {
  "&": andHint,
  "＆": andHint,
  "∧": andHint,
  "|": orHint,
  "｜": orHint,
  "∨": orHint,
  "¬": "; negate with `not` or `!`",
  "{": "; this is the filter language; to read Logpush JSON, use decompile",
};

/** What a lone `&` or `|` between two comparisons is fixed to, and the same typed as other characters. */
const joinerFixes: Record<string, string> = {
  "&": "&&",
  "|": "||",
  "＆": "&&",
  "＆＆": "&&",
  "∧": "and",
  "｜": "||",
  "｜｜": "||",
  "∨": "or",
};

function lexingDiagnostic(
  error: { offset: number; length: number },
  source: string,
  lines: LineIndex,
  tokens: readonly IToken[],
): Diagnostic {
  const text = source.slice(error.offset, error.offset + error.length);
  const range = lines.rangeOf(error.offset, error.offset + error.length);
  const hint = characterHints[text[0] ?? ""] ?? "";
  const joiner = joinerFixes[text];
  if (joiner !== undefined && joinsComparisons(tokens, error.offset)) {
    return diagnose(
      "UnexpectedCharacter",
      range,
      { text, hint },
      { message: `use \`${joiner}\``, range, replacement: joiner },
    );
  }
  // Characters that cannot be seen are named by code point, and they can only be deleted.
  const characters = [...text];
  if (characters.every(isHiddenCharacter)) {
    const names = characters.map(codePointName).join(" ");
    return diagnose(
      "UnexpectedCharacter",
      range,
      { text: names, hint: "; it cannot be seen: delete it" },
      { message: `delete ${names}`, range, replacement: "" },
    );
  }
  return diagnose("UnexpectedCharacter", range, {
    text: text.length > 20 ? `${text.slice(0, 20)}…` : text,
    hint,
  });
}

function tokenDiagnostics(token: IToken, source: string, diagnostics: Diagnostic[]): void {
  const type = token.tokenType;
  if (type === UnterminatedString || type === DoubleQuoted || type === SingleQuoted) {
    const image = token.image;
    // Most strings are printable ASCII without a backslash and terminated: nothing to say, and
    // no range to build.
    if (type !== UnterminatedString && isPlainText(image)) return;
    const range = tokenRange(token);
    if (type === UnterminatedString && !isTerminated(image)) {
      // A quote right after other text (`eq "a or b eq "c"`: the first string lacks its end and
      // took the next one's start) is no string of its own to close.
      const glued = token.startOffset > 0 && /[^\s([{,=<>!&|]/.test(source[token.startOffset - 1]!);
      diagnostics.push(unterminatedString(image, range, glued));
    }
    if (unseenInString.test(image)) warnUnseenCharacters(image, range, diagnostics);
    if (image.includes("\\")) {
      for (const invalid of findInvalidEscapes(image)) {
        const start = shift(range.start, invalid.offset);
        diagnostics.push(
          diagnose(
            "InvalidEscape",
            { start, end: shift(range.start, invalid.offset + invalid.length) },
            { escape: invalid.text },
          ),
        );
      }
    }
  } else if (type === CurlyQuoted) {
    const range = tokenRange(token);
    const text = token.image.slice(
      1,
      isCurlyQuote(token.image.at(-1)) && token.image.length > 1 ? -1 : undefined,
    );
    const replacement = stringLiteral(text);
    diagnostics.push(
      diagnose(
        "CurlyQuotes",
        range,
        { text: token.image, replacement },
        { message: "use straight quotes", range, replacement },
      ),
    );
  } else if (type === Decimal && hasExponent(token.image)) {
    const range = tokenRange(token);
    const plain = plainDigits(token.image);
    diagnostics.push(
      diagnose(
        "ExponentNumber",
        range,
        { text: token.image, hint: plain === undefined ? "" : `: write ${plain}` },
        plain === undefined ? undefined : { message: "write the digits", range, replacement: plain },
      ),
    );
  } else if ((type === Integer || type === Decimal) && startsWithZero(token.image)) {
    const match = /^(-?)0+(?=[0-9])/.exec(token.image);
    if (match) {
      const fixed = match[1] + token.image.slice(match[0].length);
      const range = tokenRange(token);
      diagnostics.push(
        diagnose(
          "LeadingZero",
          range,
          { text: token.image, fixed },
          { message: `write ${fixed}`, range, replacement: fixed },
        ),
      );
    }
  }
}

/** Whether text is printable ASCII without a backslash: no escape to check, no character unseen. */
function isPlainText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code > 0x7e || code === 0x5c) return false;
  }
  return true;
}

/** Characters a string holds that cannot be seen where it is read: controls, tabs, bidi and other format characters. */
const unseenInString = /[\0-\x1f\x7f-\x9f\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/**
 * W0107 for each such character written raw in a string (the filter would match text the reader
 * of the source cannot see), with its `\u` escape as the fix; the zero-width joiner of emoji is fine.
 */
function warnUnseenCharacters(image: string, range: Range, diagnostics: Diagnostic[]): void {
  for (let i = 1; i < image.length; i++) {
    const code = image.codePointAt(i)!;
    const character = String.fromCodePoint(code);
    const width = code > 0xffff ? 2 : 1;
    if (character === "\t" || isHiddenCharacter(character)) {
      const at = { start: shift(range.start, i), end: shift(range.start, i + width) };
      const escaped = unicodeEscapes(character);
      diagnostics.push(
        diagnose(
          "UnseenCharacterInString",
          at,
          { name: codePointName(character) },
          { message: `write it as ${escaped}`, range: at, replacement: escaped },
        ),
      );
    }
    i += width - 1;
  }
}

const isCurlyQuote = (character: string | undefined) =>
  character !== undefined && "“”„‘’‚".includes(character);

/**
 * E0102 with the fix most likely meant: a string closed by a curly quote or by the other straight
 * quote gets that quote straightened; one ending in `\"` (an escaped quote) gets a backslash of its
 * own; any other is closed at the end of the line.
 */
function unterminatedString(image: string, range: Range, glued: boolean): Diagnostic {
  const quote = image[0]!;
  const other = quote === '"' ? "'" : '"';
  const curly = /[“”„‘’‚]/.exec(image.slice(1));
  let hint = "";
  let fixed = `${image}${quote}`;
  if (curly) {
    const at = curly.index + 1;
    hint = `; \`${curly[0]}\` is a curly quote: end the string with ${quote}`;
    fixed = `${image.slice(0, at)}${quote}${image.slice(at + 1)}`;
  } else if (image.length > 1 && image.endsWith(other)) {
    hint = `; it starts with ${quote} and ends with ${other}: use the same quote at both ends`;
    fixed = `${image.slice(0, -1)}${quote}`;
  } else if (image.endsWith(`\\${quote}`)) {
    hint = `; \`\\${quote}\` is an escaped quote, not the end: for a backslash at the end write \`\\\\${quote}\``;
    fixed = `${image.slice(0, -1)}\\${quote}`;
  } else if (image.endsWith("\\")) {
    fixed = `${image}\\${quote}`;
  }
  return diagnose(
    "UnterminatedString",
    range,
    { quote, hint },
    glued ? undefined : { message: "close it", range, replacement: fixed },
  );
}

/** Whether the number's digits start with 0: only then can the regex find a leading zero. */
function startsWithZero(number: string): boolean {
  return number.charCodeAt(number.charCodeAt(0) === 0x2d ? 1 : 0) === 0x30;
}
