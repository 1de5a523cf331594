import { type ChildProcess, spawn } from "node:child_process";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { builtCli, ensureBundles } from "../helpers/bundles.js";
import { TOKEN, tempDir, ZONE } from "./helpers.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

let dataDir: string;
const children: ChildProcess[] = [];
beforeEach(async () => {
  dataDir = await tempDir();
});
afterEach(async () => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  await rm(dataDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  api: string;
  stderr: () => string;
}

/** `filterc sandbox` on the data directory: resolves once it listens, or with its exit when it does not start. */
function sandbox(): Promise<Started | { code: number | null; stderr: string }> {
  const child = spawn(
    process.execPath,
    [builtCli(), "sandbox", "--port", "0", "--data-dir", dataDir, "--api-token", TOKEN],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  let stderr = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  return new Promise((resolve) => {
    let output = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const match = /listening on (\S+)/.exec(output);
      if (match) resolve({ child, api: match[1]!, stderr: () => stderr });
    });
    child.once("exit", (code) => resolve({ code, stderr }));
  });
}

async function started(): Promise<Started> {
  const result = await sandbox();
  if (!("child" in result)) throw new Error(`the sandbox did not start: ${result.stderr}`);
  return result;
}

const lockFile = () => join(dataDir, "_sandbox", "lock");

async function stop(running: Started): Promise<void> {
  const exit = new Promise((resolve) => running.child.once("exit", resolve));
  running.child.kill("SIGTERM");
  await exit;
}

describe("the data directory's lock", () => {
  it("refuses a second sandbox on the same data directory, naming the first, which goes on untouched", async () => {
    const first = await started();
    const put = await fetch(`${first.api}/zones/${ZONE}/rulesets/phases/http_log_custom_fields/entrypoint`, {
      method: "PUT",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({
        rules: [
          {
            action: "log_custom_field",
            expression: "true",
            action_parameters: { request_fields: [{ name: "x-kept" }] },
          },
        ],
      }),
    });
    expect(put.status).toBe(200);
    // A write of the first one under way: its temporary file.
    const inFlight = join(dataDir, "_sandbox", "tmp", "x.log.gz.tmp-0123456789ab");
    await writeFile(inFlight, "partial");
    const holder = JSON.parse(await readFile(lockFile(), "utf8")) as { started: string };
    expect(holder).toEqual({ pid: first.child.pid, host: hostname(), started: expect.any(String) });

    const second = await sandbox();
    expect(second).toEqual({
      code: 1,
      stderr: `filterc sandbox: the data directory ${dataDir} is in use by another filterc sandbox (pid ${first.child.pid} on host ${hostname()}, started ${holder.started}); stop it, or use another data directory (if that sandbox is gone, remove ${lockFile()})\n`,
    });
    expect(await readFile(inFlight, "utf8")).toBe("partial");
    const kept = await fetch(`${first.api}/zones/${ZONE}/rulesets/phases/http_log_custom_fields/entrypoint`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(await kept.json()).toMatchObject({
      result: { rules: [{ action_parameters: { request_fields: [{ name: "x-kept" }] } }] },
    });

    await stop(first);
    // A clean stop lets go of the directory; the next sandbox finds the ruleset.
    expect(await readdir(join(dataDir, "_sandbox"))).not.toContain("lock");
    const next = await started();
    const again = await fetch(`${next.api}/zones/${ZONE}/rulesets/phases/http_log_custom_fields/entrypoint`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(again.status).toBe(200);
    await stop(next);
  });

  it("takes over the lock of a sandbox that no longer runs (killed with SIGKILL), saying so", async () => {
    const killed = await started();
    const exit = new Promise((resolve) => killed.child.once("exit", resolve));
    killed.child.kill("SIGKILL");
    await exit;
    const stale = JSON.parse(await readFile(lockFile(), "utf8")) as { pid: number; started: string };
    expect(stale.pid).toBe(killed.child.pid);
    const next = await started();
    expect(next.stderr()).toBe(
      `filterc sandbox: took over the lock of the data directory from pid ${stale.pid}, which no longer runs (started ${stale.started})\n`,
    );
    expect(JSON.parse(await readFile(lockFile(), "utf8"))).toMatchObject({ pid: next.child.pid });
    await stop(next);
  });

  it("refuses a lock file that is not a sandbox's, and one held on another host", async () => {
    const first = await started();
    await stop(first);
    await writeFile(lockFile(), "not json");
    expect(await sandbox()).toEqual({
      code: 1,
      stderr: `filterc sandbox: the data directory ${dataDir} has a lock file (${lockFile()}) that is not a filterc sandbox's; remove it if no sandbox uses this directory\n`,
    });
    await writeFile(
      lockFile(),
      JSON.stringify({ pid: 1, host: "elsewhere", started: "2026-11-24T10:15:00.000Z" }),
    );
    expect(await sandbox()).toEqual({
      code: 1,
      stderr: `filterc sandbox: the data directory ${dataDir} is in use by another filterc sandbox (pid 1 on host elsewhere, started 2026-11-24T10:15:00.000Z); stop it, or use another data directory (if that sandbox is gone, remove ${lockFile()})\n`,
    });
  });
});
