import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { builtCli } from "./bundles.js";

export interface ServingCli {
  /** What `ready` matched in the command's stdout. */
  match: RegExpExecArray;
  /** Every line it printed on start. */
  lines: string[];
  /** Sends `signal` and resolves with the exit code and what the command wrote on stderr. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; stderr: string }>;
}

/**
 * Starts the built `filterc` with `args` (a command that serves: playground, console) and waits
 * until its stdout matches `ready`; rejects with its stderr if it exits first.
 */
export function startServingCli(
  args: string[],
  ready: RegExp,
  env: Record<string, string> = {},
  cwd?: string,
): Promise<ServingCli> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [builtCli(), ...args], {
    env: { ...process.env, NO_COLOR: "1", ...env },
    ...(cwd ? { cwd } : {}),
  });
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    exited.then((code) => reject(new Error(`filterc ${args[0]} exited (${code}) before serving: ${stderr}`)));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = ready.exec(stdout);
      if (!match) return;
      resolve({
        match,
        lines: stdout.trimEnd().split("\n"),
        stop: async (signal = "SIGTERM") => {
          child.kill(signal);
          return { code: await exited, stderr };
        },
      });
    });
  });
}
