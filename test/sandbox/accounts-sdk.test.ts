import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sandboxForEachTest, sdkRejection } from "./helpers.js";

const ACCOUNT = "9a7806061c88ada191ed06f989cc3dac";
const DESTINATION = "s3://gateway-bucket/logs/{DATE}?region=us-east-1";
const OUTPUT_OPTIONS = {
  field_names: ["Datetime", "Action", "URL"],
  output_type: "ndjson" as const,
  timestamp_format: "rfc3339ns" as const,
  sample_rate: 1,
  "CVE-2021-44228": true,
  batch_prefix: "",
  batch_suffix: "",
  record_prefix: "{",
  record_suffix: "}\n",
  record_delimiter: "",
  field_delimiter: ",",
};

const sandbox = sandboxForEachTest();

describe("the official SDK against the sandbox's account-level jobs", () => {
  it("creates a job with output_options, enables and disables it, and the push follows", async () => {
    const challenge = await sandbox.client.logpush.ownership.create({
      account_id: ACCOUNT,
      destination_conf: DESTINATION,
    });
    const ownership_challenge = await readFile(join(sandbox.running.dataDir, challenge!.filename!), "utf8");
    const job = await sandbox.client.logpush.jobs.create({
      account_id: ACCOUNT,
      dataset: "gateway_http",
      destination_conf: DESTINATION,
      ownership_challenge,
      output_options: OUTPUT_OPTIONS,
      max_upload_records: 1000,
    });
    expect(job).toMatchObject({
      id: 1,
      dataset: "gateway_http",
      enabled: false,
      output_options: OUTPUT_OPTIONS,
    });
    const listed = [];
    for await (const item of sandbox.client.logpush.jobs.list({ account_id: ACCOUNT })) listed.push(item);
    expect(listed).toEqual([job]);

    const ingest = () =>
      fetch(`${sandbox.running.api}/accounts/${ACCOUNT}/sandbox/ingest?dataset=gateway_http`, {
        method: "POST",
        headers: { authorization: "Bearer sandbox-test-token" },
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the log4j lookup CVE-2021-44228 defuses, as text
        body: '{"Action":"block","URL":"https://example.com/${jndi:x}","Datetime":"2026-11-24T10:15:00.5Z","Email":"a@example.com"}\n',
      }).then((response) => response.json() as Promise<{ result: { deliveries: { file: string }[] } }>);
    // Disabled: nothing is pushed.
    expect((await ingest()).result.deliveries).toEqual([]);
    const enabled = await sandbox.client.logpush.jobs.update(1, { account_id: ACCOUNT, enabled: true });
    expect(enabled).toEqual({ ...job, enabled: true });
    const [delivery] = (await ingest()).result.deliveries;
    const { gunzipSync } = await import("node:zlib");
    expect(gunzipSync(await readFile(join(sandbox.running.dataDir, delivery!.file))).toString()).toBe(
      '{"Datetime":"2026-11-24T10:15:00.500000000Z","Action":"block","URL":"https://example.com/x{jndi:x}"}\n',
    );
    const disabled = await sandbox.client.logpush.jobs.update(1, { account_id: ACCOUNT, enabled: false });
    expect(disabled).toEqual({ ...job, enabled: false, last_complete: expect.any(String) });
    expect((await ingest()).result.deliveries).toEqual([]);

    expect(
      await sdkRejection(
        sandbox.client.logpush.jobs.update(1, {
          account_id: ACCOUNT,
          output_options: { ...OUTPUT_OPTIONS, timestamp_format: "iso" as never },
        }),
      ),
    ).toMatchObject({ status: 400, errors: [{ code: 1002 }] });
    expect(await sandbox.client.logpush.jobs.delete(1, { account_id: ACCOUNT })).toEqual({ id: 1 });
  });
});
