import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/compile.js";
import type { Job } from "../../src/sandbox/model.js";
import { call, filesUnder, ownershipToken, sandboxForEachTest, ZONE } from "./helpers.js";

const DESTINATION = "s3://logs-bucket/http/{DATE}?region=us-east-1";

const sandbox = sandboxForEachTest();

async function createJob(body: Record<string, unknown>): Promise<Job> {
  const ownership_challenge = await ownershipToken(sandbox.client, sandbox.running, DESTINATION);
  return (await sandbox.client.logpush.jobs.create({
    zone_id: ZONE,
    destination_conf: DESTINATION,
    ownership_challenge,
    ...body,
  } as never)) as unknown as Job;
}

const ingest = (lines: string[], dataset?: string) =>
  call(
    sandbox.running,
    "POST",
    `/zones/${ZONE}/sandbox/ingest${dataset ? `?dataset=${dataset}` : ""}`,
    lines.join("\n"),
  );

/** A value over 8 KB whose cut falls inside a two-byte character: 8191 ASCII bytes, then "é". */
const LONG_VALUE = `${"a".repeat(8191)}é${"b".repeat(100)}`;

const record = (ray: string, status: number, extra: Record<string, unknown> = {}) => ({
  RayID: ray,
  EdgeResponseStatus: status,
  ClientRequestHost: "example.com",
  RequestHeaders: {
    "Content-Type": "application/json",
    "X-Request-Id": `id-${ray}`,
    Authorization: "Bearer secret",
  },
  ResponseHeaders: { server: "cloudflare", "set-cookie": "a=b" },
  Cookies: { session: `s-${ray}`, Session: "other-case", tracking: "t" },
  ...extra,
});

describe("the push", () => {
  it("delivers exactly the matching records with exactly the configured custom fields", async () => {
    await sandbox.client.rulesets.phases.update("http_log_custom_fields", {
      zone_id: ZONE,
      rules: [
        {
          action: "log_custom_field",
          expression: "true",
          action_parameters: {
            request_fields: [{ name: "content-type" }, { name: "x-request-id" }, { name: "x-missing" }],
            cookie_fields: [{ name: "session" }],
          },
        },
      ],
    });
    const filter = compile("EdgeResponseStatus geq 500 and ClientRequestHost eq 'example.com'").filter;
    const job = await createJob({
      enabled: true,
      filter,
      output_options: { field_names: ["RayID", "EdgeResponseStatus", "RequestHeaders", "Cookies"] },
    });
    await createJob({ enabled: false });
    await createJob({ enabled: true, dataset: "firewall_events" });

    const lines = [
      JSON.stringify(record("r1", 200)),
      JSON.stringify(record("r2", 502)),
      JSON.stringify(record("r3", 503, { ClientRequestHost: "other.example" })),
      "{not json",
      "",
      JSON.stringify(
        record("r4", 500, {
          RequestHeaders: { "content-type": LONG_VALUE, "x-request-id": ["a", "b"] },
        }),
      ),
    ];
    const response = await ingest(lines);
    const date = new Date().toISOString().slice(0, 10).replaceAll("-", "");
    expect(response).toEqual({
      status: 200,
      json: {
        result: {
          records: 4,
          malformed: 1,
          malformed_lines: [4],
          deliveries: [
            {
              job_id: job.id,
              records: 2,
              file: expect.stringMatching(
                new RegExp(
                  `^logs-bucket/http/${date}/${date}T\\d{6}Z_${date}T\\d{6}Z_[0-9a-f]{8}\\.log\\.gz$`,
                ),
              ),
            },
          ],
          failures: [],
        },
        success: true,
        errors: [],
        messages: [],
      },
    });

    const delivered = (response.json as { result: { deliveries: { file: string }[] } }).result.deliveries[0]!
      .file;
    const text = gunzipSync(await readFile(join(sandbox.running.dataDir, delivered))).toString("utf8");
    expect(text).toBe(
      [
        '{"RayID":"r2","EdgeResponseStatus":502,"RequestHeaders":{"content-type":"application/json","x-request-id":"id-r2"},"Cookies":{"session":"s-r2"}}',
        `{"RayID":"r4","EdgeResponseStatus":500,"RequestHeaders":{"content-type":"${"a".repeat(8191)}","x-request-id":"a, b"},"Cookies":{"session":"s-r4"}}`,
        "",
      ].join("\n"),
    );
    const pushed = (await filesUnder(sandbox.running.dataDir)).filter((file) => file.endsWith(".log.gz"));
    expect(pushed).toEqual([delivered]);
    const after = (await sandbox.client.logpush.jobs.get(job.id, { zone_id: ZONE })) as unknown as Job;
    expect(after.last_complete).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it("logs no custom field when none is configured, and all fields when the job selects none", async () => {
    const job = await createJob({ enabled: true });
    const response = await ingest([JSON.stringify({ RayID: "r1", RequestHeaders: { accept: "*/*" } })]);
    const file = (response.json as { result: { deliveries: { job_id: number; file: string }[] } }).result
      .deliveries;
    expect(file.map((d) => d.job_id)).toEqual([job.id]);
    const text = gunzipSync(await readFile(join(sandbox.running.dataDir, file[0]!.file))).toString("utf8");
    expect(text).toBe('{"RayID":"r1","RequestHeaders":{},"ResponseHeaders":{},"Cookies":{}}\n');
  });

  it("writes no file for a job that keeps no record, and refuses an unknown dataset", async () => {
    await createJob({ enabled: true, filter: compile("EdgeResponseStatus eq 418").filter });
    const response = await ingest([JSON.stringify({ EdgeResponseStatus: 200 })]);
    expect(response.json).toMatchObject({
      result: { records: 1, malformed: 0, malformed_lines: [], deliveries: [] },
    });
    expect(await ingest(["{}"], "nope")).toEqual({
      status: 400,
      json: {
        result: null,
        success: false,
        errors: [{ code: 1002, message: 'dataset "nope" is unknown' }],
        messages: [],
      },
    });
  });
});
