import { brokenInstallText } from "./broken-install.js";
import { processIO } from "./io.js";
import { main } from "./main.js";

let finished = false;

main(process.argv.slice(2), processIO()).then(
  (code) => {
    finished = true;
    process.exitCode = code;
  },
  (error: unknown) => {
    finished = true;
    // Only a bug or a broken install gets here: user mistakes are diagnostics, usage or user errors.
    process.stderr.write(
      brokenInstallText(error) ??
        `filterc: internal error: ${(error as Error)?.stack ?? String(error)}\nPlease report this with the input that caused it.\n`,
    );
    process.exitCode = 70;
  },
);

// Node ends a process whose event loop has nothing left to do, with status 0, even while the
// command still awaits something: a callback that never comes. eval on a gzip file with corrupt
// deflate data once ended so, writing nothing, no summary, status 0. Such an end is a bug, said so.
process.on("beforeExit", () => {
  if (finished) return;
  finished = true;
  process.stderr.write(
    "filterc: internal error: the command ended before it finished (it waited for something that never came)\nPlease report this with the input that caused it.\n",
  );
  process.exitCode = 70;
});
