import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { CliIO } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { builtCli } from "./bundles.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI in-process against the source tree, with the given standard input (and, to test
 * terminal output, a TTY stderr), from `cwd` (where relative paths and filterc.json are looked up).
 */
export async function runCli(
  args: string[],
  stdin = "",
  env: Record<string, string | undefined> = {},
  stderrIsTTY = false,
  cwd = process.cwd(),
): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const io: CliIO = {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    readStdin: async () => stdin,
    env,
    stderrIsTTY,
    cwd,
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/**
 * Runs the built `filterc` as a separate process, as a user's shell would; standard input is the
 * text given, or a file (a device) as `< FILE` gives it.
 */
export function spawnCli(
  args: string[],
  stdin: string | { file: string } = "",
  env: Record<string, string> = {},
  cwd?: string,
): Promise<CliRun> {
  const fd = typeof stdin === "string" ? "pipe" : openSync(stdin.file, "r");
  const child = spawn(process.execPath, [builtCli(), ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: "1", ...env },
    stdio: [fd, "pipe", "pipe"],
  });
  if (typeof fd === "number") closeSync(fd); // the child has its own
  if (typeof stdin === "string") child.stdin!.end(stdin);
  return outputOf(child);
}

export interface ByteRun {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs the built `filterc` with binary standard input, after `nodeArgs` for Node itself; stdout is
 * kept as bytes.
 */
export function spawnBytes(
  args: string[],
  stdin: Buffer | string = "",
  nodeArgs: string[] = [],
): Promise<ByteRun> {
  const child = spawn(process.execPath, [...nodeArgs, builtCli(), ...args], {
    env: { ...process.env, NO_COLOR: "1" },
  });
  child.stdin.end(stdin);
  return outputOf(child, "bytes");
}

/** What a child process wrote, once it has closed: its exit code, stdout (as text or bytes) and stderr. */
export function outputOf(child: ChildProcess): Promise<CliRun>;
export function outputOf(child: ChildProcess, stdout: "bytes"): Promise<ByteRun>;
export function outputOf(child: ChildProcess, stdout: "text" | "bytes" = "text"): Promise<CliRun | ByteRun> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let stderr = "";
    child.stdout!.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const bytes = Buffer.concat(chunks);
      const run = { code: code ?? -1, stderr };
      resolve(stdout === "bytes" ? { ...run, stdout: bytes } : { ...run, stdout: bytes.toString("utf8") });
    });
  });
}

/**
 * What `filterc eval --jobs N` says first on stderr where N is above this machine's cores (and
 * nothing otherwise): tests that run more workers than CI's two cores expect it before the summary.
 */
export function jobsNote(jobs: number | string): string {
  const cores = availableParallelism();
  return Number(jobs) > cores
    ? `filterc eval: --jobs ${jobs} is more than the ${cores} cores here: the workers share them\n`
    : "";
}
