import { mkdir, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createClient, type LogpushClient } from "../../src/api/index.js";
import { runCli } from "../helpers/cli.js";
import { makeFifo } from "../helpers/fifo.js";
import { call, ownershipToken, type Running, runSandbox, sdk, TOKEN, tempDir, ZONE } from "./helpers.js";

const DESTINATION = "s3://drift-bucket/logs?region=us-east-2";

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

const jobs = (...args: string[]) =>
  runCli(["jobs", ...args, "--zone", ZONE, "--dir", dir], "", {
    CLOUDFLARE_API_TOKEN: TOKEN,
    CLOUDFLARE_BASE_URL: running.api,
  });

async function createJob(name: string, source: string | null): Promise<void> {
  const ownershipChallenge = await ownershipToken(sdk(running), running, DESTINATION);
  await client.createJob(
    { zoneId: ZONE },
    {
      name,
      destination: DESTINATION,
      fields: ["RayID"],
      ...(source === null ? {} : { filter: { source } }),
      ownershipChallenge,
    },
  );
}

/** The setting lines of a pulled job as createJob makes it, its name written as JSON. */
const settingLines = (name: string) =>
  [
    `name: "${name}"`,
    `destination_conf: "${DESTINATION}"`,
    "enabled: true",
    'frequency: "high"',
    'kind: ""',
    "logpull_options: null",
    'output_options: {"field_names":["RayID"],"timestamp_format":"rfc3339"}',
    "max_upload_bytes: null",
    "max_upload_records: null",
    "max_upload_interval_seconds: null",
    "filter_attack_traffic: null",
  ]
    .map((line) => `# setting ${line}\n`)
    .join("");

/** A job's filter replaced out of band, as another tool would: raw JSON in a PUT. */
async function putFilter(id: number, filter: string): Promise<void> {
  const answer = await call(running, "PUT", `/zones/${ZONE}/logpush/jobs/${id}`, { filter });
  expect(answer.status).toBe(200);
}

describe("jobs pull and jobs diff against the sandbox", () => {
  it("pulls each job's filter as formatted source under a header naming the job", async () => {
    await createJob(
      "5xx-on-the-API",
      'EdgeResponseStatus geq 500 and ClientRequestHost in ["a.example", "b.example"]',
    );
    await createJob("every-thing.at-once", null);
    const pulled = await jobs("pull");
    expect(pulled).toEqual({
      code: 0,
      stdout: "wrote job-1-5xx-on-the-api.lpf\nwrote job-2-every-thing-at-once.lpf\n",
      stderr: "",
    });
    expect((await readdir(dir)).sort()).toEqual([
      "job-1-5xx-on-the-api.lpf",
      "job-2-every-thing-at-once.lpf",
    ]);
    expect(await readFile(join(dir, "job-1-5xx-on-the-api.lpf"), "utf8")).toBe(
      '# Logpush job 1 "5xx-on-the-API" (dataset http_requests)\n' +
        "# pulled by filterc jobs pull; filterc jobs diff compares the filter by meaning, each setting exactly\n" +
        "# dataset: http_requests\n" +
        settingLines("5xx-on-the-API") +
        'EdgeResponseStatus geq 500 and ClientRequestHost in ["a.example", "b.example"]\n',
    );
    expect(await readFile(join(dir, "job-2-every-thing-at-once.lpf"), "utf8")).toBe(
      '# Logpush job 2 "every-thing.at-once" (dataset http_requests)\n' +
        "# pulled by filterc jobs pull; filterc jobs diff compares the filter by meaning, each setting exactly\n" +
        "# dataset: http_requests\n" +
        settingLines("every-thing.at-once") +
        "# no filter: the job pushes every record\n",
    );
    expect(await jobs("diff")).toEqual({ code: 0, stdout: "0 jobs changed, 2 the same\n", stderr: "" });
    expect(await jobs("pull", "--json")).toEqual({
      code: 0,
      stdout: '{"written":["job-1-5xx-on-the-api.lpf","job-2-every-thing-at-once.lpf"],"failed":[]}\n',
      stderr: "",
    });
  });

  it("finds no drift in a filter rewritten out of band into JSON of the same meaning", async () => {
    await createJob("errors", 'EdgeResponseStatus geq 500 and not ClientRequestPath startsWith "/health"');
    expect((await jobs("pull")).code).toBe(0);
    // Other bytes, the same records: gt 499 for geq 500, keys and comparisons in another order, or of eq for in.
    await putFilter(
      1,
      '{"where":{"and":[{"operator":"!startsWith","value":"/health","key":"ClientRequestPath"},{"key":"EdgeResponseStatus","operator":"gt","value":499}]}}',
    );
    expect(await jobs("diff")).toEqual({ code: 0, stdout: "0 jobs changed, 1 the same\n", stderr: "" });
  });

  it("reports a filter that really changed, with a record only one side keeps, and exits 2", async () => {
    await createJob("errors", 'EdgeResponseStatus geq 500 and not ClientRequestPath startsWith "/health"');
    await createJob("bots", "BotScore lt 30");
    expect((await jobs("pull")).code).toBe(0);
    await putFilter(1, '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":400}}');
    expect(await jobs("diff")).toEqual({
      code: 2,
      stdout:
        'changed  job 1 "errors" (job-1-errors.lpf): the live job lets more through\n' +
        '  only the live job keeps: {"EdgeResponseStatus":400}\n' +
        "1 job changed, 1 the same\n",
      stderr: "",
    });
    expect(await jobs("diff", "--json")).toEqual({
      code: 2,
      stdout:
        '{"changes":[{"id":1,"name":"errors","file":"job-1-errors.lpf","status":"changed","relation":"subset","settings":[],"onlyFile":null,"onlyLive":{"EdgeResponseStatus":400}}],"same":[2],"errors":[]}\n',
      stderr: "",
    });
  });

  it("lists live jobs without a file and files whose job is gone as changes", async () => {
    await createJob("errors", "EdgeResponseStatus geq 500");
    expect((await jobs("pull")).code).toBe(0);
    expect((await call(running, "DELETE", `/zones/${ZONE}/logpush/jobs/1`)).status).toBe(200);
    await createJob("new", "BotScore lt 30");
    expect(await jobs("diff")).toEqual({
      code: 2,
      stdout:
        "gone     job 1 (job-1-errors.lpf): no live job has this id\n" +
        `no file  job 2 "new": a live job with no file in ${dir} (pull it to compare it)\n` +
        "2 jobs changed, 0 the same\n",
      stderr: "",
    });
  });

  it("exits 1 on a file with errors, naming the file and the place, and notes files without the header", async () => {
    await createJob("errors", "EdgeResponseStatus geq 500");
    expect((await jobs("pull")).code).toBe(0);
    const file = join(dir, "job-1-errors.lpf");
    const text = await readFile(file, "utf8");
    await writeFile(file, text.replace("geq 500", 'geq "many"'));
    await writeFile(join(dir, "notes.lpf"), "BotScore lt 30\n");
    const diff = await jobs("diff");
    expect(diff.code).toBe(1);
    expect(diff.stdout).toBe("0 jobs changed, 0 the same\n");
    expect(diff.stderr).toContain('note: notes.lpf has no "# Logpush job" header line; not compared\n');
    expect(diff.stderr).toContain(" --> job-1-errors.lpf:15:24\n");
    expect(diff.stderr).toContain("filterc jobs diff: job-1-errors.lpf: the file's filter has errors\n");
  });

  it("says when the directory does not exist, and refuses --dry-run", async () => {
    await rm(dir, { recursive: true, force: true });
    const missing = await jobs("diff");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      `filterc jobs: cannot read the directory ${JSON.stringify(dir)}: it does not exist (write it with jobs pull)\n`,
    );
    // A directory where a pulled file should be: once a stack trace (regression).
    await mkdir(join(dir, "x.lpf"), { recursive: true });
    expect(await jobs("diff")).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        `filterc jobs diff: x.lpf: not compared: cannot read ${join(dir, "x.lpf")}: is a directory\n`,
      ),
    });
    // A file where the folder should be: once a stack trace (regression).
    await writeFile(join(dir, "file"), "");
    const blocked = await runCli(["jobs", "pull", "--zone", ZONE, "--dir", join(dir, "file", "sub")], "", {
      CLOUDFLARE_API_TOKEN: TOKEN,
      CLOUDFLARE_BASE_URL: running.api,
    });
    expect(blocked).toEqual({
      code: 1,
      stdout: "",
      stderr: `filterc jobs: cannot write ${join(dir, "file", "sub")}: a file is in the way of a folder\n`,
    });
    const dryRun = await jobs("pull", "--dry-run");
    expect(dryRun.code).toBe(2);
    expect(dryRun.stderr).toContain("filterc jobs: jobs pull only reads jobs; it takes no --dry-run\n");
  });

  it("refuses a fifo named *.lpf in the directory without waiting for a writer (regression: hung)", async () => {
    makeFifo(join(dir, "waits.lpf"));
    // An error of its own, as any unreadable file is; the other files are still compared.
    expect(await jobs("diff")).toEqual({
      code: 1,
      stdout: "0 jobs changed, 0 the same\n",
      stderr: `filterc jobs diff: waits.lpf: not compared: cannot read ${join(dir, "waits.lpf")}: a fifo (named pipe), not a regular file\n`,
    });
  });

  it("follows no link out of the directory: a pull request's link to the runner's files is not read", async () => {
    const outside = await tempDir();
    try {
      const planted = "SECRET_OUTSIDE_987";
      await writeFile(
        join(outside, "job.lpf"),
        `# Logpush job 1 "web.logs" (dataset http_requests)\nAWS_SECRET_KEY=${planted} zzz\n`,
      );
      await symlink(join(outside, "job.lpf"), join(dir, "job-1-web-logs.lpf"));
      expect(await jobs("diff")).toEqual({
        code: 1,
        stdout: "0 jobs changed, 0 the same\n",
        stderr:
          "filterc jobs diff: job-1-web-logs.lpf: not compared: not read: a link in it leads out of the folder checked\n",
      });
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});
