/** A change to a text: the UTF-16 offsets it replaces, and what goes there. */
export interface TextEdit {
  start: number;
  end: number;
  replacement: string;
}

/**
 * The bytes of a file with `edits` applied, where `text` is those bytes read as UTF-8 with each
 * invalid sequence read as U+FFFD (as Node and browsers read them): every byte outside an edit
 * stays as it was, a Latin-1 byte elsewhere in the file included, and each replacement is written
 * in UTF-8. Undefined when the edits cannot be placed so: `text` is not what the bytes read as, an
 * edit starts or ends inside a character, or the bytes around an edit would read otherwise once it
 * is in. The edits are sorted and do not overlap.
 */
export function editBytes(bytes: Uint8Array, text: string, edits: readonly TextEdit[]): Buffer | undefined {
  const source = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (source.toString("utf8") !== text) return undefined;
  const offsets = byteOffsets(
    source,
    edits.flatMap((edit) => [edit.start, edit.end]),
  );
  if (offsets === undefined) return undefined;
  const pieces: Buffer[] = [];
  let cursor = 0;
  let edited = "";
  let textCursor = 0;
  for (const edit of edits) {
    const start = offsets.get(edit.start)!;
    pieces.push(source.subarray(cursor, start), Buffer.from(edit.replacement, "utf8"));
    cursor = offsets.get(edit.end)!;
    edited += text.slice(textCursor, edit.start) + edit.replacement;
    textCursor = edit.end;
  }
  pieces.push(source.subarray(cursor));
  const result = Buffer.concat(pieces);
  return result.toString("utf8") === edited + text.slice(textCursor) ? result : undefined;
}

/**
 * The byte offset of each of `wanted` (UTF-16 offsets into the bytes' text), read as the WHATWG
 * UTF-8 decoder reads: a maximal invalid subsequence is one U+FFFD, a character past U+FFFF two
 * units. Undefined when one falls inside a character.
 */
function byteOffsets(bytes: Buffer, wanted: readonly number[]): Map<number, number> | undefined {
  const sorted = [...new Set(wanted)].sort((a, b) => a - b);
  const found = new Map<number, number>();
  let next = 0;
  let units = 0;
  for (let at = 0; ; ) {
    if (next < sorted.length && sorted[next]! < units) return undefined;
    if (next < sorted.length && sorted[next] === units) found.set(sorted[next++]!, at);
    if (at >= bytes.length || next === sorted.length) break;
    const [length, width] = characterAt(bytes, at);
    at += length;
    units += width;
  }
  return next === sorted.length ? found : undefined;
}

/** The bytes the character at `at` takes, and the UTF-16 units it reads as (U+FFFD for an invalid sequence). */
function characterAt(bytes: Buffer, at: number): [number, number] {
  const lead = bytes[at]!;
  if (lead < 0x80) return [1, 1];
  let needed: number;
  let lower = 0x80;
  let upper = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) needed = 1;
  else if (lead >= 0xe0 && lead <= 0xef) {
    needed = 2;
    if (lead === 0xe0) lower = 0xa0;
    if (lead === 0xed) upper = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    needed = 3;
    if (lead === 0xf0) lower = 0x90;
    if (lead === 0xf4) upper = 0x8f;
  } else return [1, 1];
  let length = 1;
  for (; length <= needed; length++) {
    const byte = bytes[at + length];
    if (byte === undefined || byte < lower || byte > upper) return [length, 1];
    lower = 0x80;
    upper = 0xbf;
  }
  return [length, needed === 3 ? 2 : 1];
}
