import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { serveStatic } from "../../console/static-server.js";
import { moduleFile } from "../../files/index.js";
import { parseCommandArgs, parseCount } from "../args.js";
import { type CliIO, UsageError, UserError } from "../io.js";
import { untilStopped } from "../signals.js";

export const usage = `filterc playground [--port P]

Serves the playground page (editor, live JSON with the limit gauges, diagnostics, decompiler and a
log-line runner) on http://127.0.0.1 and prints its address. Stops on Ctrl-C (SIGINT) or SIGTERM.

Options:
  --port P      port to listen on (default 0: a free port)
Exit status: 0 stopped, 1 cannot serve (port in use, page not built), 2 usage.`;

/** The built page ships beside the CLI bundle, in dist/playground. */
const pageFolder = join(dirname(moduleFile(import.meta.url)), "playground/");

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values } = parseCommandArgs(argv, { port: { type: "string" } }, false);
  const port = parseCount(values.port, "--port") ?? 0;
  if (port > 65535) throw new UsageError(`--port takes a port number up to 65535, not ${port}`);
  if (!existsSync(`${pageFolder}index.html`))
    throw new UserError("the playground page is not built; run npm run build");
  let server: Awaited<ReturnType<typeof serveStatic>>;
  try {
    server = await serveStatic(pageFolder, port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new UserError(`port ${port} is in use`);
    if (code === "EACCES") throw new UserError(`no permission to listen on port ${port}`);
    throw error;
  }
  // Listen for the signals before printing the address: whoever reads it may stop the server at once.
  const stopped = untilStopped();
  io.stdout(`filterc playground: ${server.url}\n`);
  const signal = await stopped;
  await server.close();
  io.stderr(`filterc playground: stopped (${signal})\n`);
  return 0;
}
