/** The lines of a log read from one chunk of it: line `first + i` is `texts[i]`. */
interface LineBatch {
  first: number;
  /** Each line's text without its LF (a CR before it kept, as eval keeps it); undefined for a line longer than the limit, which is not read. */
  texts: (string | undefined)[];
}

const LF = 0x0a;
/** Bytes of whole lines decoded and handed on at once: a batch of a few thousand lines, which die young. */
const BLOCK_BYTES = 64 * 1024;
const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf];

/**
 * Splits a log's bytes into lines as `filterc eval` does: on LF, a UTF-8 byte order mark at the
 * start dropped, bytes that are not UTF-8 read as U+FFFD, and a line longer than `maxLineBytes`
 * (without its LF) skipped to its end without being kept. A batch per block of a chunk, so memory
 * follows a chunk and the longest line, never the log. A chunk may be reused once the next is asked for:
 * the piece of a line it cuts is copied.
 */
export async function* logLines(
  chunks: AsyncIterable<Uint8Array>,
  maxLineBytes: number,
): AsyncGenerator<LineBatch> {
  const decoder = new TextDecoder();
  /** The log's first bytes, until there are enough to tell whether a mark starts it. */
  let head: Uint8Array | undefined = new Uint8Array(0);
  /** The line begun in earlier chunks, as copies of its pieces; skipped once past the limit. */
  let carry: Uint8Array[] = [];
  let carryBytes = 0;
  let skipping = false;
  let first = 1;
  for await (const piece of chunks) {
    let chunk = piece;
    if (head !== undefined) {
      head = head.length === 0 ? chunk : joined([head, chunk]);
      if (head.length < BYTE_ORDER_MARK.length) {
        head = copy(head);
        continue;
      }
      chunk = BYTE_ORDER_MARK.every((byte, i) => head![i] === byte)
        ? head.subarray(BYTE_ORDER_MARK.length)
        : head;
      head = undefined;
    }
    for (const texts of split(chunk)) {
      yield { first, texts };
      first += texts.length;
    }
  }
  // A log shorter than a mark: its bytes are lines.
  if (head && head.length > 0)
    for (const texts of split(head)) {
      yield { first, texts };
      first += texts.length;
    }
  if (carryBytes > 0 || skipping)
    yield { first, texts: [skipping ? undefined : decoder.decode(joined(carry))] };

  /**
   * The lines a chunk ends, the one begun before it first, a block of about BLOCK_BYTES at a time;
   * the bytes after its last LF carried on.
   */
  function* split(chunk: Uint8Array): Generator<(string | undefined)[]> {
    let from = 0;
    if (carryBytes > 0 || skipping) {
      const firstLf = chunk.indexOf(LF);
      if (firstLf === -1) {
        carryOn(chunk);
        return;
      }
      carryOn(chunk.subarray(0, firstLf));
      yield [skipping ? undefined : decoder.decode(joined(carry))];
      carry = [];
      carryBytes = 0;
      skipping = false;
      from = firstLf + 1;
    }
    const lastLf = chunk.lastIndexOf(LF);
    while (from <= lastLf) {
      // Whole lines, decoded at once: an LF byte is never part of a longer UTF-8 sequence.
      let blockLf = from + BLOCK_BYTES < lastLf ? chunk.lastIndexOf(LF, from + BLOCK_BYTES) : lastLf;
      if (blockLf < from) blockLf = chunk.indexOf(LF, from + BLOCK_BYTES);
      const block = decoder.decode(chunk.subarray(from, blockLf));
      const texts: (string | undefined)[] = [];
      for (let byteStart = from, charStart = 0; ; ) {
        const byteEnd = chunk.indexOf(LF, byteStart);
        const charEnd = byteEnd === blockLf ? block.length : block.indexOf("\n", charStart);
        texts.push(byteEnd - byteStart > maxLineBytes ? undefined : block.slice(charStart, charEnd));
        if (byteEnd === blockLf) break;
        byteStart = byteEnd + 1;
        charStart = charEnd + 1;
      }
      yield texts;
      from = blockLf + 1;
    }
    if (from < chunk.length) carryOn(chunk.subarray(from));
  }

  /** Keeps a copy of the bytes of the unfinished line, or skips them once it is past the limit. */
  function carryOn(bytes: Uint8Array): void {
    if (skipping) return;
    carryBytes += bytes.length;
    if (carryBytes > maxLineBytes) {
      carry = [];
      carryBytes = 0;
      skipping = true;
      return;
    }
    carry.push(copy(bytes));
  }
}

/** A copy of the bytes (a Node Buffer's `slice` is a view of the same memory, not a copy). */
const copy = (bytes: Uint8Array) => new Uint8Array(bytes);

function joined(pieces: readonly Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  const all = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.length, 0));
  let at = 0;
  for (const piece of pieces) {
    all.set(piece, at);
    at += piece.length;
  }
  return all;
}
