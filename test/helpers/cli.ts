import { spawn } from "node:child_process";
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
  return new Promise((resolve, reject) => {
    const fd = typeof stdin === "string" ? "pipe" : openSync(stdin.file, "r");
    const child = spawn(process.execPath, [builtCli(), ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: "1", ...env },
      stdio: [fd, "pipe", "pipe"],
    });
    if (typeof fd === "number") closeSync(fd); // the child has its own
    let stdout = "";
    let stderr = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
    if (typeof stdin === "string") child.stdin!.end(stdin);
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
