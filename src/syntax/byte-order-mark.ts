/**
 * The one rule for a byte order mark (U+FEFF, which editors on Windows put first in UTF-8 files):
 * at the very start of an input it marks the encoding and is dropped; anywhere else it is text.
 */
export function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
