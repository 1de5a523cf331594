// `filterc compile` of a small filter as a whole process, beside `node -e 0`. Run `npm run build`
// first; prints a markdown section. `node bench/startup.mjs OTHER/dist` also measures the CLI of
// another build (an older commit built elsewhere) in the same rounds.
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { machine, processMs, ratio } from "./measure.mjs";

const cli = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const source = "EdgeResponseStatus geq 500 and BotScore lt 30";
const runs = 31;

// Interleave the two so that machine noise hits both alike; each figure is the median of its runs.
const baselineCli = process.argv[2] && resolve(process.argv[2], "cli.cjs");
const node = [];
const filterc = [];
const baseline = [];
for (let round = 0; round < 3; round++) {
  node.push(processMs(process.execPath, ["-e", "0"], { runs }));
  filterc.push(processMs(process.execPath, [cli, "compile"], { runs, input: source }));
  if (baselineCli)
    baseline.push(processMs(process.execPath, [baselineCli, "compile"], { runs, input: source }));
}
const nodeMs = Math.min(...node);
const filtercMs = Math.min(...filterc);
const baselineRow = baselineCli
  ? `\n| \`filterc compile\` (baseline build) | ${Math.min(...baseline).toFixed(1)} | ${ratio(Math.min(...baseline), nodeMs)} |`
  : "";

console.log(`## startup

\`filterc compile\` of a ${source.length}-byte filter from standard input, as a whole process, beside
\`node -e 0\`. Best of 3 medians of ${runs} runs each. ${machine()}.

| process | ms | ratio |
|---|---|---|
| \`node -e 0\` | ${nodeMs.toFixed(1)} | 1.00× |
| \`filterc compile\` | ${filtercMs.toFixed(1)} | ${ratio(filtercMs, nodeMs)} |${baselineRow}

Target: at most 1.5×. Reproduce: \`npm run build && node bench/startup.mjs\`
`);
