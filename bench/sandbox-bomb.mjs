// The local sandbox under gzip bombs: a small body sent, a huge one inflated. The sandbox runs in
// its own process (the built CLI, default limits, two enabled jobs); for each bomb the bench reads
// the process's CPU time (utime + stime from /proc) and peak resident set (VmHWM), and how long the
// answer took. Also: the CPU the sandbox spends after a bomb's client has gone, and how long SIGTERM
// takes with a bomb at work (grace 1 s). Linux only. Run `npm run build` first.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { machine } from "./measure.mjs";

const TOKEN = "bomb-bench-token";
const ZONE = "b".repeat(32);
const DESTINATION = "s3://bomb-bench/logs?region=us-east-1";
const cli = process.env.SANDBOX_CLI ?? fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));

/** 2 million short records in about 100 KB: the issue's bomb. */
const linesBomb = () => gzipSync(Buffer.from('{"RayID":"a"}\n'.repeat(2_000_000)), { level: 9 });
/** About 5 MB of gzip that inflates to 5 GB of long lines (each over the line limit): a member a line, repeated. */
const bytesBomb = () => {
  const member = gzipSync(Buffer.concat([Buffer.alloc(2 * 1024 * 1024, 0x61), Buffer.from("\n")]), {
    level: 9,
  });
  return Buffer.concat(Array.from({ length: 2500 }, () => member));
};

async function startSandbox(dataDir, extra = []) {
  const child = spawn(
    process.execPath,
    [cli, "sandbox", "--port", "0", "--data-dir", dataDir, "--api-token", TOKEN, ...extra],
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
  for (const filter of ["", '{"where":{"key":"RayID","operator":"eq","value":"a"}}']) {
    const json = async (path, body) =>
      (
        await (
          await fetch(`${api}${path}`, {
            method: "POST",
            headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
            body: JSON.stringify(body),
          })
        ).json()
      ).result;
    const issued = await json(`/zones/${ZONE}/logpush/ownership`, { destination_conf: DESTINATION });
    await json(`/zones/${ZONE}/logpush/jobs`, {
      destination_conf: DESTINATION,
      ownership_challenge: readFileSync(join(dataDir, issued.filename), "utf8"),
      enabled: true,
      filter,
      output_options: { field_names: ["RayID"] },
    });
  }
  return { child, api };
}

const stat = (pid) => readFileSync(`/proc/${pid}/status`, "utf8");
const peakRss = (pid) => Number(/VmHWM:\s+(\d+) kB/.exec(stat(pid))[1]) * 1024;
const cpuSeconds = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};
const mb = (bytes) => `${Math.round(bytes / (1024 * 1024))} MB`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends the body; resolves with the answer's status and message, or "gone" when `leaveAfterMs` passes first. */
function send(api, body, leaveAfterMs) {
  return new Promise((resolve) => {
    const sent = request(`${api}/zones/${ZONE}/sandbox/ingest`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    sent.on("error", () => resolve({ status: "gone" }));
    sent.on("response", async (response) => {
      let text = "";
      for await (const chunk of response) text += chunk;
      resolve({ status: response.statusCode, message: JSON.parse(text).errors?.[0]?.message ?? "" });
    });
    sent.end(body);
    if (leaveAfterMs !== undefined)
      setTimeout(() => {
        sent.destroy();
        resolve({ status: "gone" });
      }, leaveAfterMs);
  });
}

async function scenario(name, body, { leaveAfterMs, sigterm } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), "filterc-sandbox-bomb-"));
  const { child, api } = await startSandbox(dataDir, sigterm ? ["--shutdown-grace", "1"] : []);
  try {
    const idle = peakRss(child.pid);
    const cpuBefore = cpuSeconds(child.pid);
    const started = performance.now();
    const answered = send(api, body, sigterm ? undefined : leaveAfterMs);
    let exitSeconds;
    if (sigterm) {
      await sleep(500);
      const exited = new Promise((resolve) => child.once("exit", resolve));
      const signalled = performance.now();
      child.kill("SIGTERM");
      await exited;
      exitSeconds = (performance.now() - signalled) / 1000;
      return { name, sent: body.length, exitSeconds };
    }
    const answer = await answered;
    const seconds = (performance.now() - started) / 1000;
    const cpu = cpuSeconds(child.pid) - cpuBefore;
    // What the sandbox still spends once the answer came (or the client went).
    await sleep(3000);
    const cpuAfter = cpuSeconds(child.pid) - cpuBefore - cpu;
    return { name, sent: body.length, answer, seconds, cpu, cpuAfter, idle, peak: peakRss(child.pid) };
  } finally {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const lines = linesBomb();
const bytes = bytesBomb();
const rows = [
  await scenario("2 M lines", lines),
  await scenario("5 GB of long lines", bytes),
  await scenario("2 M lines, client gone after 1 s", lines, { leaveAfterMs: 1000 }),
];
const stopped = await scenario("2 M lines, SIGTERM after 0.5 s (grace 1 s)", lines, { sigterm: true });

console.log(`## Sandbox under gzip bombs

${machine()}; \`node bench/sandbox-bomb.mjs\` after \`npm run build\`. The built CLI's sandbox with its
default limits (\`--max-ingest-lines\` 1,000,000, \`--max-ingest-mib\` 1024, lines of 1 MiB), two enabled
jobs. CPU is the sandbox process's user + system time until the answer (or until its client left),
"after" the CPU it spent in the 3 s that followed; peak RSS is its VmHWM, "idle" the same before the bomb.

| bomb | sent | answer | time | CPU | CPU after | idle peak RSS | peak RSS |
|---|---|---|---|---|---|---|---|
${rows.map((r) => `| ${r.name} | ${Math.round(r.sent / 1024)} KB | ${r.answer.status}${r.answer.message ? `: ${r.answer.message}` : ""} | ${r.seconds.toFixed(1)} s | ${r.cpu.toFixed(1)} s | ${r.cpuAfter.toFixed(1)} s | ${mb(r.idle)} | ${mb(r.peak)} |`).join("\n")}

${stopped.name}: the process exited ${stopped.exitSeconds.toFixed(1)} s after SIGTERM.
`);
