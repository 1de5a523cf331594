import { isHiddenCharacter } from "../diagnostics/index.js";

/**
 * String literals take JSON escapes in either quote style (plus `\'`). The lexer has already
 * matched the literal; this decodes it, and `findInvalidEscapes` reports what JSON would reject.
 */

/** The escapes JSON strings take, besides `\u` and four hex digits. */
export const jsonEscapes: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** Filter strings take JSON's escapes in either quote style, plus `\'` (editor grammars colour these). */
export const stringEscapes: Readonly<Record<string, string>> = { ...jsonEscapes, "'": "'" };

/** The text between the quotes; an unterminated literal (no closing quote) is decoded up to its end. */
function body(image: string): string {
  const quote = image[0];
  const closed =
    image.length >= 2 &&
    image[image.length - 1] === quote &&
    !endsWithOddBackslashes(image, image.length - 1);
  return image.slice(1, closed ? -1 : undefined);
}

function endsWithOddBackslashes(text: string, end: number): boolean {
  let count = 0;
  for (let i = end - 1; i >= 0 && text[i] === "\\"; i--) count++;
  return count % 2 === 1;
}

export function isTerminated(image: string): boolean {
  const quote = image[0];
  return (
    image.length >= 2 && image[image.length - 1] === quote && !endsWithOddBackslashes(image, image.length - 1)
  );
}

export function decodeStringToken(image: string): string {
  const text = body(image);
  if (!text.includes("\\")) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) break;
    if (next === "u") {
      const hex = text.slice(i + 2, i + 6);
      if (/^[0-9a-fA-F]{4}$/.test(hex)) {
        out += String.fromCharCode(Number.parseInt(hex, 16));
        i += 5;
        continue;
      }
    }
    const simple = stringEscapes[next];
    out += simple ?? next;
    i += 1;
  }
  return out;
}

/** Offsets (within the literal) and lengths of escapes that are not JSON escapes. */
export function findInvalidEscapes(image: string): { offset: number; length: number; text: string }[] {
  const found: { offset: number; length: number; text: string }[] = [];
  const end = isTerminated(image) ? image.length - 1 : image.length;
  for (let i = 1; i < end; i++) {
    if (image[i] !== "\\") continue;
    const next = image[i + 1];
    if (next === undefined || i + 1 >= end) {
      found.push({ offset: i, length: 1, text: "\\" });
      break;
    }
    if (next === "u") {
      const hex = image.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
        const length = 2 + (hex.match(/^[0-9a-fA-F]*/)?.[0].length ?? 0);
        found.push({ offset: i, length, text: image.slice(i, i + length) });
        i += length - 1;
        continue;
      }
      i += 5;
      continue;
    }
    if (!(next in stringEscapes)) found.push({ offset: i, length: 2, text: `\\${next}` });
    i += 1;
  }
  return found;
}

/** `\u` escapes of a character's UTF-16 units: `\u202E`, `\uDB40\uDC01`. */
export function unicodeEscapes(character: string): string {
  let escaped = "";
  for (let i = 0; i < character.length; i++)
    escaped += `\\u${character.charCodeAt(i).toString(16).toUpperCase().padStart(4, "0")}`;
  return escaped;
}

/**
 * A string as filter source writes it: JSON's escapes, and a `\u` escape for every other character
 * a reader could not see (bidi controls, zero-width characters, C1 controls, line separators), so
 * that printed source shows all it matches (and raises no W0107).
 */
export function stringLiteral(value: string): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/gu, (character) =>
    isHiddenCharacter(character) ? unicodeEscapes(character) : character,
  );
}
