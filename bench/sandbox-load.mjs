// Load on the local sandbox: 20 concurrent clients send 10,000 requests over loopback (a mix of
// creates, updates and reads of jobs and of the custom fields ruleset, over 4 zones), then the
// state is read back to prove that no acknowledged write was lost. Run `npm run build` first.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { machine, percentile } from "./measure.mjs";

const CLIENTS = 20;
const REQUESTS = 10_000;
const TOKEN = "load-test-token";
const ZONES = ["a", "b", "c", "d"].map((letter) => letter.repeat(32));
const DESTINATION = "s3://load-bucket/logs?region=us-east-1";

const cli = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), "filterc-sandbox-load-"));
const child = spawn(
  process.execPath,
  [cli, "sandbox", "--port", "0", "--data-dir", dataDir, "--api-token", TOKEN],
  {
    stdio: ["ignore", "pipe", "inherit"],
  },
);
const api = await new Promise((resolve, reject) => {
  let output = "";
  child.stdout.setEncoding("utf8").on("data", (chunk) => {
    output += chunk;
    const match = /listening on (\S+)/.exec(output);
    if (match) resolve(match[1]);
  });
  child.on("exit", (code) => reject(new Error(`sandbox exited with ${code}`)));
});

async function request(method, path, body) {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!json.success) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json.errors)}`);
  return json.result;
}

const challenges = {};
for (const zone of ZONES) {
  const issued = await request("POST", `/zones/${zone}/logpush/ownership`, { destination_conf: DESTINATION });
  challenges[zone] = readFileSync(join(dataDir, issued.filename), "utf8");
}

const latencies = [];
const created = new Map(); // job id → zone
const lastName = new Map(); // job id → name of the last acknowledged update
const phasePuts = Object.fromEntries(ZONES.map((zone) => [zone, 0]));
let next = 0;

async function client(index) {
  const zone = ZONES[index % ZONES.length];
  const mine = [];
  while (next < REQUESTS) {
    const n = next++;
    const kind = n % 10;
    const start = performance.now();
    if (kind < 3 || mine.length === 0) {
      const job = await request("POST", `/zones/${zone}/logpush/jobs`, {
        destination_conf: DESTINATION,
        ownership_challenge: challenges[zone],
        name: `job-${n}`,
        filter: '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":"500"}}',
      });
      created.set(job.id, zone);
      lastName.set(job.id, job.name);
      mine.push(job.id);
    } else if (kind < 5) {
      const id = mine[n % mine.length];
      const job = await request("PUT", `/zones/${zone}/logpush/jobs/${id}`, { name: `update-${n}` });
      lastName.set(id, job.name);
    } else if (kind < 7) {
      await request("GET", `/zones/${zone}/logpush/jobs/${mine[n % mine.length]}`);
    } else if (kind === 7) {
      await request("PUT", `/zones/${zone}/rulesets/phases/http_log_custom_fields/entrypoint`, {
        rules: [
          {
            action: "log_custom_field",
            expression: "true",
            action_parameters: { request_fields: [{ name: `x-${n}` }] },
          },
        ],
      });
      phasePuts[zone]++;
    } else if (kind === 8) {
      await request("GET", `/zones/${zone}/rulesets`);
    } else {
      await request("GET", `/zones/${zone}/logpush/datasets/http_requests/fields`);
    }
    latencies.push(performance.now() - start);
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
const seconds = (performance.now() - started) / 1000;

// Nothing lost: every acknowledged job is there with its last acknowledged name, and each zone's
// ruleset carries one version per acknowledged PUT.
let lost = 0;
for (const zone of ZONES) {
  const jobs = await request("GET", `/zones/${zone}/logpush/jobs`);
  const byId = new Map(jobs.map((job) => [job.id, job.name]));
  for (const [id, jobZone] of created) if (jobZone === zone && byId.get(id) !== lastName.get(id)) lost++;
  if (jobs.length !== [...created.values()].filter((z) => z === zone).length) lost++;
  const entrypoint = await request("GET", `/zones/${zone}/rulesets/phases/http_log_custom_fields/entrypoint`);
  if (Number(entrypoint.version) !== phasePuts[zone]) lost++;
}
child.kill("SIGTERM");
await new Promise((resolve) => child.once("exit", resolve));
rmSync(dataDir, { recursive: true, force: true });

console.log(`## Sandbox under load

${machine()}; \`node bench/sandbox-load.mjs\` after \`npm run build\`. ${CLIENTS} concurrent clients, ${REQUESTS} requests on
loopback (30% job creates, 20% job updates, 20% job reads, 10% custom fields PUTs, 20% other reads) over ${ZONES.length}
zones; every write fsynced before it is acknowledged.

| requests | throughput | p50 latency | p99 latency | jobs created | lost writes |
|---|---|---|---|---|---|
| ${latencies.length} | ${Math.round(latencies.length / seconds)} req/s | ${percentile(latencies, 50).toFixed(1)} ms | ${percentile(latencies, 99).toFixed(1)} ms | ${created.size} | ${lost} |
`);
if (lost > 0) process.exitCode = 1;
