import { setImmediate as eventLoopTurn } from "node:timers/promises";
import { constants, crc32, createInflateRaw, type ZlibOptions } from "node:zlib";

/**
 * Damage in an input, found after everything before it was delivered: `offset` is the byte of the
 * stored (compressed) input where it is.
 */
export class InputDamage extends Error {
  override readonly name = "InputDamage";
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(`${reason} at byte ${offset}`);
  }
}

/** Compressed bytes handed to the inflater at a time. */
const PIECE_BYTES = 256 * 1024;
const OUTPUT_CHUNK_BYTES = 1 << 20;
/**
 * Inflated bytes held for the consumer, at most, before the inflater is paused (it may have one
 * more chunk made meanwhile). What bounds memory: a piece of zeros inflates a thousandfold, and
 * held whole, a small file takes gigabytes (bench/RESULTS.md, "Hostile inputs").
 */
const MAX_INFLATED_HELD_BYTES = 4 * OUTPUT_CHUNK_BYTES;
const FLAG_HCRC = 2;
const FLAG_EXTRA = 4;
const FLAG_NAME = 8;
const FLAG_COMMENT = 16;

/**
 * Decompresses gzip members one after another (RFC 1952; Logpush and `cat a.gz b.gz` make several),
 * yielding the content as it comes, and throws InputDamage after the last good byte when the input
 * is cut short, corrupt, fails its CRC or length check, or has bytes after the last member that
 * are not another member (zero bytes there are padding, as gzip(1) allows; `onPadding` is told of
 * them). Node's gunzip stream
 * dropped the content decoded in the same write as such an error and gave no offset; here each
 * member's header and trailer are read by hand and the deflate data inflated raw, so the content
 * before the damage is all delivered.
 */
export async function* gunzipMembers(
  source: AsyncIterator<Buffer>,
  head: Buffer,
  onPadding: () => void = () => {},
): AsyncGenerator<Buffer> {
  let pending = head;
  /** The offset in the input of pending[0]. */
  let base = 0;
  let ended = false;
  const more = async (): Promise<boolean> => {
    if (ended) return false;
    const next = await source.next();
    if (next.done) {
      ended = true;
      return false;
    }
    pending = pending.length === 0 ? next.value : Buffer.concat([pending, next.value]);
    return true;
  };
  const need = async (bytes: number): Promise<boolean> => {
    while (pending.length < bytes) if (!(await more())) return false;
    return true;
  };
  const consume = (bytes: number) => {
    pending = pending.subarray(bytes);
    base += bytes;
  };

  for (let members = 0; ; members++) {
    if (!(await need(1))) return;
    if (members > 0 && pending[0] === 0) {
      // Padding after the last member: zeros to the end.
      onPadding();
      do {
        const nonZero = pending.findIndex((byte) => byte !== 0);
        if (nonZero >= 0) throw new InputDamage(base + nonZero, "bytes after the last gzip member");
        consume(pending.length);
      } while (await more());
      return;
    }
    const headerBytes = await readHeader(members);
    consume(headerBytes);
    yield* inflateMember();
  }

  /** The length of the member header at pending[0]. */
  async function readHeader(members: number): Promise<number> {
    const complete = await need(10);
    if (pending[0] !== 0x1f || (pending.length > 1 && pending[1] !== 0x8b))
      throw new InputDamage(base, members > 0 ? "bytes after the last gzip member" : "not gzip data");
    if (!complete) throw new InputDamage(base + pending.length, "unexpected end of file in a gzip header");
    if (pending[2] !== 8) throw new InputDamage(base + 2, "unknown gzip compression method");
    const flags = pending[3]!;
    if (flags & 0xe0) throw new InputDamage(base + 3, "reserved gzip header flags set");
    let end = 10;
    const cut = () => new InputDamage(base + pending.length, "unexpected end of file in a gzip header");
    if (flags & FLAG_EXTRA) {
      if (!(await need(end + 2))) throw cut();
      end += 2 + pending.readUInt16LE(end);
    }
    for (const flag of [FLAG_NAME, FLAG_COMMENT]) {
      if (!(flags & flag)) continue;
      // A zero-terminated string.
      let zero = pending.indexOf(0, end);
      while (zero < 0) {
        if (!(await more())) throw cut();
        zero = pending.indexOf(0, end);
      }
      end = zero + 1;
    }
    if (flags & FLAG_HCRC) end += 2;
    if (!(await need(end))) throw cut();
    // The header CRC is the low 16 bits of the CRC-32 of the header before it.
    if (flags & FLAG_HCRC && pending.readUInt16LE(end - 2) !== (crc32(pending.subarray(0, end - 2)) & 0xffff))
      throw new InputDamage(base + end - 2, "gzip header CRC mismatch");
    return end;
  }

  /**
   * Inflates one member's deflate data, a piece at a time, handing on its output as it comes. The
   * inflater runs on libuv's thread pool while the consumer works on the output before, so
   * decompression and filtering run on two cores at once; it is paused while
   * MAX_INFLATED_HELD_BYTES are not yet handed on, so memory is flat on any ratio. At most one piece
   * is in flight, and it is started only once the one before took all its bytes, so the end of the
   * deflate data is still found exactly.
   */
  async function* inflateMember(): AsyncGenerator<Buffer> {
    // The readable side holds at most one chunk: the inflater goes on only while nothing waits
    // there (or the stream flows), so an error never drops output it had already made.
    const inflater = createInflateRaw({
      chunkSize: OUTPUT_CHUNK_BYTES,
      readableHighWaterMark: 1,
    } as ZlibOptions);
    const output: Buffer[] = [];
    let held = 0;
    let failure: Error | undefined;
    /** Whether the piece or flush last started has taken all its bytes (its callback came). */
    let done = true;
    /**
     * Resolves the wait for output, the piece's end or an error. On an error the inflater calls
     * nothing back, so the error wakes the wait too: waiting on the callback alone left nothing for
     * the event loop to do when the deflate data was corrupt, and eval ended at once with status 0,
     * nothing written and no summary.
     */
    let wake: (() => void) | undefined;
    const woken = () => {
      const resolve = wake;
      wake = undefined;
      resolve?.();
    };
    const keep = (chunk: Buffer) => {
      output.push(chunk);
      held += chunk.length;
      if (held >= MAX_INFLATED_HELD_BYTES) inflater.pause();
      woken();
    };
    inflater.on("data", keep);
    inflater.on("error", (error) => {
      failure = error;
      woken();
    });
    const pieceDone = () => {
      done = true;
      woken();
    };
    /** Whether everything the inflater was given has come out (or it failed). */
    const drained = () =>
      failure !== undefined || (done && inflater.readableLength === 0 && output.length === 0);
    /** Waits until there is output to hand on, or nothing more will come of what was given. */
    const settled = async () => {
      while (output.length === 0 && !failure && !(done && inflater.readableLength === 0))
        await new Promise<void>((resolve) => (wake = resolve));
    };
    const bodyStart = base;
    /** The length of the last piece started. */
    let piece = 0;
    let fed = 0;
    let crc = 0;
    let size = 0;
    /**
     * The output inflated so far, and what comes while it is taken. The inflater goes on to its next
     * output chunk only in a callback on this thread, and handing a chunk to the consumer runs no
     * callback (promises only): an event loop turn between chunks lets it go on while the consumer
     * works.
     */
    const drain = async function* () {
      for (let first = true; output.length > 0; first = false) {
        if (!first && !done) await eventLoopTurn();
        const chunk = output.shift()!;
        held -= chunk.length;
        if (held < MAX_INFLATED_HELD_BYTES && inflater.isPaused()) inflater.resume();
        crc = crc32(chunk, crc);
        size += chunk.length;
        yield chunk;
      }
    };
    /** Hands on the output until all that was given has come out; the inflater's error, if it failed meanwhile. */
    const rest = async function* (): AsyncGenerator<Buffer, Error | undefined> {
      while (!drained()) {
        await settled();
        yield* drain();
      }
      yield* drain();
      return failure;
    };
    /** Starts inflating the next piece of the pending bytes; false at the end of the input. */
    const start = async (): Promise<boolean> => {
      if (pending.length === 0 && !(await more())) return false;
      piece = Math.min(pending.length, PIECE_BYTES);
      done = false;
      inflater.write(pending.subarray(0, piece), pieceDone);
      fed += piece;
      return true;
    };
    try {
      let started = await start();
      for (;;) {
        if (!started) {
          // Cut inside the deflate data: what can be decoded so far is content.
          done = false;
          inflater.flush(constants.Z_SYNC_FLUSH, pieceDone);
          yield* rest();
          throw new InputDamage(base, "unexpected end of file inside a gzip member");
        }
        await settled();
        if (failure) {
          yield* drain();
          throw new InputDamage(bodyStart + inflater.bytesWritten, failure.message);
        }
        if (done) {
          // The inflater stops at the end of the deflate data and takes no more bytes.
          const consumed = inflater.bytesWritten;
          if (consumed < fed) {
            consume(consumed - (fed - piece));
            const late = yield* rest();
            if (late) throw new InputDamage(bodyStart + inflater.bytesWritten, late.message);
            break;
          }
          consume(piece);
          started = await start();
        }
        yield* drain();
      }
    } finally {
      // A piece still in flight is let finish before the inflater goes (the consumer stopped
      // early), its output dropped as it comes.
      if (!done && !failure) {
        inflater.off("data", keep);
        inflater.on("data", () => undefined);
        inflater.resume();
        while (!done && !failure) await new Promise<void>((resolve) => (wake = resolve));
      }
      inflater.destroy();
    }
    if (!(await need(8)))
      throw new InputDamage(base + pending.length, "unexpected end of file in a gzip trailer");
    if (pending.readUInt32LE(0) !== crc >>> 0) throw new InputDamage(base, "gzip CRC mismatch");
    if (pending.readUInt32LE(4) !== size % 2 ** 32) throw new InputDamage(base + 4, "gzip length mismatch");
    consume(8);
  }
}
