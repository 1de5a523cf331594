import { type ChildProcess, spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import Cloudflare from "cloudflare";
import { describe, expect, it } from "vitest";
import type { Job, Ruleset } from "../../src/sandbox/model.js";
import { builtCli, ensureBundles } from "../helpers/bundles.js";
import { ownershipToken, type Running, runSandbox, sdk, TOKEN, tempDir, ZONE } from "./helpers.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

const DESTINATION = "s3://crash-bucket/logs?region=eu-west-1";
const customFields = (name: string) => [
  {
    action: "log_custom_field" as const,
    expression: "true",
    action_parameters: { request_fields: [{ name }] },
  },
];

describe("state in the data directory", () => {
  it("survives a restart on the same directory", async () => {
    const dataDir = await tempDir();
    try {
      const first = await runSandbox({ dataDir });
      const client = sdk(first);
      const ruleset = await client.rulesets.phases.update("http_log_custom_fields", {
        zone_id: ZONE,
        rules: customFields("x-one"),
      });
      const challenge = await ownershipToken(client, first, DESTINATION);
      const job = await client.logpush.jobs.create({
        zone_id: ZONE,
        destination_conf: DESTINATION,
        ownership_challenge: challenge,
        name: "kept",
      });
      await first.stop();

      const second = await runSandbox({ dataDir });
      const again = sdk(second);
      expect(await again.rulesets.phases.get("http_log_custom_fields", { zone_id: ZONE })).toEqual(ruleset);
      expect(await again.logpush.jobs.get((job as Job).id, { zone_id: ZONE })).toEqual(job);
      const next = (await again.logpush.jobs.create({
        zone_id: ZONE,
        destination_conf: DESTINATION,
        ownership_challenge: challenge,
      })) as unknown as Job;
      expect(next.id).toBe((job as Job).id + 1);
      await second.stop();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

/** Starts the built CLI's sandbox and resolves with its API base once it prints it. */
function spawnSandbox(dataDir: string): Promise<{ child: ChildProcess; api: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [builtCli(), "sandbox", "--port", "0", "--data-dir", dataDir, "--api-token", TOKEN],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let output = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/client\/v4)/.exec(output);
      if (match) resolve({ child, api: match[1]! });
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`sandbox exited with ${code} before listening: ${output}`)));
  });
}

const exited = (child: ChildProcess) => new Promise((resolve) => child.once("exit", resolve));

describe("crash safety", () => {
  it("loses no acknowledged write when killed with SIGKILL at random moments", async () => {
    const dataDir = await tempDir();
    const acknowledgedJobs = new Map<number, string>();
    let acknowledgedVersion = 0;
    try {
      for (let round = 0; round < 10; round++) {
        const { child, api } = await spawnSandbox(dataDir);
        const client = new Cloudflare({ apiToken: TOKEN, baseURL: api, maxRetries: 0 });
        // What was acknowledged before every earlier kill is all there.
        const jobs: Job[] = [];
        for await (const job of client.logpush.jobs.list({ zone_id: ZONE })) jobs.push(job as unknown as Job);
        const byId = new Map(jobs.map((job) => [job.id, job.name]));
        for (const [id, name] of acknowledgedJobs) expect(byId.get(id)).toBe(name);
        if (acknowledgedVersion > 0) {
          const entrypoint = (await client.rulesets.phases.get("http_log_custom_fields", {
            zone_id: ZONE,
          })) as Ruleset;
          expect(Number(entrypoint.version)).toBeGreaterThanOrEqual(acknowledgedVersion);
        }
        const challenge = await ownershipToken(client, { dataDir } as Running, DESTINATION);

        let killed = false;
        const writer = async (worker: number) => {
          for (let i = 0; !killed; i++) {
            try {
              if (worker === 0) {
                const saved = (await client.rulesets.phases.update("http_log_custom_fields", {
                  zone_id: ZONE,
                  rules: customFields(`x-${round}-${i}`),
                })) as Ruleset;
                acknowledgedVersion = Math.max(acknowledgedVersion, Number(saved.version));
              } else {
                const name = `r${round}-w${worker}-${i}`;
                const job = (await client.logpush.jobs.create({
                  zone_id: ZONE,
                  destination_conf: DESTINATION,
                  ownership_challenge: challenge,
                  name,
                })) as unknown as Job;
                acknowledgedJobs.set(job.id, name);
              }
            } catch (error) {
              if (!killed) throw error;
            }
          }
        };
        const writers = [0, 1, 2, 3].map(writer);
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.floor(Math.random() * 250)));
        killed = true;
        child.kill("SIGKILL");
        await exited(child);
        await Promise.all(writers);
      }
      expect(acknowledgedJobs.size).toBeGreaterThan(10);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
