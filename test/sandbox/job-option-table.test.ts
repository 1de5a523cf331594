import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkJobBody, JOB_OPTIONS, type JobOption } from "../../src/api/index.js";
import { usage } from "../../src/cli/commands/jobs.js";
import { runCli } from "../helpers/cli.js";
import { call, ownershipToken, type Running, runSandbox, sdk, TOKEN, tempDir, ZONE } from "./helpers.js";

/*
 * A job option is one entry of JOB_OPTIONS: each entry that a flag sets is checked here, from the
 * flag in `filterc jobs --help` through the client's checks and body to the job the sandbox keeps,
 * served again after a restart.
 */

const DESTINATION = "s3://table-bucket/logs?region=us-east-1";

/** The options set one to one from a flag. */
const flagged = JOB_OPTIONS.filter(
  (option): option is JobOption & Required<Pick<JobOption, "flag" | "setting">> =>
    option.flag !== undefined && option.setting !== undefined,
);

/** Values an option takes, other than what a new job has, each with the flags that give it. */
function samples(option: JobOption): { args: string[]; value: unknown }[] {
  const { flag, value: rule } = option;
  if (!flag) return [];
  switch (rule.type) {
    case "boolean":
      return [
        { args: [flag.name], value: true },
        { args: [flag.off!], value: false },
      ];
    case "enum":
      return rule.values
        .filter((value) => value !== option.stored?.initial)
        .map((value) => ({ args: [flag.name, value], value }));
    case "limit":
      return [rule.min, rule.max].map((value) => ({ args: [flag.name, String(value)], value }));
    case "own":
      // The destination: the one every job here is created with.
      return [{ args: [flag.name, DESTINATION], value: DESTINATION }];
    default:
      return [{ args: [flag.name, "table-value"], value: "table-value" }];
  }
}

let dataDir: string;
let running: Running;
let challenge: string;
beforeAll(async () => {
  dataDir = await tempDir();
  running = await runSandbox({ dataDir });
  challenge = await ownershipToken(sdk(running), running, DESTINATION);
});
afterAll(async () => {
  await running.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the table of job options", () => {
  it("has a flag and a setting for each option whose value has a rule of its own or none", () => {
    expect(flagged.map((option) => option.key)).toEqual([
      "name",
      "destination_conf",
      "enabled",
      "frequency",
      "kind",
      "max_upload_bytes",
      "max_upload_records",
      "max_upload_interval_seconds",
      "filter_attack_traffic",
    ]);
  });

  it.each(flagged.map((option) => [option.key, option] as const))(
    "%s: shown in jobs --help, checked, and kept by the sandbox as the flag gives it",
    async (key, option) => {
      const { flag } = option;
      const shown = flag.off
        ? `  ${flag.name}, ${flag.off}`
        : `  ${flag.name}${flag.value ? ` ${flag.value}` : ""}`;
      expect(usage).toContain(`\n${shown}`);
      expect(usage).toContain(flag.help.split(" ").slice(0, 3).join(" "));
      if (option.value.type !== "own") {
        const wrong = checkJobBody(
          { [key]: {} },
          { mode: "create", dataset: "http_requests", catalog: undefined },
        );
        expect(wrong.problems.map((problem) => [problem.code, problem.path])).toEqual([["E0618", key]]);
      }
      for (const { args, value } of samples(option)) {
        const checked = checkJobBody(
          { [key]: value },
          { mode: "create", dataset: "http_requests", catalog: undefined },
        );
        expect(checked.problems).toEqual([]);
        const created = await runCli(
          [
            "jobs",
            "create",
            "--zone",
            ZONE,
            "--destination",
            DESTINATION,
            "--ownership-challenge",
            challenge,
          ].concat(["--fields", "ClientIP", "--json", ...args]),
          "",
          { CLOUDFLARE_API_TOKEN: TOKEN, CLOUDFLARE_BASE_URL: running.api },
        );
        expect(created.stderr).toBe("");
        expect(created.code).toBe(0);
        const id = (JSON.parse(created.stdout) as { job: { id: number } }).job.id;
        const served = await call(running, "GET", `/zones/${ZONE}/logpush/jobs/${id}`);
        expect((served.json as { result: Record<string, unknown> }).result[key]).toEqual(value);
      }
    },
  );

  it("serves every stored field again after a restart, the saved job checked with the table", async () => {
    const before = (await call(running, "GET", `/zones/${ZONE}/logpush/jobs`)).json as { result: object[] };
    await running.stop();
    running = await runSandbox({ dataDir });
    const after = (await call(running, "GET", `/zones/${ZONE}/logpush/jobs`)).json as { result: object[] };
    expect(after.result).toEqual(before.result);
    const stored = JOB_OPTIONS.filter((option) => option.stored && !option.stored.optional).map(
      ({ key }) => key,
    );
    for (const job of after.result) expect(Object.keys(job)).toEqual(expect.arrayContaining(stored));
  });
});
