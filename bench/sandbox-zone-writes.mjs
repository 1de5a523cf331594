// The cost of a write to a zone that holds a lot: the zone is filled with RULESETS rulesets of
// about 1 MB (the largest body), then one small job is updated WRITES times. The sandbox runs in its
// own process (the built CLI, or SANDBOX_CLI); the bench reports the median and p90 time of those
// small writes and the process's peak resident set (VmHWM) before and after them. Linux only.
// Run `npm run build` first.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { machine, percentile } from "./measure.mjs";

const RULESETS = Number(process.env.RULESETS ?? 32);
const WRITES = 30;
const TOKEN = "zone-bench-token";
const ZONE = "c".repeat(32);
const DESTINATION = "s3://zone-bench/logs?region=us-east-1";
const cli = process.env.SANDBOX_CLI ?? fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));

const dataDir = mkdtempSync(join(tmpdir(), "filterc-sandbox-zone-"));
const child = spawn(
  process.execPath,
  [cli, "sandbox", "--port", "0", "--data-dir", dataDir, "--api-token", TOKEN],
  { stdio: ["ignore", "pipe", "inherit"] },
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
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (!json.success) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json.errors)}`);
  return json.result;
}

const peakRss = () =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))[1]) * 1024;
const mb = (bytes) => `${Math.round(bytes / (1024 * 1024))} MB`;

try {
  for (let i = 0; i < RULESETS; i++)
    await request("POST", `/zones/${ZONE}/rulesets`, {
      name: `ruleset ${i}`,
      kind: "custom",
      phase: "http_request_firewall_custom",
      description: "d".repeat(1_000_000),
    });
  const issued = await request("POST", `/zones/${ZONE}/logpush/ownership`, { destination_conf: DESTINATION });
  const job = await request("POST", `/zones/${ZONE}/logpush/jobs`, {
    destination_conf: DESTINATION,
    ownership_challenge: readFileSync(join(dataDir, issued.filename), "utf8"),
  });
  const before = peakRss();
  const times = [];
  for (let i = 0; i < WRITES; i++) {
    const started = performance.now();
    await request("PUT", `/zones/${ZONE}/logpush/jobs/${job.id}`, { name: `write ${i}` });
    times.push(performance.now() - started);
  }
  console.log(`${machine()}; \`RULESETS=${RULESETS} node bench/sandbox-zone-writes.mjs\`${process.env.SANDBOX_CLI ? " (SANDBOX_CLI: the build before)" : ""}

| rulesets of 1 MB | median write | p90 write | peak RSS before the writes | peak RSS after |
|---|---|---|---|---|
| ${RULESETS} | ${percentile(times, 50).toFixed(1)} ms | ${percentile(times, 90).toFixed(1)} ms | ${mb(before)} | ${mb(peakRss())} |
`);
} finally {
  child.kill("SIGTERM");
  await new Promise((resolve) => child.once("exit", resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
