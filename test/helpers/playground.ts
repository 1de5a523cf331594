import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { builtCli, ensurePlayground } from "./bundles.js";

export interface RunningPlayground {
  url: string;
  /** Sends `signal` and resolves with the exit code and what the command wrote on stderr. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; stderr: string }>;
}

/** Starts the built `filterc playground` and waits for the address it prints. */
export function startPlayground(args: string[] = ["--port", "0"]): Promise<RunningPlayground> {
  ensurePlayground();
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [builtCli(), "playground", ...args]);
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    exited.then((code) => reject(new Error(`filterc playground exited (${code}) before serving: ${stderr}`)));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const match = /^filterc playground: (http:\/\/127\.0\.0\.1:\d+\/)\n/.exec(stdout);
      if (!match) return;
      resolve({
        url: match[1]!,
        stop: async (signal = "SIGTERM") => {
          child.kill(signal);
          return { code: await exited, stderr };
        },
      });
    });
  });
}
