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
const turns = 105;

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

/** One run of a process: its wall-clock and CPU milliseconds (user + system of the whole process). */
function processTime(args, input) {
  const cpuBefore = childrenCpuMs();
  const start = performance.now();
  const result = spawnSync(process.execPath, args, { input, stdio: ["pipe", "ignore", "ignore"] });
  const wall = performance.now() - start;
  if (result.status !== 0) throw new Error(`node ${args.join(" ")} exited ${result.status}`);
  return { wall, cpu: childrenCpuMs() - cpuBefore };
}

const builds = { this: resolve(dist, "cli.cjs") };
if (process.argv[2]) builds.baseline = resolve(process.argv[2], "cli.cjs");

// Every process once a turn, the order turned round each time, so that the machine's changes of
// speed (large here, from second to second) hit all alike: a ratio is the median over turns of
// the process's time over `node -e 0`'s in the same turn. CPU time is counted by /proc in ticks
// of 10 ms, too coarse for one run: its figure is the mean over all turns.
const load = [loadavg()[0]];
const processes = { node: { args: ["-e", "0"], input: "" } };
for (const [build, cli] of Object.entries(builds))
  for (const [name, { args, input }] of Object.entries(commands))
    processes[`${build} ${name}`] = { args: [cli, ...args], input };
const keys = Object.keys(processes);
const times = Object.fromEntries(keys.map((key) => [key, []]));
for (let turn = 0; turn < turns; turn++)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[(turn + i) % keys.length];
    times[key].push(processTime(processes[key].args, processes[key].input));
  }
load.push(loadavg()[0]);
rmSync(folder, { recursive: true });

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / values.length;
/** A row: the median wall-clock ms and the mean CPU ms, each against `node -e 0`'s (see above). */
function row(label, key) {
  const wall = times[key].map((run) => run.wall);
  const wallRatio = median(wall.map((ms, turn) => ms / times.node[turn].wall));
  const cpu = mean(times[key].map((run) => run.cpu));
  return `| ${label} | ${median(wall).toFixed(1)} | ${ratio(wallRatio, 1)} | ${cpu.toFixed(1)} | ${ratio(cpu, mean(times.node.map((run) => run.cpu)))} |`;
}
const rows = [];
for (const build of Object.keys(builds))
  for (const name of Object.keys(commands))
    rows.push(
      row(`\`filterc ${name}\`${build === "baseline" ? " (baseline build)" : ""}`, `${build} ${name}`),
    );

console.log(`## startup

\`filterc compile\` and \`fmt\` of a ${source.length}-byte filter from standard input, and \`filterc check\`
of it in a file, as whole processes, beside \`node -e 0\`, each once a turn over ${turns} turns: wall-clock
time, the median of the runs, and its ratio, the median over turns of the ratio within a turn;
CPU time (user + system of the whole process), the mean of the runs. ${machine()}, load average ${load.map((value) => value.toFixed(1)).join(" → ")}.

| process | wall ms | ratio | CPU ms | ratio |
|---|---|---|---|---|
${row("`node -e 0`", "node")}
${rows.join("\n")}

Target: at most 1.3×. Reproduce: \`npm run build && node bench/startup.mjs\`
`);
