// Memory of the local sandbox under concurrent ingest: N clients each POST a 60 MB NDJSON body to
// the ingest at once (a client refused with 429 or 503 retries after a second), with two enabled
// jobs in the zone. The sandbox runs in its own process (the built CLI); its peak resident set
// (VmHWM) is read from /proc after the last ingest, beside the peak of the same sandbox idle,
// measured in the same run. Linux only. Run `npm run build` first.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { machine } from "./measure.mjs";

const CLIENT_COUNTS = [1, 8, 20];
const BODY_BYTES = 60 * 1024 * 1024;
const TOKEN = "ingest-bench-token";
const ZONE = "e".repeat(32);
const DESTINATION = "s3://ingest-bench/logs?region=us-east-1";
const cli = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));

/** A 60 MB NDJSON body of http_requests records, one in ten with status 500. */
function body() {
  const lines = [];
  let size = 0;
  for (let i = 0; size < BODY_BYTES; i++) {
    const line = JSON.stringify({
      RayID: i.toString(16).padStart(16, "0"),
      EdgeResponseStatus: i % 10 === 0 ? 500 : 200,
      ClientRequestHost: "example.com",
      ClientRequestPath: `/assets/${i % 1000}/app.js`,
      ClientRequestUserAgent: "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)",
      RequestHeaders: { "content-type": "text/html", "x-request-id": `req-${i}` },
    });
    lines.push(line);
    size += line.length + 1;
  }
  return Buffer.from(`${lines.join("\n")}\n`);
}

async function startSandbox(dataDir) {
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
  return { child, api };
}

async function request(api, method, path, payload) {
  const response = await fetch(`${api}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  const json = await response.json();
  if (!json.success) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json.errors)}`);
  return json.result;
}

const peakRss = (pid) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) * 1024;
const mb = (bytes) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** One client's ingest, retried while the sandbox says it is busy; returns how many times it was refused. */
async function ingest(api, payload) {
  for (let refused = 0; ; refused++) {
    const status = await fetch(`${api}/zones/${ZONE}/sandbox/ingest`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/x-ndjson" },
      body: payload,
    }).then(
      async (response) => {
        await response.arrayBuffer();
        return response.status;
      },
      () => 0, // the sandbox closed the connection while the body was still being sent (it refused it)
    );
    if (status === 200) return refused;
    if (status !== 429 && status !== 503 && status !== 0) throw new Error(`ingest answered ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

async function scenario(clients, payload) {
  const dataDir = mkdtempSync(join(tmpdir(), "filterc-sandbox-ingest-"));
  const { child, api } = await startSandbox(dataDir);
  try {
    for (const filter of ["", '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":500}}']) {
      const issued = await request(api, "POST", `/zones/${ZONE}/logpush/ownership`, {
        destination_conf: DESTINATION,
      });
      const challenge = readFileSync(join(dataDir, issued.filename), "utf8");
      await request(api, "POST", `/zones/${ZONE}/logpush/jobs`, {
        destination_conf: DESTINATION,
        ownership_challenge: challenge,
        enabled: true,
        filter,
        output_options: { field_names: ["RayID", "EdgeResponseStatus", "ClientRequestPath"] },
      });
    }
    const idle = peakRss(child.pid);
    const started = performance.now();
    const refusals =
      clients === 0 ? [] : await Promise.all(Array.from({ length: clients }, () => ingest(api, payload)));
    const seconds = (performance.now() - started) / 1000;
    return { clients, idle, peak: peakRss(child.pid), seconds, refused: refusals.reduce((a, b) => a + b, 0) };
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const payload = body();
const rows = [];
for (const clients of CLIENT_COUNTS) rows.push(await scenario(clients, payload));

console.log(`## Sandbox memory under concurrent ingest

${machine()}; \`node bench/sandbox-ingest.mjs\` after \`npm run build\`. Each client POSTs the same
${mb(payload.length)} NDJSON body (${payload.toString("utf8").split("\n").length - 1} records) to the ingest at once, two enabled jobs
(one filtered); a client refused (429/503, or the connection closed while it was still sending) retries
after a second until its ingest is done. Peak RSS is the sandbox process's VmHWM; "idle" is the same
process's peak before the first ingest (the baseline of the run).

| clients | idle peak RSS | peak RSS under ingest | ratio to idle | time for all ingests | refusals retried |
|---|---|---|---|---|---|
${rows.map((r) => `| ${r.clients} | ${mb(r.idle)} | ${mb(r.peak)} | ${(r.peak / r.idle).toFixed(2)}× | ${r.seconds.toFixed(1)} s | ${r.refused} |`).join("\n")}
`);
