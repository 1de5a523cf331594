import { readFile } from "node:fs/promises";

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
export class UsageError extends Error {}

/** A failure the user can act on (a missing file, an API error): printed without a stack, exit code 1. */
export class UserError extends Error {}

export async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

export function processIO(): CliIO {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    readStdin: () => readStream(process.stdin),
    env: process.env,
    stderrIsTTY: process.stderr.isTTY === true,
    cwd: process.cwd(),
    stdinBytes: () => process.stdin,
    writeStdout: (bytes) =>
      new Promise((resolve, reject) => {
        if (process.stdout.write(bytes, (error) => error && reject(error))) resolve();
        else process.stdout.once("drain", resolve);
      }),
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
  return io.stderrIsTTY && io.env["NO_COLOR"] === undefined;
}
