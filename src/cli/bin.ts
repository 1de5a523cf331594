import { processIO } from "./io.js";
import { main } from "./main.js";

main(process.argv.slice(2), processIO()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // Only a bug gets here: user mistakes are diagnostics, usage or user errors.
    process.stderr.write(
      `filterc: internal error: ${(error as Error)?.stack ?? String(error)}\nPlease report this with the input that caused it.\n`,
    );
    process.exitCode = 70;
  },
);
