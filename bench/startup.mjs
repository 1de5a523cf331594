// `filterc compile` of a small filter as a whole process, beside `node -e 0`. Run `npm run build`
// first; prints a markdown section.
import { fileURLToPath } from "node:url";
import { machine, processMs, ratio } from "./measure.mjs";

const cli = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const source = "EdgeResponseStatus geq 500 and BotScore lt 30";
const runs = 31;

// Interleave the two so that machine noise hits both alike; each figure is the median of its runs.
const node = [];
const filterc = [];
for (let round = 0; round < 3; round++) {
  node.push(processMs(process.execPath, ["-e", "0"], { runs }));
  filterc.push(processMs(process.execPath, [cli, "compile"], { runs, input: source }));
}
const nodeMs = Math.min(...node);
const filtercMs = Math.min(...filterc);

console.log(`## startup

\`filterc compile\` of a ${source.length}-byte filter from standard input, as a whole process, beside
\`node -e 0\`. Best of 3 medians of ${runs} runs each. ${machine()}.

| process | ms | ratio |
|---|---|---|
| \`node -e 0\` | ${nodeMs.toFixed(1)} | 1.00× |
| \`filterc compile\` | ${filtercMs.toFixed(1)} | ${ratio(filtercMs, nodeMs)} |

Target: at most 1.5×. Reproduce: \`npm run build && node bench/startup.mjs\`
`);
