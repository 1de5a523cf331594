import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { call, ownershipToken, type Running, runSandbox, sdk, TOKEN, ZONE } from "./helpers.js";

const DESTINATION = "s3://update-bucket/http?region=us-east-1";
/** Every output option set away from its default. */
const FULL_OUTPUT_OPTIONS = {
  field_names: ["RayID", "EdgeStartTimestamp", "ClientIP"],
  output_type: "csv",
  timestamp_format: "rfc3339ms",
  sample_rate: 1,
  "CVE-2021-44228": true,
  batch_prefix: "begin\n",
  batch_suffix: "end\n",
  record_prefix: "",
  record_suffix: "\n",
  record_delimiter: "",
  field_delimiter: ";",
  merge_subrequests: true,
};

let running: Running;
beforeEach(async () => {
  running = await runSandbox();
});
afterEach(() => running.stop());

const job = async () =>
  ((await call(running, "GET", `/zones/${ZONE}/logpush/jobs/1`)).json as { result: Record<string, unknown> })
    .result;

describe("filterc jobs update on a job with a full output_options", () => {
  it("changes the one option named, sends the rest as it was, and says so", async () => {
    const ownership_challenge = await ownershipToken(sdk(running), running, DESTINATION);
    const created = await call(running, "POST", `/zones/${ZONE}/logpush/jobs`, {
      name: "full",
      destination_conf: DESTINATION,
      ownership_challenge,
      output_options: FULL_OUTPUT_OPTIONS,
      max_upload_records: 5000,
    });
    expect(created.status).toBe(200);
    const before = await job();
    const update = await runCli(
      ["jobs", "update", "--zone", ZONE, "--id", "1", "--sample-rate", "0.25"],
      "",
      {
        CLOUDFLARE_API_TOKEN: TOKEN,
        CLOUDFLARE_BASE_URL: running.api,
      },
    );
    expect(update).toEqual({
      code: 0,
      stdout:
        'updated job 1 "full": http_requests → s3://update-bucket/http?region=us-east-1 (disabled)\n  output_options.sample_rate: 1 → 0.25\n',
      stderr: "",
    });
    const after = await job();
    expect(after).toEqual({
      ...before,
      output_options: { ...FULL_OUTPUT_OPTIONS, sample_rate: 0.25 },
    });
  });
});
