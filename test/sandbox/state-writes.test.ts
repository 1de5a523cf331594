import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
} from "node:fs";
import { basename, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Job } from "../../src/sandbox/model.js";
import { ensureBundles } from "../helpers/bundles.js";
import {
  call,
  ownershipToken,
  type Running,
  runSandbox,
  sdk,
  spawnSandbox,
  tempDir,
  ZONE,
} from "./helpers.js";

/*
 * The sandbox writes its state files and deliveries through the one atomic writer
 * (test/files/atomic-file.test.ts): mode kept, links written through, a second name (a backup
 * made with hard links) left with the bytes it had, a folder on another disk written.
 */

// Built while the file is collected, outside any test's time limit.
ensureBundles();

const DESTINATION = "s3://state-bucket/logs?region=eu-west-1";

let running: Running;
let elsewhere: string;
beforeEach(async () => {
  running = await runSandbox();
  elsewhere = await tempDir();
});
afterEach(async () => {
  await running.stop();
  rmSync(elsewhere, { recursive: true, force: true });
});

const zoneFolder = () => join(running.dataDir, "_sandbox", "zones", ZONE);
const jobFile = (id: number) => join(zoneFolder(), "jobs", `${id}.json`);
const storedName = (path: string) => (JSON.parse(readFileSync(path, "utf8")) as Job).name;

async function createJob(name: string): Promise<number> {
  const client = sdk(running);
  const ownershipChallenge = await ownershipToken(client, running, DESTINATION);
  const job = await client.logpush.jobs.create({
    zone_id: ZONE,
    destination_conf: DESTINATION,
    ownership_challenge: ownershipChallenge,
    name,
    enabled: true,
  });
  return (job as Job).id;
}

async function rename(id: number, name: string): Promise<void> {
  expect((await call(running, "PUT", `/zones/${ZONE}/logpush/jobs/${id}`, { name })).status).toBe(200);
}

describe("the sandbox's state files", () => {
  it("keep their mode and symbolic links, and a backup's second name keeps the bytes it had", async () => {
    const [private_, linked, backedUp] = [await createJob("a"), await createJob("b"), await createJob("c")];
    chmodSync(jobFile(private_), 0o600);
    // A job file moved elsewhere, a link in its place.
    renameSync(jobFile(linked), join(elsewhere, "moved.json"));
    symlinkSync(join(elsewhere, "moved.json"), jobFile(linked));
    // A backup made with hard links (`cp -al`, rsnapshot): once refused, each write answered 500.
    mkdirSync(join(elsewhere, "backup"));
    linkSync(jobFile(backedUp), join(elsewhere, "backup", "c.json"));

    await rename(private_, "a2");
    await rename(linked, "b2");
    await rename(backedUp, "c2");

    expect([storedName(jobFile(private_)), statSync(jobFile(private_)).mode & 0o777]).toEqual(["a2", 0o600]);
    expect(readlinkSync(jobFile(linked))).toBe(join(elsewhere, "moved.json"));
    expect(storedName(join(elsewhere, "moved.json"))).toBe("b2");
    expect([storedName(jobFile(backedUp)), statSync(jobFile(backedUp)).nlink]).toEqual(["c2", 1]);
    expect(storedName(join(elsewhere, "backup", "c.json"))).toBe("c");
    expect(readdirSync(join(running.dataDir, "_sandbox", "tmp"))).toEqual([]);
    expect(readdirSync(elsewhere).sort()).toEqual(["backup", "moved.json"]);

    // What a restart reads is what was answered.
    await running.sandbox.close();
    running = await runSandbox({ dataDir: running.dataDir });
    const names = await Promise.all(
      [private_, linked, backedUp].map(async (id) => {
        const { json } = await call(running, "GET", `/zones/${ZONE}/logpush/jobs/${id}`);
        return (json as { result: Job }).result.name;
      }),
    );
    expect(names).toEqual(["a2", "b2", "c2"]);
    rmSync(running.dataDir, { recursive: true, force: true });
  });
});

describe("the sandbox's deliveries", () => {
  it("are written into a bucket's folder linked to another file system (once EXDEV, answered 500)", async () => {
    // /dev/shm is a tmpfs: not the file system of the data directory and its temporary folder.
    const disk = mkdtempSync("/dev/shm/filterc-bucket-");
    try {
      expect(statSync(disk).dev).not.toBe(statSync(running.dataDir).dev);
      symlinkSync(disk, join(running.dataDir, "state-bucket"));
      const id = await createJob("a");
      const challenges = readdirSync(join(disk, "logs"));
      expect(challenges).toEqual([expect.stringMatching(/^ownership-challenge-[0-9a-f]{8}\.txt$/)]);
      const response = await call(
        running,
        "POST",
        `/zones/${ZONE}/sandbox/ingest`,
        `${JSON.stringify({ RayID: "r1" })}\n`,
      );
      const result = (response.json as { result: { deliveries: { job_id: number; file: string }[] } }).result;
      expect([response.status, result.deliveries.map((delivery) => delivery.job_id)]).toEqual([200, [id]]);
      const { file } = result.deliveries[0]!;
      expect(file).toMatch(/^state-bucket\/logs\/\d{8}T\d{6}Z_\d{8}T\d{6}Z_[0-9a-f]{8}\.log\.gz$/);
      expect(JSON.parse(gunzipSync(readFileSync(join(running.dataDir, file))).toString("utf8"))).toEqual({
        RayID: "r1",
        RequestHeaders: {},
        ResponseHeaders: {},
        Cookies: {},
      });
      // Both files are on that disk, and nothing else: no temporary file was left there.
      expect(lstatSync(join(running.dataDir, "state-bucket")).isSymbolicLink()).toBe(true);
      expect(readdirSync(join(disk, "logs")).sort()).toEqual([...challenges, basename(file)].sort());
      expect(readdirSync(join(running.dataDir, "_sandbox", "tmp"))).toEqual([]);
    } finally {
      rmSync(disk, { recursive: true, force: true });
    }
  });

  it("leave no temporary file when a write fails midway (a full disk; here a file size limit)", async () => {
    // The built sandbox under `ulimit -f 16` (8 KiB): its state files fit, the delivery does not.
    const { child, dataDir, api } = await sandboxUnderFileLimit(16);
    try {
      const limited = { api, dataDir } as Running;
      const client = sdk(limited);
      const ownershipChallenge = await ownershipToken(client, limited, DESTINATION);
      const job = (await client.logpush.jobs.create({
        zone_id: ZONE,
        destination_conf: DESTINATION,
        ownership_challenge: ownershipChallenge,
        enabled: true,
      })) as Job;
      // About 30 KB of gzip (random digits do not compress below half), under the 64 KiB the push
      // hands gzip at once: the write fails as the file is finished, not as records go in.
      const lines = Array.from({ length: 30 }, () =>
        JSON.stringify({ RayID: randomBytes(1000).toString("hex") }),
      );
      const response = await call(limited, "POST", `/zones/${ZONE}/sandbox/ingest`, lines.join("\n"));
      expect(response).toEqual({
        status: 200,
        json: {
          result: {
            records: 30,
            malformed: 0,
            malformed_lines: [],
            deliveries: [],
            failures: [
              { job_id: job.id, message: "the push could not write to the destination folder (EFBIG)" },
            ],
          },
          success: true,
          errors: [],
          messages: [],
        },
      });
      expect(readdirSync(join(dataDir, "_sandbox", "tmp"))).toEqual([]);
      expect(readdirSync(join(dataDir, "state-bucket", "logs"))).toEqual([
        expect.stringMatching(/^ownership-challenge-[0-9a-f]{8}\.txt$/),
      ]);
    } finally {
      await stopLimited(child, dataDir);
    }
  });

  it("that the machine refuses (a full disk; here a file size limit) are answered 507, the change not made", async () => {
    // Under `ulimit -f 1` (512 bytes) the sandbox starts; a ruleset of 60 fields does not fit.
    const { child, dataDir, api, log } = await sandboxUnderFileLimit(1);
    try {
      const limited = { api, dataDir } as Running;
      const entrypoint = `/zones/${ZONE}/rulesets/phases/http_log_custom_fields/entrypoint`;
      const fields = Array.from({ length: 60 }, (_, i) => ({ name: `x-field-${i}` }));
      const rules = [
        { action: "log_custom_field", expression: "true", action_parameters: { request_fields: fields } },
      ];
      const message =
        "the sandbox could not write its state (larger than the file size limit (ulimit -f) allows): the change was not made";
      expect(await call(limited, "PUT", entrypoint, { rules })).toEqual({
        status: 507,
        json: { result: null, success: false, errors: [{ code: 10002, message }], messages: [] },
      });
      expect((await call(limited, "GET", entrypoint)).status).toBe(404);
      expect(log()).toContain(`filterc sandbox: answered 507: ${message}\n`);
      expect(log()).not.toContain("    at ");
      expect(readdirSync(join(dataDir, "_sandbox", "tmp"))).toEqual([]);
    } finally {
      await stopLimited(child, dataDir);
    }
  });
});

/** The built sandbox under `ulimit -f BLOCKS` (of 512 bytes), in a fresh data directory. */
async function sandboxUnderFileLimit(blocks: number) {
  const dataDir = await tempDir();
  return { dataDir, ...(await spawnSandbox(dataDir, [], { fileBlocks: blocks })) };
}

async function stopLimited(child: ChildProcess, dataDir: string): Promise<void> {
  child.kill("SIGKILL");
  await new Promise((resolve) => (child.exitCode === null ? child.once("exit", resolve) : resolve(null)));
  rmSync(dataDir, { recursive: true, force: true });
}
