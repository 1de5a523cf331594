// Instructions per call of the large filter's compile (and of its scan, parse, check and emit),
// beside jsep's parse of the same expression: counts from valgrind's cachegrind, deterministic
// whatever else the machine runs, where the timings of bench/compile.mjs move with the load. Each
// is counted over a loop of 1,000 and of 3,000 calls, in its own process
// (`node --single-threaded --predictable-gc-schedule`, fixed seeds); the difference over 2,000 leaves out start-up and V8's compiling.
//
//   node bench/compile-instructions.mjs [OLDER] [--steps compile,scan,…]
//
// OLDER is a checkout of an older commit: its src is bundled and counted too (no build needed).
// Needs valgrind; each count takes about a minute, two run at once. Prints a markdown table.
// Child mode (what valgrind runs): `node bench/compile-instructions.mjs --loop MODULE STEP N`.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { bundleSource, STEP_MODULES } from "./bundle-source.mjs";
import { large as largeFilter, options } from "./compile-filters.mjs";
import { machine } from "./measure.mjs";

const large = largeFilter.filterc;
const largeJsep = largeFilter.cel;

/** A step's call on the large filter's own input to that step (only that step's input is made). */
function stepOf(m, step) {
  switch (step) {
    case "compile":
      return () => m.compile(large, options);
    case "scan":
      return () => m.scan(large);
    case "parse":
      return () => m.parse(large);
    case "analysis": {
      const catalog = m.getCatalog("http_requests");
      const expr = m.parse(large).filter.expr;
      return () => m.analyzeExpr(expr, catalog, large, []);
    }
    case "emit": {
      const normal = m.check(large, {}).meaning;
      return () => m.emitMeaning(normal, options);
    }
    case "serialize": {
      const optimized = m.optimize(m.check(large, {}).meaning);
      return () => m.serialize(optimized);
    }
  }
  throw new Error(`no step ${step}`);
}

if (process.argv[2] === "--loop") {
  const [, , , module, step, calls] = process.argv;
  let fn;
  if (step === "jsep") {
    const { default: jsep } = await import("jsep");
    jsep.addBinaryOp("in", 9);
    fn = () => jsep(largeJsep);
  } else fn = stepOf(await import(module), step);
  for (let i = 0; i < Number(calls); i++) fn();
} else {
  const args = process.argv.slice(2);
  const stepsAt = args.indexOf("--steps");
  const steps =
    stepsAt === -1 ? ["compile", "scan", "parse", "analysis", "emit"] : args[stepsAt + 1].split(",");
  const older = args.find((arg, i) => !arg.startsWith("--") && args[i - 1] !== "--steps");
  const work = mkdtempSync(join(tmpdir(), "compile-instructions-"));
  /** The steps of the source tree at `root`, bundled into one module. */
  const bundle = (root, name) => bundleSource(root, STEP_MODULES, work, name);
  const run = promisify(execFile);
  const self = fileURLToPath(import.meta.url);
  async function instructions(module, step, calls) {
    const { stderr } = await run("valgrind", [
      "--tool=cachegrind",
      "--cache-sim=no",
      "--cachegrind-out-file=/dev/null",
      "node",
      // One thread, the collector on a fixed schedule (not one paced by time, which valgrind
      // slows), and fixed seeds for hashing: the same count at every run, to a few in a million.
      "--single-threaded",
      "--predictable-gc-schedule",
      "--hash-seed=1",
      "--random-seed=1",
      self,
      "--loop",
      module,
      step,
      String(calls),
    ]);
    return Number(/I\s+refs:\s+([\d,]+)/.exec(stderr)[1].replaceAll(",", ""));
  }
  async function perCall(module, step) {
    const [few, many] = await Promise.all([
      instructions(module, step, 1000),
      instructions(module, step, 3000),
    ]);
    return Math.round((many - few) / 2000);
  }
  const builds = { "this build": await bundle(".", "current") };
  if (older) builds["older build"] = await bundle(older, "older");
  const jsep = await perCall(builds["this build"], "jsep");
  const rows = [];
  for (const step of steps) {
    const counts = [];
    for (const module of Object.values(builds)) counts.push(await perCall(module, step));
    const vsJsep = step === "compile" ? ` (${(counts[0] / jsep).toFixed(3)}× jsep's)` : "";
    rows.push(
      `| ${step} | ${counts[0].toLocaleString("en")}${vsJsep} |` +
        (older
          ? ` ${counts[1].toLocaleString("en")} | ${(((counts[0] - counts[1]) / counts[1]) * 100).toFixed(1)}% |`
          : ""),
    );
  }
  rmSync(work, { recursive: true });
  console.log(`## compile, in instructions

Instructions per call on the large filter (${large.length} B, 30 comparisons), counted by cachegrind:
(count of 3,000 calls − count of 1,000) / 2,000. jsep's parse of the same expression: ${jsep.toLocaleString("en")}. ${machine()}.

| step | this build |${older ? " older build | change |" : ""}
|---|---|${older ? "---|---|" : ""}
${rows.join("\n")}

Reproduce: \`node bench/compile-instructions.mjs${older ? " OLDER" : ""}\`
`);
}
