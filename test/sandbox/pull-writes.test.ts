import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createClient, type LogpushClient } from "../../src/api/index.js";
import { runCli } from "../helpers/cli.js";
import { call, ownershipToken, type Running, runSandbox, sdk, TOKEN, tempDir, ZONE } from "./helpers.js";

/* `jobs pull` writes its files as `check --fix` does (test/cli/check-fix-writes.test.ts). */

const DESTINATION = "s3://pull-bucket/logs?region=us-east-2";

let running: Running;
let client: LogpushClient;
let dir: string;
beforeEach(async () => {
  running = await runSandbox();
  client = createClient({ apiToken: TOKEN, baseUrl: running.api, env: {}, maxRetries: 0 });
  dir = await tempDir();
});
afterEach(async () => {
  await running.stop();
  await rm(dir, { recursive: true, force: true });
});

const pull = () =>
  runCli(["jobs", "pull", "--zone", ZONE, "--dir", join(dir, "jobs")], "", {
    CLOUDFLARE_API_TOKEN: TOKEN,
    CLOUDFLARE_BASE_URL: running.api,
  });

async function createJob(name: string, source: string): Promise<void> {
  const ownershipChallenge = await ownershipToken(sdk(running), running, DESTINATION);
  await client.createJob(
    { zoneId: ZONE },
    { name, destination: DESTINATION, fields: ["RayID"], filter: { source }, ownershipChallenge },
  );
}

async function putFilter(id: number, filter: string): Promise<void> {
  expect((await call(running, "PUT", `/zones/${ZONE}/logpush/jobs/${id}`, { filter })).status).toBe(200);
}

const pulled = (name: string) => join(dir, "jobs", name);
const WROTE_BOTH = { code: 0, stdout: "wrote job-1-a.lpf\nwrote job-2-b.lpf\n", stderr: "" };

describe("jobs pull writes each file as it found it", () => {
  it("keeps a pulled file's mode, and leaves one that already holds the job untouched", async () => {
    await createJob("a", "BotScore lt 30");
    await createJob("b", "BotScore lt 40");
    expect(await pull()).toEqual(WROTE_BOTH);
    chmodSync(pulled("job-1-a.lpf"), 0o600);
    const untouched = statSync(pulled("job-2-b.lpf"));
    await putFilter(1, '{"where":{"key":"BotScore","operator":"lt","value":20}}');
    expect(await pull()).toEqual(WROTE_BOTH);
    expect(readFileSync(pulled("job-1-a.lpf"), "utf8")).toContain("\nBotScore lt 20\n");
    expect(statSync(pulled("job-1-a.lpf")).mode & 0o777).toBe(0o600);
    const after = statSync(pulled("job-2-b.lpf"));
    expect([after.ino, after.mtimeMs]).toEqual([untouched.ino, untouched.mtimeMs]);
    expect(readdirSync(join(dir, "jobs")).sort()).toEqual(["job-1-a.lpf", "job-2-b.lpf"]);
  });

  it("writes through a link inside the folder, and leaves a link out of it and a file with two names", async () => {
    await createJob("a", "BotScore lt 30");
    await createJob("b", "BotScore lt 40");
    expect(await pull()).toEqual(WROTE_BOTH);
    await putFilter(1, '{"where":{"key":"BotScore","operator":"lt","value":20}}');
    await putFilter(2, '{"where":{"key":"BotScore","operator":"lt","value":10}}');
    // job 1: a link to a file of the folder; job 2: a link out of it.
    writeFileSync(pulled("kept.txt"), readFileSync(pulled("job-1-a.lpf")));
    rmSync(pulled("job-1-a.lpf"));
    symlinkSync("kept.txt", pulled("job-1-a.lpf"));
    mkdirSync(join(dir, "elsewhere"));
    const outside = join(dir, "elsewhere", "b.lpf");
    writeFileSync(outside, "BotScore lt 40\n");
    rmSync(pulled("job-2-b.lpf"));
    symlinkSync(outside, pulled("job-2-b.lpf"));
    expect(await pull()).toEqual({
      code: 1,
      stdout: "wrote job-1-a.lpf\n",
      stderr:
        'filterc jobs pull: job 2 "b": job-2-b.lpf not written: the file is outside the paths named on the command line (reached through `file()` or a symbolic link); name it, or a folder holding it, for it to be written (E0681)\n',
    });
    expect(lstatSync(pulled("job-1-a.lpf")).isSymbolicLink()).toBe(true);
    expect(readFileSync(pulled("kept.txt"), "utf8")).toContain("\nBotScore lt 20\n");
    expect(readFileSync(outside, "utf8")).toBe("BotScore lt 40\n");
    // A file with a second name is left, both names as they were.
    rmSync(pulled("job-2-b.lpf"));
    writeFileSync(pulled("job-2-b.lpf"), "# mine\n");
    linkSync(pulled("job-2-b.lpf"), join(dir, "second-name.lpf"));
    const linked = await pull();
    expect(linked.code).toBe(1);
    expect(linked.stderr).toBe(
      'filterc jobs pull: job 2 "b": job-2-b.lpf not written: it has 2 names (hard links): replacing it would cut the link, and writing it in place could leave it torn at every name if the run stopped midway; give it one name, or change it by hand; the file is left as it is (E0682)\n',
    );
    expect(readFileSync(join(dir, "second-name.lpf"), "utf8")).toBe("# mine\n");
    expect(
      JSON.parse(
        (
          await runCli(["jobs", "pull", "--json", "--zone", ZONE, "--dir", join(dir, "jobs")], "", {
            CLOUDFLARE_API_TOKEN: TOKEN,
            CLOUDFLARE_BASE_URL: running.api,
          })
        ).stdout,
      ),
    ).toEqual({ written: ["job-1-a.lpf"], failed: [2] });
  });
});
