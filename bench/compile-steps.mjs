// The steps of `compile` on the large filter of bench/compile.mjs, each run alone in a loop on its
// own input (scan, the well-formed parse, the checker, the normal form's warnings, optimize,
// serialize, …), in CPU microseconds per call: where the compile's time goes. The steps are not
// exported, so the source is bundled here with esbuild (no build needed). `node
// bench/compile-steps.mjs OLDER` also bundles OLDER/src (a checkout of an older commit) and
// measures both in turns, with the ratio of each step. Prints a markdown section.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bundleSource, STEP_MODULES } from "./bundle-source.mjs";
import { large as largeFilter, options } from "./compile-filters.mjs";
import { machine, median } from "./measure.mjs";

const large = largeFilter.filterc;

const work = mkdtempSync(join(tmpdir(), "compile-steps-"));
/** The steps of the source tree at `root`, bundled into one module. */
const load = async (root, name) => import(await bundleSource(root, STEP_MODULES, work, name));

function stepsOf(m) {
  const catalog = m.getCatalog("http_requests");
  const lexed = m.scan(large);
  const expr = m.parse(large).filter.expr;
  const normal = m.toNegationNormalForm(new m.Checker(catalog, large).checkExpr(expr));
  const optimized = m.optimize(normal);
  return {
    "**compile**, the whole": () => m.compile(large, options),
    "**parse**": () => m.parse(large),
    "· scan": () => m.scan(large),
    "· well-formed parse (tokens → AST)": () => m.parseWellFormed(lexed.tokens),
    "· token lints": () => m.lintTokens(lexed, large, []),
    "· keyword slips": () => m.readKeywordSlips(lexed.tokens, lexed.shortWords, []),
    "**analysis** (`analyzeExpr`, on the AST)": () => m.analyzeExpr(expr, catalog, large, []),
    "· checker (catalog, operator matrix, values)": () => new m.Checker(catalog, large).checkExpr(expr),
    "· normal form (`not` pushed down)": () => m.toNegationNormalForm(normal),
    "· constant comparisons and groups (W0103–W0106)": () => m.findConstantGroups(normal, []),
    "· whole-filter analysis (W0115/W0116)": () => m.findConstantFilter(normal, []),
    "**emit** (`emitMeaning`)": () => m.emitMeaning(normal, options),
    "· optimize": () => m.optimize(normal),
    "· serialize": () => m.serialize(optimized),
  };
}

/** CPU microseconds per call of `fn`, over at least `ms` milliseconds of CPU time. */
function cpuMicroseconds(fn, ms) {
  let calls = 0;
  const start = process.cpuUsage();
  let used = 0;
  while (used < ms * 1000) {
    for (let i = 0; i < 20; i++) fn();
    calls += 20;
    const { user, system } = process.cpuUsage(start);
    used = user + system;
  }
  return used / calls;
}

const older = process.argv[2];
const builds = { current: stepsOf(await load(".", "current")) };
if (older) builds.older = stepsOf(await load(older, "older"));
rmSync(work, { recursive: true });

const rounds = 11;
const times = Object.fromEntries(
  Object.keys(builds.current).map((name) => [
    name,
    Object.fromEntries(Object.keys(builds).map((b) => [b, []])),
  ]),
);
for (const steps of Object.values(builds)) for (const fn of Object.values(steps)) cpuMicroseconds(fn, 200);
for (let round = 0; round < rounds; round++) {
  for (const name of Object.keys(builds.current)) {
    // The builds take turns going first, so that neither always runs right after the other.
    const order = round % 2 ? Object.keys(builds).reverse() : Object.keys(builds);
    for (const build of order) {
      times[name][build].push(cpuMicroseconds(builds[build][name], 40));
    }
  }
}

const rows = Object.entries(times).map(([name, byBuild]) => {
  const current = median(byBuild.current).toFixed(1);
  if (!older) return `| ${name} | ${current} |`;
  const ratios = byBuild.older.map((time, round) => time / byBuild.current[round]);
  return `| ${name} | ${current} | ${median(byBuild.older).toFixed(1)} | ${median(ratios).toFixed(2)}× |`;
});

console.log(`## compile, step by step

The steps of \`compile\` on the large filter (${large.length} B, 30 comparisons), each run alone in a
loop on its own input; CPU microseconds per call, medians of ${rounds} rounds of 40 ms${older ? ", the two builds in turns; the ratio is the median of the rounds' ratios (above 1×: this build is faster)" : ""}. ${machine()}.

| step | µs per call |${older ? " older build | older / this |" : ""}
|---|---|${older ? "---|---|" : ""}
${rows.join("\n")}

Reproduce: \`node bench/compile-steps.mjs${older ? " OLDER" : ""}\`
`);
