import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { call, filesUnder, OTHER_ZONE, runSandbox, storedJob, TOKEN, tempDir, ZONE } from "./helpers.js";

let dataDir: string;
let zones: string;
beforeEach(async () => {
  dataDir = await tempDir();
  zones = join(dataDir, "_sandbox", "zones");
  await mkdir(zones, { recursive: true });
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const zoneFile = (zone = ZONE) => join(zones, `${zone}.json`);
const emptyZone = { rulesets: [], jobs: [], lastJobId: 0, challenges: {} };
const job = storedJob(3, { destination_conf: "s3://state-bucket/logs?region=us-east-1" });

/** Why the sandbox refused to start on the data directory. */
async function refusal(): Promise<string> {
  const error = await startSandbox({ dataDir, port: 0, apiToken: TOKEN }).then(
    async (sandbox) => {
      await sandbox.close();
      return new Error("started");
    },
    (e: unknown) => e as Error,
  );
  return error.message;
}

const refused = (path: string, problem: string) =>
  `state file ${path}: ${problem}; the sandbox leaves it untouched and does not start (repair it, or move it out of the data directory)`;

describe("state files at start-up", () => {
  it.each([
    [
      "a zone without a numeric lastJobId",
      { ...emptyZone, lastJobId: "7" },
      'lastJobId is "7", not a whole number',
    ],
    [
      "a zone missing lastJobId",
      { rulesets: [], jobs: [], challenges: {} },
      "lastJobId is missing, not a whole number",
    ],
    ["an empty array", [], "the file is an array, not an object"],
    ["an empty object", {}, "rulesets is missing, not an array"],
    [
      "a job without an id",
      { ...emptyZone, lastJobId: 3, jobs: [{ ...job, id: null }] },
      "jobs[0].id is null, not a whole number above 0",
    ],
    [
      "a rule without its enabled flag",
      {
        ...emptyZone,
        rulesets: [
          {
            id: "a",
            name: "n",
            kind: "zone",
            phase: "p",
            version: "1",
            rules: [{ id: "r", version: "1", action: "a", expression: "true" }],
          },
        ],
      },
      "rulesets[0].rules[0].enabled is missing, not a boolean",
    ],
  ])(
    "refuses %s, naming the file and the problem, and leaves it as it was",
    async (_name, content, problem) => {
      const text = JSON.stringify(content);
      await writeFile(zoneFile(), text);
      const [prefix, suffix] = refused(zoneFile(), "\u0000").split("\u0000") as [string, string];
      const message = await refusal();
      expect([message.startsWith(prefix), message.endsWith(suffix)]).toEqual([true, true]);
      expect(message.slice(prefix.length, -suffix.length)).toEqual(problem);
      expect(await readFile(zoneFile(), "utf8")).toBe(text);
    },
  );

  it("refuses a corrupt file, naming it, and keeps it", async () => {
    await writeFile(zoneFile(), '{"rulesets": [');
    expect(await refusal()).toMatch(
      new RegExp(
        `^state file ${zoneFile().replaceAll(".", "\\.")}: it is not JSON \\(.+\\); the sandbox leaves it untouched`,
      ),
    );
    expect(await readFile(zoneFile(), "utf8")).toBe('{"rulesets": [');
  });

  it("refuses a folder where a zone file belongs, and a file where the zones folder belongs", async () => {
    await mkdir(zoneFile());
    expect(await refusal()).toBe(refused(zoneFile(), "it is not a regular file"));
    await rm(zones, { recursive: true });
    await writeFile(zones, "not a folder");
    expect(await refusal()).toBe(refused(zones, "it is not a folder"));
    expect(await readFile(zones, "utf8")).toBe("not a folder");
  });

  it("refuses a shutdown grace a timer cannot wait, before making anything (it was a grace of 1 ms)", async () => {
    const fresh = join(dataDir, "fresh");
    const start = startSandbox({ dataDir: fresh, port: 0, apiToken: TOKEN, shutdownGraceMs: 2 ** 31 });
    await expect(start).rejects.toThrow(
      new RangeError("shutdownGraceMs must be a whole number from 0 to 2147483647, not 2147483648"),
    );
    expect(await readdir(dataDir)).toEqual(["_sandbox"]);
  });

  it("refuses, at once, a data directory whose folders cannot be made (it once retried forever)", async () => {
    // /proc/self exists and refuses new entries with ENOENT, where Node's recursive mkdir never returns.
    const start = startSandbox({ dataDir: "/proc/self", port: 0, apiToken: TOKEN });
    await expect(start).rejects.toThrow(refused("/proc/self/_sandbox/zones", "it cannot be made (ENOENT)"));
  });

  it("keeps what is not its own (an operator's backup, a folder), sweeps only its own temporary files", async () => {
    await writeFile(zoneFile(), JSON.stringify({ ...emptyZone, lastJobId: 3, jobs: [job] }));
    await writeFile(join(zones, `${ZONE}.json.bak`), "backup");
    await writeFile(join(zones, "notes.txt"), "notes");
    await mkdir(join(zones, "archive"));
    await writeFile(join(zones, `${OTHER_ZONE}.json.tmp-0123456789ab`), "{");
    await mkdir(join(dataDir, "_sandbox", "tmp"));
    await writeFile(join(dataDir, "_sandbox", "tmp", "x.log.gz.tmp-0123456789ab"), "partial");
    await writeFile(join(dataDir, "_sandbox", "tmp", "operator-file"), "kept");
    const running = await runSandbox({ dataDir });
    try {
      const listed = await call(running, "GET", `/zones/${ZONE}/logpush/jobs`);
      expect(listed).toEqual({
        status: 200,
        json: { result: [job], success: true, errors: [], messages: [] },
      });
    } finally {
      await running.stop();
    }
    expect(await filesUnder(dataDir)).toEqual([
      `_sandbox/tmp/operator-file`,
      `_sandbox/zones/${ZONE}.json.bak`,
      `_sandbox/zones/${ZONE}/challenges.json`,
      `_sandbox/zones/${ZONE}/jobs/3.json`,
      `_sandbox/zones/${ZONE}/zone.json`,
      "_sandbox/zones/notes.txt",
    ]);
    expect(await readdir(zones)).toContain("archive");
  });

  it("gives a new job the id after the highest one kept, though the zone's lastJobId says less", async () => {
    await writeFile(zoneFile(OTHER_ZONE), JSON.stringify({ ...emptyZone, lastJobId: 2, jobs: [job] }));
    const running = await runSandbox({ dataDir });
    try {
      const destination = "s3://state-bucket/new?region=us-east-1";
      const challenge = await call(running, "POST", `/zones/${ZONE}/logpush/ownership`, {
        destination_conf: destination,
      });
      const token = await readFile(
        join(dataDir, (challenge.json as { result: { filename: string } }).result.filename),
        "utf8",
      );
      const created = await call(running, "POST", `/zones/${ZONE}/logpush/jobs`, {
        destination_conf: destination,
        ownership_challenge: token,
      });
      expect((created.json as { result: { id: number } }).result.id).toBe(4);
    } finally {
      await running.stop();
    }
  });
});
