import { ensurePlayground } from "./bundles.js";
import { type ServingCli, startServingCli } from "./served.js";

export interface RunningPlayground extends Pick<ServingCli, "stop"> {
  url: string;
}

/** Starts the built `filterc playground` and waits for the address it prints. */
export async function startPlayground(args: string[] = ["--port", "0"]): Promise<RunningPlayground> {
  ensurePlayground();
  const { match, stop } = await startServingCli(
    ["playground", ...args],
    /^filterc playground: (http:\/\/127\.0\.0\.1:\d+\/)\n/,
  );
  return { url: match[1]!, stop };
}
