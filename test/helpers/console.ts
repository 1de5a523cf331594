import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { builtCli, ensureConsole } from "./bundles.js";

export interface RunningConsole {
  /** The address it printed first, with the session token. */
  url: string;
  origin: string;
  token: string;
  /** Every line it printed on start. */
  lines: string[];
  /** Sends `signal` and resolves with the exit code and what the command wrote on stderr. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; stderr: string }>;
}

/** Starts the built `filterc console` and waits for what it prints on start. */
export function startConsoleCli(
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
): Promise<RunningConsole> {
  ensureConsole();
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [builtCli(), "console", ...args], {
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
    exited.then((code) => reject(new Error(`filterc console exited (${code}) before serving: ${stderr}`)));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = /^(http:\/\/127\.0\.0\.1:\d+)\/#token=([A-Za-z0-9_-]+)\nAPI: .*\n/.exec(stdout);
      if (!match) return;
      resolve({
        url: `${match[1]}/#token=${match[2]}`,
        origin: match[1]!,
        token: match[2]!,
        lines: stdout.trimEnd().split("\n"),
        stop: async (signal = "SIGTERM") => {
          child.kill(signal);
          return { code: await exited, stderr };
        },
      });
    });
  });
}
