import { readSync } from "node:fs";
// The module itself, not the stage's index: the CLI's entry bundle loads this file, and the index also
// holds filterc.json's reading, with every field catalog.
import { terminalName } from "../diagnostics/terminal-text.js";
import type { Accept } from "../files/open.js";
import { fileProblem, readUpTo } from "../files/read.js";
import { withoutByteOrderMark } from "../syntax/byte-order-mark.js";
import { stdoutReaderGone, writeBytes, writeText } from "./stdout.js";

/** What a command may touch; tests pass their own to run commands in-process. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
  env: Record<string, string | undefined>;
  /** Whether stderr is a terminal (colours, progress bars). */
  stderrIsTTY: boolean;
  cwd: string;
  /** Standard input as bytes, streamed (commands that read large inputs); absent in tests that pass a string. */
  stdinBytes?: () => AsyncIterable<Uint8Array>;
  /** Writes bytes to standard output, resolving when the stream can take more (backpressure). */
  writeStdout?: (bytes: Uint8Array) => Promise<void>;
  /** Whether the reader of standard output has gone (`filterc tail | head`): a stream may stop. */
  stdoutGone?: () => boolean;
}

/**
 * A mistake in how the command was called: printed with the command's synopsis, exit code 2, or
 * with `help` instead where the synopsis is no help (a wrong dataset name: where the names are).
 */
export class UsageError extends Error {
  override readonly name = "UsageError";
  constructor(
    message: string,
    readonly help?: string,
  ) {
    super(message);
  }
}

/** Writes bytes to standard output: as bytes where the IO takes them, else decoded as they come. */
export function stdoutWriter(io: CliIO): (bytes: Buffer) => Promise<void> {
  if (io.writeStdout) return io.writeStdout;
  const decoder = new TextDecoder();
  return async (bytes) => io.stdout(decoder.decode(bytes, { stream: true }));
}

/** A failure the user can act on (a missing file, an API error): printed without a stack, exit code 1. */
export class UserError extends Error {
  override readonly name = "UserError";
}

// Each command's bundle carries its own copy of these classes, so the entry tells them by name.
export const isUsageError = (error: unknown): error is UsageError =>
  error instanceof Error && error.name === "UsageError";
export const isUserError = (error: unknown): error is UserError =>
  error instanceof Error && error.name === "UserError";

/**
 * The most bytes a filter, its JSON, a job record or output options are read to. A UTF-16 unit is
 * at most three UTF-8 bytes, so past three bytes per character of the longest source or JSON input
 * the commands take (maxSourceLength and maxInputLength, 100,000 each by default), and a byte order
 * mark, no input is short enough: the rest is not read, so `compile /dev/zero` ends at once.
 */
export const MAX_SOURCE_FILE_BYTES = 3 * 100_000 + 3;

/** Why a source is not read past MAX_SOURCE_FILE_BYTES, for its error. */
const SOURCE_TOO_LARGE = "longer than any filter or filter JSON can be";

const tooLarge = (name: string, limit: number, why: string) =>
  new UserError(`${name} is larger than ${limit} bytes, ${why}; not read`);

/** A filter file or input past MAX_SOURCE_FILE_BYTES. */
export const sourceTooLarge = (name: string) => tooLarge(name, MAX_SOURCE_FILE_BYTES, SOURCE_TOO_LARGE);

/**
 * `readUpTo` for a command's input: a larger file is an error saying `why`, a failed read
 * `cannotRead`. A file the user named may be a fifo or a device (`compile <(…)`), read to the
 * bound; one found in a folder must be a regular file (see Accept).
 */
export async function readFileUpTo(
  file: string,
  limit: number,
  why: string,
  accept: Accept,
): Promise<Buffer> {
  const bytes = await readUpTo(file, limit, accept).catch((error: unknown) => {
    throw cannotRead(file, error);
  });
  if (bytes === undefined) throw tooLarge(file, limit, why);
  return bytes;
}

/** A filter file's bytes, to at most MAX_SOURCE_FILE_BYTES. */
export const readSourceBytes = (file: string, accept: Accept) =>
  readFileUpTo(file, MAX_SOURCE_FILE_BYTES, SOURCE_TOO_LARGE, accept);

/**
 * Standard input as text (see `decodeText`), read to at most MAX_SOURCE_FILE_BYTES. Read
 * synchronously from the descriptor where it can be: creating `process.stdin` loads Node's stream
 * and socket modules, a tenth of a short command's run time. A descriptor that cannot be read so
 * (non-blocking: EAGAIN; closed) is read as a stream instead.
 */
async function readProcessStdin(): Promise<string> {
  const buffer = Buffer.allocUnsafe(MAX_SOURCE_FILE_BYTES + 1);
  let length = 0;
  try {
    for (let read = -1; read !== 0 && length < buffer.length; length += read)
      read = readSync(0, buffer, length, buffer.length - length, null);
  } catch {
    // Not readable so (non-blocking: EAGAIN; closed): the rest comes as a stream.
    for await (const chunk of process.stdin) {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
      length += bytes.copy(buffer, length);
      if (length === buffer.length) break;
    }
  }
  if (length > MAX_SOURCE_FILE_BYTES) throw sourceTooLarge("standard input");
  return decodeText(buffer.subarray(0, length), "standard input");
}

/**
 * Bytes read as UTF-8 text (a byte order mark kept: `readSource` drops it), bytes that are not
 * UTF-8 an error naming the first one's offset, never U+FFFD put in silently.
 */
export function decodeText(bytes: Uint8Array, name: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    const offset = firstInvalidUtf8Byte(bytes);
    const byte = bytes[offset]!.toString(16).toUpperCase().padStart(2, "0");
    throw new UserError(`${name} is not valid UTF-8: byte ${offset} (0x${byte}) is not; save it as UTF-8`);
  }
}

/** The offset of the byte where UTF-8 decoding of `bytes` fails (they are known not to be UTF-8). */
function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  // A streaming decoder fails on a prefix once the prefix holds a bad sequence: search for the shortest.
  const fails = (length: number) => {
    try {
      new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, length), { stream: true });
      return false;
    } catch {
      return true;
    }
  };
  let low = 1;
  let high = bytes.length;
  if (!fails(high)) {
    // Only a sequence cut off at the end: it starts at the last lead byte.
    let start = bytes.length - 1;
    while (start > 0 && (bytes[start]! & 0xc0) === 0x80) start--;
    return start;
  }
  while (low < high) {
    const middle = (low + high) >> 1;
    if (fails(middle)) high = middle;
    else low = middle + 1;
  }
  // The byte that made it fail; when it cut short a sequence begun before it, that sequence's start.
  const failing = low - 1;
  if ((bytes[failing]! & 0xc0) === 0x80) return failing;
  let start = failing - 1;
  while (start > 0 && (bytes[start]! & 0xc0) === 0x80) start--;
  return start >= 0 && (bytes[start]! & 0xc0) === 0xc0 ? start : failing;
}

export function processIO(): CliIO {
  return {
    stdout: writeText,
    stderr: (text) => process.stderr.write(text),
    readStdin: readProcessStdin,
    env: process.env,
    // A getter: creating process.stderr costs start-up time, and most runs never ask.
    get stderrIsTTY() {
      return process.stderr.isTTY === true;
    },
    cwd: process.cwd(),
    stdinBytes: () => process.stdin,
    writeStdout: writeBytes,
    stdoutGone: stdoutReaderGone,
  };
}

/**
 * Reads filter source or filter JSON from a file argument, or standard input for `-` or no
 * argument: UTF-8 only, a byte order mark at the start dropped (the rule of `withoutByteOrderMark`;
 * `byteOrderMark` says whether there was one, for `fmt --write` to keep it). A file may be a fifo
 * or a device unless `accept` asks for a regular file (one `fmt --write` writes back).
 */
export async function readSource(
  io: CliIO,
  file: string | undefined,
  accept: Accept = "stream",
): Promise<{ text: string; name: string; byteOrderMark: boolean }> {
  if (file === undefined || file === "-") return withMark(await io.readStdin(), "<stdin>");
  return withMark(decodeText(await readSourceBytes(file, accept), file), file);
}

/**
 * A file that cannot be opened or read, as the user's problem to fix rather than a crash: missing,
 * a directory, not permitted, or failing to read after it was found (a disk error, removed meanwhile).
 */
export function cannotRead(path: string, error: unknown): UserError {
  return new UserError(cannotReadText(path, fileProblem(error)));
}

/** The message of a file that cannot be read, `reason` worded by fileProblem: also a log input's (LogReadError). */
export const cannotReadText = (path: string, reason: string) =>
  `cannot read ${terminalName(path)}: ${reason}`;

/** A file or folder that cannot be written: a file where a folder should be, not permitted, a full disk. */
export function cannotWrite(path: string, error: unknown): UserError {
  return new UserError(`cannot write ${terminalName(path)}: ${fileProblem(error, "no such folder")}`);
}

export function useColor(io: CliIO): boolean {
  // https://no-color.org: NO_COLOR turns colour off when it is set and not empty.
  return io.stderrIsTTY && !io.env["NO_COLOR"];
}

function withMark(read: string, name: string): { text: string; name: string; byteOrderMark: boolean } {
  const text = withoutByteOrderMark(read);
  return { text, name, byteOrderMark: text.length < read.length };
}
