import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { writeBytes, writeText } from "./stdout.js";

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
}

/** A mistake in how the command was called: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
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

export async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Standard input as text. Read synchronously from the descriptor where it can be: creating
 * `process.stdin` loads Node's stream and socket modules, a tenth of a short command's run time.
 * A descriptor that cannot be read so (non-blocking: EAGAIN; closed) is read as a stream instead.
 */
function readProcessStdin(): Promise<string> {
  try {
    return Promise.resolve(readFileSync(0, "utf8"));
  } catch {
    return readStream(process.stdin);
  }
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
  };
}

/** Reads a file argument, or standard input for `-` or no argument. */
export async function readSource(
  io: CliIO,
  file: string | undefined,
): Promise<{ text: string; name: string }> {
  if (file === undefined || file === "-") return { text: await io.readStdin(), name: "<stdin>" };
  try {
    return { text: await readFile(file, "utf8"), name: file };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "is a directory"
          : code === "EACCES"
            ? "permission denied"
            : String((error as Error).message);
    throw new UserError(`cannot read ${file}: ${reason}`);
  }
}

export function useColor(io: CliIO): boolean {
  // https://no-color.org: NO_COLOR turns colour off when it is set and not empty.
  return io.stderrIsTTY && !io.env["NO_COLOR"];
}
