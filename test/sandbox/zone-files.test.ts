import { mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { MAX_CHALLENGES_PER_ZONE } from "../../src/sandbox/store.js";
import { call, failure, filesUnder, runSandbox, storedJob, TOKEN, tempDir, ZONE } from "./helpers.js";

let dataDir: string;
let zones: string;
beforeEach(async () => {
  dataDir = await tempDir();
  zones = join(dataDir, "_sandbox", "zones");
  await mkdir(zones, { recursive: true });
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const ruleset = (id: string, name: string) => ({
  id,
  name,
  description: "",
  kind: "custom",
  phase: "http_request_firewall_custom",
  version: "1",
  last_updated: "2026-11-24T10:15:00.000000Z",
  rules: [],
});
const job = (id: number) =>
  storedJob(id, { name: `job ${id}`, destination_conf: "s3://zone-files/logs?region=us-east-1" });
const earlier = {
  rulesets: [
    ruleset("b".repeat(32), "second id, first made"),
    ruleset("a".repeat(32), "first id, made next"),
  ],
  jobs: [job(2), job(5)],
  lastJobId: 6,
  challenges: { "zone-files/logs": "token" },
};
const zoneFolder = () => join(zones, ZONE);
const json = async (path: string) => JSON.parse(await readFile(join(zoneFolder(), path), "utf8")) as unknown;

describe("a zone's folder: one file per ruleset and per job", () => {
  it("writes a zone file of the earlier layout as a folder, replacing what a cut-short migration left", async () => {
    await writeFile(join(zones, `${ZONE}.json`), JSON.stringify(earlier));
    await mkdir(join(zoneFolder(), "jobs"), { recursive: true });
    await writeFile(join(zoneFolder(), "jobs", "9.json"), JSON.stringify(job(9)));
    for (let start = 0; start < 2; start++) {
      const running = await runSandbox({ dataDir });
      try {
        expect((await call(running, "GET", `/zones/${ZONE}/rulesets`)).json).toMatchObject({
          result: [{ name: "second id, first made" }, { name: "first id, made next" }],
        });
        expect((await call(running, "GET", `/zones/${ZONE}/logpush/jobs`)).json).toMatchObject({
          result: [job(2), job(5)],
        });
      } finally {
        await running.stop();
      }
    }
    expect(await filesUnder(zones)).toEqual([
      `${ZONE}/challenges.json`,
      `${ZONE}/jobs/2.json`,
      `${ZONE}/jobs/5.json`,
      `${ZONE}/rulesets/1.json`,
      `${ZONE}/rulesets/2.json`,
      `${ZONE}/zone.json`,
    ]);
    expect(await json("zone.json")).toEqual({ lastJobId: 6 });
    expect(await json("challenges.json")).toEqual({ "zone-files/logs": "token" });
    expect(await json("rulesets/1.json")).toEqual(earlier.rulesets[0]);
    expect(await json("jobs/5.json")).toEqual(job(5));
  });

  it("refuses a file of the folder that is not what its name says", async () => {
    await mkdir(join(zoneFolder(), "jobs"), { recursive: true });
    const path = join(zoneFolder(), "jobs", "3.json");
    await writeFile(path, JSON.stringify(job(4)));
    await expect(startSandbox({ dataDir, port: 0, apiToken: TOKEN })).rejects.toThrow(
      `state file ${path}: it holds job 4, not job 3; the sandbox leaves it untouched and does not start`,
    );
  });

  it("writes only what a change changed: the other rulesets' files are not written again", async () => {
    const running = await runSandbox({ dataDir });
    try {
      const big = (name: string) => ({
        name,
        kind: "custom",
        phase: "http_request_firewall_custom",
        description: "d".repeat(500_000),
      });
      for (const name of ["one", "two", "three"])
        expect((await call(running, "POST", `/zones/${ZONE}/rulesets`, big(name))).status).toBe(200);
      const inodes = async () =>
        Promise.all(
          [1, 2, 3].map(async (n) => (await stat(join(zoneFolder(), "rulesets", `${n}.json`))).ino),
        );
      const before = await inodes();
      const [, second] = (
        (await call(running, "GET", `/zones/${ZONE}/rulesets`)).json as { result: { id: string }[] }
      ).result;
      expect(
        (await call(running, "PUT", `/zones/${ZONE}/rulesets/${second!.id}`, { name: "renamed" })).status,
      ).toBe(200);
      const after = await inodes();
      // A file written again is a new file renamed into place: a new inode.
      expect([after[0] === before[0], after[1] === before[1], after[2] === before[2]]).toEqual([
        true,
        false,
        true,
      ]);
      expect((await call(running, "DELETE", `/zones/${ZONE}/rulesets/${second!.id}`)).status).toBe(204);
      expect(await readdir(join(zoneFolder(), "rulesets"))).toEqual(["1.json", "3.json"]);
    } finally {
      await running.stop();
    }
  });

  it("refuses a write past maxZoneBytes, and takes one that makes the zone smaller", async () => {
    const running = await runSandbox({ dataDir, maxZoneBytes: 4000 });
    try {
      const body = (description: string) => ({
        name: "big",
        kind: "custom",
        phase: "http_request_firewall_custom",
        description,
      });
      const created = await call(running, "POST", `/zones/${ZONE}/rulesets`, body("d".repeat(3000)));
      expect(created.status).toBe(200);
      const id = (created.json as { result: { id: string } }).result.id;
      const refused = await call(running, "POST", `/zones/${ZONE}/rulesets`, body("e".repeat(1000)));
      expect(refused).toEqual({
        status: 400,
        json: failure(
          6014,
          expect.stringMatching(
            /^the zone would hold \d+ bytes of rulesets, jobs, challenges and Log Explorer datasets; the sandbox keeps at most 4000 bytes a zone$/,
          ) as unknown as string,
        ),
      });
      expect((await call(running, "DELETE", `/zones/${ZONE}/rulesets/${id}`)).status).toBe(204);
      expect((await call(running, "POST", `/zones/${ZONE}/rulesets`, body("e".repeat(1000)))).status).toBe(
        200,
      );
    } finally {
      await running.stop();
    }
  });

  it(`keeps the newest ${MAX_CHALLENGES_PER_ZONE} ownership challenges of a zone`, async () => {
    const running = await runSandbox({ dataDir });
    try {
      const tokens: string[] = [];
      const destination = (i: number) => `s3://challenge-bucket/d${i}?region=us-east-1`;
      for (let i = 0; i <= MAX_CHALLENGES_PER_ZONE; i++) {
        const issued = await call(running, "POST", `/zones/${ZONE}/logpush/ownership`, {
          destination_conf: destination(i),
        });
        const { filename } = (issued.json as { result: { filename: string } }).result;
        tokens.push(await readFile(join(dataDir, filename), "utf8"));
      }
      const valid = async (i: number) =>
        (
          await call(running, "POST", `/zones/${ZONE}/logpush/ownership/validate`, {
            destination_conf: destination(i),
            ownership_challenge: tokens[i],
          })
        ).json;
      expect(await valid(0)).toMatchObject({ result: { valid: false } });
      expect(await valid(1)).toMatchObject({ result: { valid: true } });
      expect(await valid(MAX_CHALLENGES_PER_ZONE)).toMatchObject({ result: { valid: true } });
      expect(Object.keys((await json("challenges.json")) as object)).toHaveLength(MAX_CHALLENGES_PER_ZONE);
    } finally {
      await running.stop();
    }
  });
});
