import { ensureConsole } from "./bundles.js";
import { type ServingCli, startServingCli } from "./served.js";

export interface RunningConsole extends Omit<ServingCli, "match"> {
  /** The address it printed first, with the session token. */
  url: string;
  origin: string;
  token: string;
}

/** Starts the built `filterc console` and waits for what it prints on start. */
export async function startConsoleCli(
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
): Promise<RunningConsole> {
  ensureConsole();
  const { match, lines, stop } = await startServingCli(
    ["console", ...args],
    /^(http:\/\/127\.0\.0\.1:\d+)\/#token=([A-Za-z0-9_-]+)\nAPI: .*\n/,
    env,
    cwd,
  );
  return { url: `${match[1]}/#token=${match[2]}`, origin: match[1]!, token: match[2]!, lines, stop };
}
