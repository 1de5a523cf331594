// Peak memory of the API client reading what a hostile server sends: an endless 200 body, a gzip
// bomb (about 650 KB inflating to 674 MB) and a list of jobs just under the response bound, beside
// a small answer as the baseline, each in a fresh client process (its peak resident set, maxRSS).
// The server runs in a process of its own, so its memory does not count. Run `npm run build`
// first; `node bench/api-response.mjs [OLD/dist]` adds an older build's client as a column (an
// unbounded read grows until the default timeout of 30 s).
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { createGzip } from "node:zlib";
import { machine, median } from "./measure.mjs";

const ROUNDS = 3;
const OLD_TIMEOUT_MS = 30_000;
const BOMB_BYTES = 674_000_000;
const scenarios = {
  small: "0".repeat(32),
  "endless body": "a".repeat(32),
  "gzip bomb": "b".repeat(32),
  "jobs list of 15 MB": "c".repeat(32),
};
const envelope = '{"success":true,"errors":[],"messages":[],"result":[';

/** Gzip of an envelope's start and BOMB_BYTES blanks, compressed chunk by chunk (never held whole). */
async function gzipBomb() {
  const gzip = createGzip({ level: 9 });
  const parts = [];
  gzip.on("data", (chunk) => parts.push(chunk));
  const done = new Promise((resolve) => gzip.on("end", resolve));
  gzip.write(envelope);
  const blanks = Buffer.alloc(1 << 20, " ");
  for (let written = 0; written < BOMB_BYTES; written += blanks.length)
    if (!gzip.write(blanks)) await new Promise((resolve) => gzip.once("drain", resolve));
  gzip.end();
  await done;
  return Buffer.concat(parts);
}

/** About 15 MB of jobs, under the 16 MiB bound: what a large, honest account could answer. */
function jobsList() {
  const job = (id) => ({
    id,
    name: `job ${id}`,
    dataset: "http_requests",
    destination_conf: `s3://bucket/logs/${id}?region=us-west-2`,
    enabled: true,
    filter: '{"where":{"and":[{"key":"EdgeResponseStatus","operator":"geq","value":"500"}]}}',
    output_options: { field_names: ["ClientIP", "EdgeResponseStatus", "RayID"], timestamp_format: "rfc3339" },
  });
  const jobs = [];
  let size = 0;
  for (let id = 1; size < 15_000_000; id++) {
    jobs.push(job(id));
    size += JSON.stringify(jobs.at(-1)).length + 1;
  }
  return JSON.stringify({ success: true, errors: [], messages: [], result: jobs });
}

async function serve() {
  const bomb = await gzipBomb();
  const list = jobsList();
  const server = createServer((request, response) => {
    const zone = /zones\/([0-9a-f]{32})\//.exec(request.url ?? "")?.[1];
    if (zone === scenarios["endless body"]) {
      response.writeHead(200, { "content-type": "application/json" });
      response.write(envelope);
      const chunk = Buffer.alloc(64 * 1024, " ");
      const write = () => {
        while (!response.destroyed && response.write(chunk));
      };
      response.on("drain", write);
      write();
      return;
    }
    if (zone === scenarios["gzip bomb"]) {
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      response.end(bomb);
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(zone === scenarios["jobs list of 15 MB"] ? list : `${envelope}]}`);
  });
  server.listen(0, "127.0.0.1", () => {
    process.stdout.write(
      `${JSON.stringify({ url: `http://127.0.0.1:${server.address().port}`, bombBytes: bomb.length, listBytes: list.length })}\n`,
    );
  });
}

/** One call of a fresh client: its peak resident set and what the call answered. */
async function client(url, zone, dist, timeoutMs) {
  const { createClient } = await import(dist);
  const started = performance.now();
  let outcome;
  try {
    const jobs = await createClient({
      apiToken: "bench",
      baseUrl: url,
      env: {},
      maxRetries: 0,
      timeoutMs,
    }).listJobs({
      zoneId: zone,
    });
    outcome = `${jobs.length} jobs`;
  } catch (error) {
    outcome = error.message.replace(/^list jobs: /, "");
  }
  const ms = performance.now() - started;
  process.stdout.write(
    `${JSON.stringify({ maxRssMB: process.resourceUsage().maxRSS / 1024, ms, outcome })}\n`,
  );
}

function run(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), ...args], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      output += chunk;
      if (args[0] === "--serve" && output.includes("\n")) resolve({ child, ...JSON.parse(output) });
    });
    child.on("exit", (code) =>
      code === 0 ? resolve(JSON.parse(output)) : reject(new Error(`exit ${code}`)),
    );
  });
}

async function main() {
  const builds = [["this build", new URL("../dist/index.js", import.meta.url).href, 30_000]];
  if (process.argv[2])
    builds.push([
      "older build",
      new URL(`${process.argv[2].replace(/\/$/, "")}/index.js`, `file://${process.cwd()}/`).href,
      OLD_TIMEOUT_MS,
    ]);
  const server = await run(["--serve"]);
  const rows = [];
  try {
    for (const [name, zone] of Object.entries(scenarios)) {
      const cells = [];
      for (const [, dist, timeout] of builds) {
        const runs = [];
        for (let round = 0; round < ROUNDS; round++)
          runs.push(await run(["--client", server.url, zone, dist, String(timeout)]));
        const rss = median(runs.map((r) => r.maxRssMB)).toFixed(0);
        const ms = median(runs.map((r) => r.ms)).toFixed(0);
        cells.push(`${rss} MB, ${ms} ms`, runs[0].outcome);
      }
      rows.push(`| ${name} | ${cells.join(" | ")} |`);
    }
  } finally {
    server.child.kill();
  }
  const header = builds.flatMap(([build]) => [`${build}: peak RSS, time`, `${build}: answer`]);
  console.log(`${machine()}; gzip bomb ${server.bombBytes} bytes; jobs list ${server.listBytes} bytes.`);
  console.log(`Medians of ${ROUNDS} fresh client processes.\n`);
  console.log(`| response | ${header.join(" | ")} |`);
  console.log(`|---|${header.map(() => "---|").join("")}`);
  for (const row of rows) console.log(row);
}

if (process.argv[2] === "--serve") await serve();
else if (process.argv[2] === "--client")
  await client(process.argv[3], process.argv[4], process.argv[5], Number(process.argv[6]));
else await main();
