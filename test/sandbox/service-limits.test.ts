import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serviceLimitWarnings } from "../../src/cli/service-limits.js";
import { runCli } from "../helpers/cli.js";
import { ownershipToken, type Running, runSandbox, sdk, TOKEN, tempDir, ZONE } from "./helpers.js";

/*
 * --max-bytes and --max-operators above the service's limits: kept for experiments, and a warning
 * naming the service's limit wherever the filter is then sent.
 */

const DESTINATION = "s3://limits/logs?region=us-east-2";
const OPERATORS_WARNING =
  "warning: the comparison limit is 100 (--max-operators), above the service's 30: it refuses a filter with more than 30 comparisons\n";
const BYTES_WARNING =
  "warning: the byte limit is 5000 (--max-bytes), above the service's 1000: it refuses a filter longer than 1000 bytes\n";

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

const cli = (args: string[], cwd = dir) =>
  runCli(args, "", { CLOUDFLARE_API_TOKEN: TOKEN, CLOUDFLARE_BASE_URL: running.api }, false, cwd);

async function create(...extra: string[]) {
  const token = await ownershipToken(sdk(running), running, DESTINATION);
  return cli([
    "jobs",
    "create",
    "--zone",
    ZONE,
    "--destination",
    DESTINATION,
    "--fields",
    "RayID",
    "--ownership-challenge",
    token,
    ...extra,
  ]);
}

describe("limits above the service's", () => {
  it("warn on jobs create, naming the service's limit, and the job is still sent", async () => {
    const run = await create("--expr", "BotScore lt 30", "--max-bytes", "5000", "--max-operators", "100");
    expect(run.code).toBe(0);
    expect(run.stderr).toBe(OPERATORS_WARNING + BYTES_WARNING);
    expect(run.stdout).toMatch(/^created job 1: /);
  });

  it("warn on jobs update with a filter, and name filterc.json where it set the limit", async () => {
    expect((await create("--expr", "BotScore lt 30")).stderr).toBe("");
    await mkdir(join(dir, "filters"));
    await writeFile(join(dir, "filters", "filterc.json"), '{"maxBytes": 2000}');
    await writeFile(join(dir, "filters", "bots.lpf"), "BotScore lt 20\n");
    const update = await cli([
      "jobs",
      "update",
      "--zone",
      ZONE,
      "--id",
      "1",
      "--filter",
      join(dir, "filters", "bots.lpf"),
    ]);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stderr).toBe(
      "warning: the byte limit is 2000 (filterc.json's maxBytes), above the service's 1000: it refuses a filter longer than 1000 bytes\n",
    );
    // An update that sends no filter has no limit to warn of.
    const renamed = await cli([
      "jobs",
      "update",
      "--zone",
      ZONE,
      "--id",
      "1",
      "--name",
      "x",
      "--max-bytes",
      "5000",
    ]);
    expect(renamed).toMatchObject({ code: 0, stderr: "" });
  });

  it("do not warn at the service's limits, nor where nothing is sent", async () => {
    expect(
      (await create("--expr", "BotScore lt 30", "--max-bytes", "1000", "--max-operators", "30")).stderr,
    ).toBe("");
    for (const command of ["compile", "check", "explain"])
      expect((await runCli([command, "--max-bytes", "5000"], "BotScore lt 1")).stderr).toBe("");
  });

  it("warn on the Terraform check, whose jobs terraform apply sends", async () => {
    await writeFile(
      join(dir, "main.tf"),
      'resource "cloudflare_logpush_job" "errors" {\n  zone_id = "023e105f4ecef8ad9ca31a8372d0c353"\n  dataset = "http_requests"\n  destination_conf = "s3://logs/http?region=us-west-2"\n  filter = jsonencode({ where = { key = "BotScore", operator = "lt", value = 30 } })\n}\n',
    );
    const run = await cli(["check", "main.tf", "--max-bytes", "5000"]);
    expect(run.stderr.startsWith(BYTES_WARNING)).toBe(true);
  });

  it("warn on tail and explorer set, which send the filter", async () => {
    const tail = await cli([
      "tail",
      "--zone",
      ZONE,
      "--expr",
      "BotScore lt 30",
      "--max-bytes",
      "5000",
      "--dry-run",
    ]);
    expect(tail.code, tail.stderr).toBe(0);
    expect(tail.stderr).toBe(BYTES_WARNING);
    const set = await cli([
      "explorer",
      "set",
      "--zone",
      ZONE,
      "--id",
      "1",
      "--expr",
      "BotScore lt 30",
      "--max-operators",
      "100",
      "--dry-run",
    ]);
    expect(set.stderr.startsWith(OPERATORS_WARNING)).toBe(true);
  });

  it("are measured against the limits a caller's service gives", () => {
    expect(serviceLimitWarnings({ maxOperators: 20 }, { maxOperators: 10, maxBytes: 500 })).toEqual([
      "warning: the comparison limit is 20 (--max-operators), above the service's 10: it refuses a filter with more than 10 comparisons",
    ]);
    expect(serviceLimitWarnings({ maxOperators: 30, maxBytes: 1000 })).toEqual([]);
  });
});
