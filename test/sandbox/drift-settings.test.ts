import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createClient, JOB_OPTIONS, type JobOption } from "../../src/api/index.js";
import { PULLED_SETTINGS } from "../../src/cli/live-jobs.js";
import { runCli } from "../helpers/cli.js";
import { call, ownershipToken, type Running, runSandbox, sdk, TOKEN, tempDir, ZONE } from "./helpers.js";

/*
 * Whole-job drift: every setting a pulled file holds, taken from the table of job options, changed
 * on the live job (or, for a setting only creation sets, in the file) and found by jobs diff.
 */

const DESTINATION = "s3://drift-bucket/logs?region=us-east-2";
const FILE = "job-1-errors.lpf";

let running: Running;
let dir: string;
beforeEach(async () => {
  running = await runSandbox();
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

async function createJob(destination = DESTINATION): Promise<void> {
  const client = createClient({ apiToken: TOKEN, baseUrl: running.api, env: {}, maxRetries: 0 });
  await client.createJob(
    { zoneId: ZONE },
    {
      name: "errors",
      destination,
      fields: ["RayID", "EdgeResponseStatus"],
      filter: { source: "EdgeResponseStatus geq 500" },
      ownershipChallenge: await ownershipToken(sdk(running), running, destination),
    },
  );
}

async function put(body: Record<string, unknown>): Promise<void> {
  const answer = await call(running, "PUT", `/zones/${ZONE}/logpush/jobs/1`, body);
  expect(answer.status, JSON.stringify(answer)).toBe(200);
}

/** The settings of the options whose value is checked by code of its own: a new value for each. */
const OWN_VALUES: Record<string, unknown> = {
  destination_conf:
    "s3://drift-bucket/other?region=us-east-2&access-key-id=AKIAEXAMPLE&secret-access-key=s3cr3t",
  logpull_options: "fields=RayID&timestamps=unix",
  output_options: { field_names: ["EdgeResponseStatus", "RayID"], timestamp_format: "rfc3339" },
};

/** Another value than `current` that the option's rule takes. */
function changed(option: JobOption, current: unknown): unknown {
  switch (option.value.type) {
    case "boolean":
      return current !== true;
    case "enum":
      return option.value.values.find((value) => value !== current);
    case "limit":
      return option.value.min;
    case "string":
    case "token":
      return "renamed";
    case "own":
      if (!Object.hasOwn(OWN_VALUES, option.key)) throw new Error(`no value of ${option.key} to change to`);
      return OWN_VALUES[option.key];
  }
}

/** The setting lines of a file: key → the JSON text after it. */
const settingsIn = (text: string) =>
  new Map([...text.matchAll(/^# setting ([a-z_]+): (.*)$/gm)].map(([, key, json]) => [key!, json!]));

describe("jobs pull and jobs diff over every setting", () => {
  it("pulls every stored option of the table but the dataset and the filter, in the table's order", () => {
    expect(PULLED_SETTINGS).toEqual(
      JOB_OPTIONS.filter((option) => option.stored && !["dataset", "filter"].includes(option.key)).map(
        (option) => option.key,
      ),
    );
    expect(PULLED_SETTINGS).toEqual([
      "name",
      "destination_conf",
      "enabled",
      "frequency",
      "kind",
      "logpull_options",
      "output_options",
      "max_upload_bytes",
      "max_upload_records",
      "max_upload_interval_seconds",
      "filter_attack_traffic",
    ]);
  });

  it.each(PULLED_SETTINGS)("finds a change of %s and exits 2", async (key) => {
    const option = JOB_OPTIONS.find((entry) => entry.key === key)!;
    await createJob();
    expect(await jobs("pull")).toMatchObject({ code: 0 });
    const path = join(dir, FILE);
    const before = settingsIn(await readFile(path, "utf8"));
    const was = JSON.parse(before.get(key)!);
    const now = changed(option, was);
    if (option.createOnly) {
      // No update sets it on the live job: the repository's file is the side that changes.
      const text = await readFile(path, "utf8");
      await writeFile(
        path,
        text.replace(`# setting ${key}: ${before.get(key)}`, `# setting ${key}: ${JSON.stringify(now)}`),
      );
    } else {
      await put(key === "logpull_options" ? { output_options: null, logpull_options: now } : { [key]: now });
    }
    const diff = await jobs("diff");
    expect(diff.code, diff.stderr).toBe(2);
    const [live, mine] = option.createOnly ? [was, now] : [now, was];
    const shown = (value: unknown) =>
      JSON.stringify(
        key === "destination_conf"
          ? String(value).replace("s3cr3t", "****").replace("AKIAEXAMPLE", "****")
          : value,
      );
    const name = key === "name" ? "renamed" : "errors";
    const lines =
      key === "output_options"
        ? [
            '  output_options.field_names: ["EdgeResponseStatus","RayID"] live, ["RayID","EdgeResponseStatus"] in the file',
          ]
        : key === "logpull_options"
          ? [
              `  logpull_options: ${shown(now)} live, null in the file`,
              '  output_options: null live, {"field_names":["RayID","EdgeResponseStatus"],"timestamp_format":"rfc3339"} in the file',
            ]
          : [`  ${key}: ${shown(live)} live, ${shown(mine)} in the file`];
    expect(diff).toEqual({
      code: 2,
      stdout: `changed  job 1 "${name}" (${FILE}): the filter means the same; settings differ\n${lines.join("\n")}\n1 job changed, 0 the same\n`,
      stderr: "",
    });
    // Pulled again, the file holds the job as it is: nothing to report.
    if (!option.createOnly) {
      await rm(path);
      expect(await jobs("pull")).toMatchObject({ code: 0 });
      expect(await jobs("diff")).toEqual({ code: 0, stdout: "0 jobs changed, 1 the same\n", stderr: "" });
    }
  });

  it("reports the filter and the settings together, and as JSON", async () => {
    await createJob();
    await jobs("pull");
    await put({
      enabled: false,
      filter: '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":400}}',
    });
    expect(await jobs("diff")).toEqual({
      code: 2,
      stdout:
        'changed  job 1 "errors" (job-1-errors.lpf): the live job lets more through\n' +
        '  only the live job keeps: {"EdgeResponseStatus":400}\n' +
        "  enabled: false live, true in the file\n" +
        "1 job changed, 0 the same\n",
      stderr: "",
    });
    expect(JSON.parse((await jobs("diff", "--json")).stdout).changes[0]).toEqual({
      id: 1,
      name: "errors",
      file: FILE,
      status: "changed",
      relation: "subset",
      settings: [{ setting: "enabled", file: true, live: false }],
      onlyFile: null,
      onlyLive: { EdgeResponseStatus: 400 },
    });
  });

  it("compares only the settings the file holds: a line taken out is not compared", async () => {
    await createJob();
    await jobs("pull");
    const path = join(dir, FILE);
    await writeFile(path, (await readFile(path, "utf8")).replace(/^# setting enabled: .*\n/m, ""));
    await put({ enabled: false });
    expect(await jobs("diff")).toEqual({ code: 0, stdout: "0 jobs changed, 1 the same\n", stderr: "" });
  });

  it("holds the destination with its credentials masked, and compares it so", async () => {
    await createJob(OWN_VALUES["destination_conf"] as string);
    await jobs("pull");
    const text = await readFile(join(dir, FILE), "utf8");
    expect(settingsIn(text).get("destination_conf")).toBe(
      '"s3://drift-bucket/other?region=us-east-2&access-key-id=****&secret-access-key=****"',
    );
    expect(text).not.toContain("s3cr3t");
    expect(await jobs("diff")).toEqual({ code: 0, stdout: "0 jobs changed, 1 the same\n", stderr: "" });
  });

  it("refuses a setting line it cannot read, naming the line, and compares the other files", async () => {
    await createJob();
    await jobs("pull");
    const path = join(dir, FILE);
    const text = await readFile(path, "utf8");
    await writeFile(path, text.replace("# setting enabled: true", "# setting enabeld: true"));
    expect(await jobs("diff")).toEqual({
      code: 1,
      stdout: "0 jobs changed, 0 the same\n",
      stderr: `filterc jobs diff: ${FILE}: not compared: line 6: no job setting is named "enabeld"; did you mean enabled?\n`,
    });
    await writeFile(path, text.replace("# setting enabled: true", "# setting enabled: yes"));
    expect((await jobs("diff")).stderr).toBe(
      `filterc jobs diff: ${FILE}: not compared: line 6: the value of enabled is not JSON\n`,
    );
  });
});
