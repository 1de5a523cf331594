import { terminalText } from "../diagnostics/index.js";

/** One line of text from a value a server sent: hidden characters, newlines and tabs shown as code points. */
export function oneLine(text: string): string {
  return terminalText(text).replace(/[\n\t]/g, (c) => (c === "\n" ? "<U+000A>" : "<U+0009>"));
}

/** `text` cut to at most `length` characters, `…` where it was cut (never inside a surrogate pair). */
export function shortened(text: string, length: number): string {
  if (text.length <= length) return text;
  const cut = /[\ud800-\udbff]/.test(text[length - 1]!) ? length - 1 : length;
  return `${text.slice(0, cut)}…`;
}
