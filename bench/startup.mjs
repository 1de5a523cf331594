// `filterc compile`, `check` and `fmt` of a small filter as whole processes, beside `node -e 0`.
// Run `npm run build` first; prints a markdown section. `node bench/startup.mjs OTHER/dist` also
// measures the CLI of another build (an older commit built elsewhere) in the same rounds.
// `node bench/startup.mjs --modules` prints instead where requiring each short command's bundle
// spends its time, module by module (see startup-modules.mjs).

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { childrenCpuMs, machine, median, ratio } from "./measure.mjs";
import { printModuleTimes } from "./startup-modules.mjs";

if (process.argv[2] === "--modules") {
  await printModuleTimes();
  process.exit(0);
}

const dist = fileURLToPath(new URL("../dist", import.meta.url));
const source = "EdgeResponseStatus geq 500 and BotScore lt 30";
const runs = 21;
const rounds = 5;

// check reads a file: one in a fresh folder, so that no filterc.json of this checkout applies.
const folder = mkdtempSync(join(tmpdir(), "filterc-startup-"));
const file = join(folder, "small.lpf");
writeFileSync(file, `${source}\n`);

/** Each command as run: arguments after the CLI's path, and its standard input. */
const commands = {
  compile: { args: ["compile"], input: source },
  check: { args: ["check", file], input: "" },
  fmt: { args: ["fmt"], input: source },
};

/**
 * One process's wall-clock milliseconds, the median of `runs` runs, and its CPU milliseconds (user +
 * system of the whole process), the mean of those runs: /proc counts in ticks of 10 ms, too coarse
 * for one process. Under load, CPU time moves less than wall-clock time.
 */
function processTimes(args, input) {
  const wall = [];
  const cpuBefore = childrenCpuMs();
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = spawnSync(process.execPath, args, { input, stdio: ["pipe", "ignore", "ignore"] });
    wall.push(performance.now() - start);
    if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited ${result.status}`);
  }
  return { wall: median(wall), cpu: (childrenCpuMs() - cpuBefore) / runs };
}

const builds = { this: resolve(dist, "cli.cjs") };
if (process.argv[2]) builds.baseline = resolve(process.argv[2], "cli.cjs");

// Every process in turns, round after round, so that machine noise hits all alike; each figure
// is the median of its round's runs, and the table the median over rounds.
const load = [loadavg()[0]];
const times = { node: [] };
for (const build of Object.keys(builds))
  for (const name of Object.keys(commands)) times[`${build} ${name}`] = [];
for (let round = 0; round < rounds; round++) {
  times.node.push(processTimes(["-e", "0"]));
  for (const [build, cli] of Object.entries(builds))
    for (const [name, { args, input }] of Object.entries(commands))
      times[`${build} ${name}`].push(processTimes([cli, ...args], input));
}
load.push(loadavg()[0]);
rmSync(folder, { recursive: true });

const figure = (key, kind) => median(times[key].map((round) => round[kind]));
/** A row: wall-clock and CPU ms, medians over rounds, each against `node -e 0`'s. */
function row(label, key) {
  const cells = ["wall", "cpu"].map((kind) => {
    const ms = figure(key, kind);
    return `${ms.toFixed(1)} | ${ratio(ms, figure("node", kind))}`;
  });
  return `| ${label} | ${cells.join(" | ")} |`;
}
const rows = [];
for (const build of Object.keys(builds))
  for (const name of Object.keys(commands))
    rows.push(
      row(`\`filterc ${name}\`${build === "baseline" ? " (baseline build)" : ""}`, `${build} ${name}`),
    );

console.log(`## startup

\`filterc compile\` and \`fmt\` of a ${source.length}-byte filter from standard input, and \`filterc check\`
of it in a file, as whole processes, beside \`node -e 0\`, in turns: medians over ${rounds} rounds of the
medians of ${runs} runs each (CPU time, user + system of the whole process: medians over the rounds of
the mean of each round's runs). ${machine()}, load average ${load.map((value) => value.toFixed(1)).join(" → ")}.

| process | wall ms | ratio | CPU ms | ratio |
|---|---|---|---|---|
${row("`node -e 0`", "node")}
${rows.join("\n")}

Target: at most 1.3×. Reproduce: \`npm run build && node bench/startup.mjs\`
`);
