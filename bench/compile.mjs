// Compile (parse + check + emit) per second for a small, a medium and a large filter, beside
// jsep's and cel-js's parse of the same expressions written in their syntax, in the same run.
// Run `npm run build` first; prints a markdown section. `node bench/compile.mjs OTHER/dist` also
// measures the compile of another build (an older commit built elsewhere) in the same turns.
// Where the compile's time goes, step by step: bench/compile-steps.mjs.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parse as celParse } from "@marcbachmann/cel-js";
import jsep from "jsep";
import { compile, parse } from "../dist/index.js";

const baselineDist = process.argv[2];
const baseline = baselineDist && (await import(pathToFileURL(resolve(baselineDist, "index.js")).href));

import { cases, options } from "./compile-filters.mjs";
import { machine, median, medianRatio, ratesInTurns } from "./measure.mjs";

jsep.addBinaryOp("in", 9);

for (const [name, { filterc }] of cases) {
  const result = compile(filterc, options);
  if (!result.ok) throw new Error(`${name} does not compile: ${result.diagnostics[0].message}`);
}

const rows = [];
for (const [name, { filterc, cel }] of cases) {
  const rates = ratesInTurns({
    compile: () => compile(filterc, options),
    parse: () => parse(filterc, options),
    jsep: () => jsep(cel),
    cel: () => celParse(cel),
    ...(baseline ? { baseline: () => baseline.compile(filterc, options) } : {}),
  });
  const perSecond = (name) => Math.round(median(rates[name])).toLocaleString("en");
  const operators = compile(filterc, options).stats.operators;
  rows.push(
    `| ${name} | ${filterc.length} B, ${operators} comparisons | ${perSecond("compile")} | ${perSecond("parse")} | ` +
      `${perSecond("jsep")} | ${perSecond("cel")} | ${medianRatio(rates, "compile", "jsep")} | ` +
      `${medianRatio(rates, "parse", "jsep")} | ${medianRatio(rates, "compile", "cel")} |` +
      (baseline ? ` ${perSecond("baseline")} | ${medianRatio(rates, "compile", "baseline")} |` : ""),
  );
}

console.log(`## compile

Whole compile (parse + check + emit) per second, beside the parse alone of the same expression by
jsep and by @marcbachmann/cel-js (written in their syntax: \`&&\`, \`||\`, \`!\`, \`x.startsWith(…)\`,
\`x in […]\`), measured in the same run. Ratios above 1× mean filterc's whole compile is faster
than the other's parse alone; filterc's own parse alone is shown too. The four are measured in
turns, 15 rounds of 100 ms each; rates are medians over rounds, ratios medians of the ratios within
each round. ${machine()}.

| filter | size | filterc compile/s | filterc parse/s | jsep parse/s | cel-js parse/s | compile vs jsep | parse vs jsep | compile vs cel-js |${baseline ? " baseline compile/s | compile vs baseline |" : ""}
|---|---|---|---|---|---|---|---|---|${baseline ? "---|---|" : ""}
${rows.join("\n")}

Reproduce: \`npm run build && node bench/compile.mjs\`
`);
