import { type Accept, openFile } from "./open.js";
import { fileProblem } from "./read.js";

const CHUNK_BYTES = 1 << 20;

/**
 * The bytes start…end of a file, a chunk at a time, read into two buffers used in turn: a chunk
 * stays valid until the one after it has been taken, so whatever is kept longer is copied (eval
 * copies what it writes and the piece of a line a chunk cuts). A read stream's fresh buffer per
 * chunk is memory the allocator hands back and takes again, a page fault per 4 KiB each time.
 * The buffers outlive the file, for the next file or range the thread reads
 * (a worker reads some 25 ranges of an 800 MB file). The next chunk is read while the consumer
 * works on this one, into the other buffer, whose chunk it is done with once it asked for this
 * one, so that the consumer does not wait for reads.
 *
 * A stream (where `accept` takes one: a fifo, `<(…)`) is read in order from where it is, its
 * range ignored: it cannot be read at an offset (ESPIPE). Failing to open or read throws the file
 * system's error (see openFile).
 */
export async function* fileChunks(
  path: string,
  accept: Accept,
  start = 0,
  end = Number.POSITIVE_INFINITY,
): AsyncGenerator<Buffer> {
  const { handle, size } = await openFile(path, accept);
  const seekable = size !== undefined;
  const buffers = [spareBuffer(), spareBuffer()];
  const readAt = (buffer: Buffer, position: number) => {
    if (position >= end) return Promise.resolve({ bytesRead: 0 });
    const read = handle.read(buffer, 0, Math.min(buffer.length, end - position), seekable ? position : null);
    // A read ahead may fail while no one awaits it yet: marked handled, so that Node does not end
    // the process for an unhandled rejection; awaiting it later still throws its error.
    read.catch(() => undefined);
    return read;
  };
  let pending = readAt(buffers[0]!, start);
  try {
    for (let position = start, turn = 0; ; turn ^= 1) {
      const { bytesRead } = await pending;
      if (bytesRead === 0) return;
      position += bytesRead;
      pending = readAt(buffers[turn ^ 1]!, position);
      yield buffers[turn]!.subarray(0, bytesRead);
    }
  } finally {
    // A read still running writes into a buffer and needs the file: it ends first.
    await pending.catch(() => undefined);
    spareBuffers.push(...buffers);
    await handle.close();
  }
}

/** Chunk buffers of files read before, free for the next (several files may be read at once). */
const spareBuffers: Buffer[] = [];
const spareBuffer = () => spareBuffers.pop() ?? Buffer.allocUnsafe(CHUNK_BYTES);

/**
 * The chunks of a regular file (see fileChunks), a failure thrown as an error that says why in
 * words (fileProblem): how the logs test files name are read.
 */
export async function* regularFileChunks(path: string): AsyncGenerator<Buffer> {
  try {
    yield* fileChunks(path, "regular");
  } catch (error) {
    throw new Error(fileProblem(error));
  }
}
