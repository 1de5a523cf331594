// `filterc diff` speed: diffs per second of two 30-comparison filters (generated pairs: a filter
// and the same filter with one comparison changed), beside the compile of the same two filters,
// measured in turns in the same run. Run `npm run build` first; prints a markdown section.
import os from "node:os";
import { check, compile, diffFilters } from "../dist/index.js";
import { machine, median, medianRatio, ratesInTurns } from "./measure.mjs";

/** A small deterministic generator (mulberry32), so every run measures the same pairs. */
function random(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const comparisons = [
  (r) =>
    `EdgeResponseStatus ${["eq", "!eq", "lt", "geq", "gt"][Math.floor(r() * 5)]} ${400 + Math.floor(r() * 200)}`,
  (r) => `BotScore ${["lt", "gt", "leq", "!eq"][Math.floor(r() * 4)]} ${Math.floor(r() * 100)}`,
  (r) =>
    `ClientRequestPath ${["startsWith", "!startsWith", "contains", "endsWith"][Math.floor(r() * 4)]} "/${["api", "a", "health", "v1/", "x"][Math.floor(r() * 5)]}"`,
  (r) =>
    `ClientRequestHost ${["eq", "!eq"][Math.floor(r() * 2)]} "${["a.io", "b.io", "c.io"][Math.floor(r() * 3)]}"`,
  (r) => `ClientCountry in ["${["us", "de", "fr"][Math.floor(r() * 3)]}", "gb"]`,
  (r) =>
    `SecurityActions ${["contains", "!contains"][Math.floor(r() * 2)]} "${["block", "log"][Math.floor(r() * 2)]}"`,
  (r) => `CacheTieredFill eq ${r() < 0.5}`,
];

/** 30 comparisons: an `and` of `or` groups of 2–4 comparisons, some negated. */
function generated(r) {
  const groups = [];
  let count = 0;
  while (count < 30) {
    const size = Math.min(2 + Math.floor(r() * 3), 30 - count);
    const parts = Array.from({ length: size }, () => comparisons[Math.floor(r() * comparisons.length)](r));
    count += size;
    const text = parts.length === 1 ? parts[0] : `(${parts.join(" or ")})`;
    groups.push(r() < 0.2 ? `not ${text}` : text);
  }
  return groups;
}

const pairs = [];
const r = random(16);
while (pairs.length < 50) {
  const groups = generated(r);
  const changed = [...groups];
  changed[Math.floor(r() * changed.length)] = comparisons[Math.floor(r() * comparisons.length)](r);
  const a = check(groups.join(" and ")).condition;
  const b = check(changed.join(" and ")).condition;
  if (a && b) pairs.push({ a, b, sources: [groups.join(" and "), changed.join(" and ")] });
}

let next = 0;
const relations = {};
for (const pair of pairs) {
  const result = diffFilters(pair.a, pair.b);
  const key = result.decided ? result.relation : "undecided";
  relations[key] = (relations[key] ?? 0) + 1;
}
const slowest = Math.max(
  ...pairs.map((pair) => {
    const start = performance.now();
    diffFilters(pair.a, pair.b);
    return performance.now() - start;
  }),
);
const rates = ratesInTurns(
  {
    diff: () => {
      const pair = pairs[next++ % pairs.length];
      diffFilters(pair.a, pair.b);
    },
    compile: () => {
      const pair = pairs[next++ % pairs.length];
      compile(pair.sources[0]);
      compile(pair.sources[1]);
    },
  },
  { rounds: 15, roundMs: 200 },
);

console.log(`## diff\n`);
console.log(`${machine()}, load average ${os.loadavg()[0].toFixed(1)} (other work shared the machine).`);
console.log(`\n| pairs | relations | diff/s | compile of both/s | diff vs compile of both | slowest diff |`);
console.log(`|---|---|---|---|---|---|`);
console.log(
  `| ${pairs.length} generated pairs of 30 comparisons | ${Object.entries(relations)
    .map(([k, v]) => `${k} ${v}`)
    .join(
      ", ",
    )} | ${Math.round(median(rates.diff)).toLocaleString("en")} | ${Math.round(median(rates.compile)).toLocaleString("en")} | ${medianRatio(rates, "diff", "compile")} | ${slowest.toFixed(1)} ms |`,
);
console.log(`\nReproduce: \`npm run build && node bench/diff.mjs\``);
