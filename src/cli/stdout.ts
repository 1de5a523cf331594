import { writeSync } from "node:fs";

/**
 * Standard output of the process. Text is written synchronously to the descriptor while that
 * works: creating `process.stdout` costs a short command a few milliseconds. Once a write cannot be
 * made so (a non-blocking pipe that is full) or bytes are streamed, everything goes through
 * `process.stdout`, which keeps the order. A reader that has gone (EPIPE: `filterc … | head`) ends
 * the output quietly: the rest is dropped, the command finishes with its own exit status.
 */
let stream: NodeJS.WriteStream | undefined;
let readerGone = false;

function outputStream(): NodeJS.WriteStream {
  if (!stream) {
    stream = process.stdout;
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") {
        readerGone = true;
        return;
      }
      process.stderr.write(`filterc: cannot write the output: ${error.message}\n`);
      process.exit(1);
    });
  }
  return stream;
}

export function writeText(text: string): void {
  if (readerGone) return;
  let rest = Buffer.from(text, "utf8");
  while (!stream && rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(1, rest));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EPIPE") {
        readerGone = true;
        return;
      }
      outputStream();
    }
  }
  if (rest.length > 0) outputStream().write(rest);
}

/** Writes bytes through the stream, resolving when it can take more (backpressure) or the reader has gone. */
export function writeBytes(bytes: Uint8Array): Promise<void> {
  if (readerGone) return Promise.resolve();
  const out = outputStream();
  return new Promise((resolve) => {
    // An error reaches the stream's handler above; the write itself is then over either way.
    if (out.write(bytes, () => resolve())) resolve();
  });
}

/** Whether the reader of standard output has gone (EPIPE): what a command still writes is dropped. */
export const stdoutReaderGone = (): boolean => readerGone;
