// `filterc eval` on a generated 500,000-line http_requests NDJSON file, beside the floor of a
// parse-then-test design (read + JSON.parse of every line, bench/json-parse-floor.mjs) and jq,
// with the same three filters. Run `npm run build` first; prints a markdown section.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { compile } from "../dist/index.js";
import { writeHttpRequests } from "./http-requests.mjs";
import { machine, median, ratio } from "./measure.mjs";

const LINES = 500_000;
const RUNS = 3;
const out = fileURLToPath(new URL("./out/", import.meta.url));
const logFile = `${out}http_requests-500k.ndjson`;
const cli = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const floorScript = fileURLToPath(new URL("./json-parse-floor.mjs", import.meta.url));

const filters = [
  { name: "one comparison", source: 'ClientRequestHost eq "api.example.com"' },
  {
    name: "10 mixed",
    source:
      'EdgeResponseStatus geq 500 and ClientRequestHost in ["api.example.com", "shop.example.com"] and not (ClientRequestPath startsWith "/health" or ClientRequestMethod in ["HEAD", "OPTIONS"]) and (BotScore lt 30 or ClientCountry !in ["us", "ca"]) and CacheCacheStatus !eq "hit" and ClientRequestUserAgent !contains "bot" and EdgeResponseBytes gt 1000',
  },
  {
    name: "30 comparisons",
    source: [
      ...Array.from(
        { length: 10 },
        (_, i) => `(ClientASN eq ${1000 + i * 113} and EdgeResponseStatus gt 400)`,
      ),
      ...Array.from({ length: 5 }, (_, i) => `ClientRequestURI endsWith "=${i * 7}"`),
      ...Array.from({ length: 5 }, (_, i) => `ClientIP startsWith "203.0.${i * 3}."`),
    ].join(" or "),
  },
];

/** The filter's emitted Logpush JSON as a jq `select` condition (the generated records hold every field). */
function jqCondition(node) {
  if (node.and) return `(${node.and.map(jqCondition).join(" and ")})`;
  if (node.or) return `(${node.or.map(jqCondition).join(" or ")})`;
  const field = `.${node.key}`;
  const negated = node.operator.startsWith("!");
  const operator = node.operator.replace("!", "");
  const literal = (value) => (typeof value === "number" ? String(value) : JSON.stringify(value));
  const scalar = (value) =>
    /^-?\d+(\.\d+)?$/.test(value) && numberFields.has(node.key) ? value : JSON.stringify(value);
  let test;
  switch (operator) {
    case "eq":
      test = `${field} == ${scalar(node.value)}`;
      break;
    case "lt":
    case "leq":
    case "gt":
    case "geq":
      test = `${field} ${{ lt: "<", leq: "<=", gt: ">", geq: ">=" }[operator]} ${node.value}`;
      break;
    case "startsWith":
      test = `(${field} | startswith(${JSON.stringify(node.value)}))`;
      break;
    case "endsWith":
      test = `(${field} | endswith(${JSON.stringify(node.value)}))`;
      break;
    case "contains":
      test = `(${field} | contains(${JSON.stringify(node.value)}))`;
      break;
    case "in":
      test = `(${node.value.map((value) => `${field} == ${literal(value)}`).join(" or ")})`;
      break;
  }
  return negated ? `(${test} | not)` : test;
}
const numberFields = new Set(["EdgeResponseStatus", "BotScore", "EdgeResponseBytes", "ClientASN"]);

/** Wall time (median of `runs`) and peak RSS (max) of a command, via /usr/bin/time. */
function measure(command, args, runs = RUNS) {
  const times = [];
  let peakKb = 0;
  let output = "";
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const result = spawnSync("/usr/bin/time", ["-f", "%M", command, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 1 << 30,
    });
    times.push(performance.now() - start);
    if (result.status !== 0)
      throw new Error(`${command} ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
    const lines = result.stderr.toString().trim().split("\n");
    peakKb = Math.max(peakKb, Number(lines[lines.length - 1]));
    output = result.stdout.toString();
  }
  return { ms: median(times), peakMb: peakKb / 1024, output };
}

mkdirSync(out, { recursive: true });
if (!existsSync(logFile)) writeHttpRequests(logFile, LINES);
const bytes = statSync(logFile).size;
const haveJq = spawnSync("jq", ["--version"]).status === 0;
const jqVersion = haveJq ? spawnSync("jq", ["--version"]).stdout.toString().trim() : "";
const rate = (ms) =>
  `${Math.round(LINES / (ms / 1000)).toLocaleString("en-US")} lines/s, ${(bytes / 1e6 / (ms / 1000)).toFixed(0)} MB/s`;

const floor = measure(process.execPath, [floorScript, logFile]);
if (floor.output.trim() !== String(LINES)) throw new Error(`the floor parsed ${floor.output.trim()} records`);

// eval applies no Logpush limits; the JSON here only feeds the jq translation.
const limits = { maxBytes: 100_000, maxOperators: 1000 };
const rows = [];
for (const filter of filters) {
  const compiled = compile(filter.source, limits);
  if (!compiled.ok) throw new Error(`${filter.name}: ${JSON.stringify(compiled.diagnostics)}`);
  const count = measure(
    process.execPath,
    [cli, "eval", "--count", "--expr", filter.source, logFile],
    1,
  ).output.trim();
  const filterc = measure(process.execPath, [cli, "eval", "--expr", filter.source, logFile]);
  const unfiltered = measure(process.execPath, [
    cli,
    "eval",
    "--no-prefilter",
    "--expr",
    filter.source,
    logFile,
  ]);
  let jq;
  if (haveJq) {
    jq = measure("jq", ["-c", `select(${jqCondition(compiled.json.where)})`, logFile], 1);
    const jqCount = jq.output === "" ? 0 : jq.output.trimEnd().split("\n").length;
    if (String(jqCount) !== count)
      throw new Error(`${filter.name}: jq selected ${jqCount} lines, filterc ${count}`);
  }
  rows.push({ filter, count, filterc, unfiltered, jq });
}

const lines = [
  `## eval: \`filterc eval\` on ${LINES.toLocaleString("en-US")} http_requests lines (${(bytes / 1e6).toFixed(0)} MB)`,
  "",
  `${machine()}; median of ${RUNS} runs (jq: 1 run); output to /dev/null. Floor: read + JSON.parse of every line, ${rate(floor.ms)}, peak RSS ${floor.peakMb.toFixed(0)} MB.`,
  "",
  `| filter | comparisons | matched | filterc eval | vs floor | no prefilter | vs floor | ${haveJq ? `${jqVersion} | filterc vs jq |` : ""} filterc peak RSS |`,
  `|---|---|---|---|---|---|---|${haveJq ? "---|---|" : ""}---|`,
];
for (const { filter, count, filterc, unfiltered, jq } of rows) {
  const jqCells = jq ? `${rate(jq.ms)} | ${ratio(jq.ms, filterc.ms)} |` : "";
  lines.push(
    `| ${filter.name} | ${compile(filter.source, limits).stats.operators} | ${count} | ${rate(filterc.ms)} | ${ratio(floor.ms, filterc.ms)} | ${rate(unfiltered.ms)} | ${ratio(floor.ms, unfiltered.ms)} | ${jqCells} ${Math.max(filterc.peakMb, unfiltered.peakMb).toFixed(0)} MB |`,
  );
}
if (!haveJq) lines.push("", "jq is not installed: its column is left out.");
lines.push(
  "",
  "Ratios are throughput over the baseline (above 1× is faster). Targets: ≥ 0.9× the floor, ≥ 2.5× jq, peak RSS < 150 MB.",
);
console.log(lines.join("\n"));
