import type Cloudflare from "cloudflare";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Job } from "../../src/sandbox/model.js";
import { ownershipToken, type Running, runSandbox, sdk, sdkRejection, ZONE } from "./helpers.js";

const DESTINATION = "s3://logs-bucket/http/{DATE}?region=us-west-2";
const FILTER =
  '{"where":{"and":[{"key":"ClientRequestPath","operator":"contains","value":"/static"},{"key":"ClientRequestHost","operator":"eq","value":"example.com"}]}}';
const OUTPUT_OPTIONS = {
  field_names: ["RayID", "ClientIP", "EdgeStartTimestamp"],
  output_type: "ndjson" as const,
  timestamp_format: "unixnano" as const,
};

let running: Running;
let client: Cloudflare;
let challenge: string;
beforeEach(async () => {
  running = await runSandbox();
  client = sdk(running);
  challenge = await ownershipToken(client, running, DESTINATION);
});
afterEach(() => running.stop());

const create = (body: Record<string, unknown>) =>
  client.logpush.jobs.create({
    zone_id: ZONE,
    destination_conf: DESTINATION,
    ownership_challenge: challenge,
    ...body,
  } as never) as unknown as Promise<Job>;

describe("Logpush jobs through the official SDK", () => {
  it("issues an ownership challenge as a file in the destination folder", async () => {
    const issued = await client.logpush.ownership.create({ zone_id: ZONE, destination_conf: DESTINATION });
    expect(issued).toEqual({
      filename: expect.stringMatching(/^logs-bucket\/http\/\d{8}\/ownership-challenge-[0-9a-f]{8}\.txt$/),
      message: "",
      valid: true,
    });
    const valid = await client.logpush.ownership.validate({
      zone_id: ZONE,
      destination_conf: DESTINATION,
      ownership_challenge: "not-the-token",
    });
    expect(valid).toEqual({ valid: false });
  });

  it("creates, lists, gets, updates and deletes a job", async () => {
    const job = await create({
      name: "example.com",
      dataset: "http_requests",
      filter: FILTER,
      output_options: OUTPUT_OPTIONS,
    });
    expect(job).toEqual({
      id: 1,
      dataset: "http_requests",
      enabled: false,
      name: "example.com",
      kind: "",
      destination_conf: DESTINATION,
      filter: FILTER,
      logpull_options: null,
      output_options: OUTPUT_OPTIONS,
      frequency: "high",
      max_upload_bytes: null,
      max_upload_interval_seconds: null,
      max_upload_records: null,
      error_message: null,
      last_complete: null,
      last_error: null,
    });
    const second = await create({ dataset: "firewall_events", enabled: true });
    expect(second).toMatchObject({ id: 2, dataset: "firewall_events", enabled: true, filter: "" });

    const listed = [];
    for await (const item of client.logpush.jobs.list({ zone_id: ZONE })) listed.push(item);
    expect(listed).toEqual([job, second]);
    expect(await client.logpush.jobs.get(1, { zone_id: ZONE })).toEqual(job);

    const updated = await client.logpush.jobs.update(1, {
      zone_id: ZONE,
      enabled: true,
      filter: null,
      max_upload_records: 1000,
    });
    expect(updated).toEqual({ ...job, enabled: true, filter: "", max_upload_records: 1000 });

    expect(await client.logpush.jobs.delete(1, { zone_id: ZONE })).toEqual({ id: 1 });
    expect(await sdkRejection(client.logpush.jobs.get(1, { zone_id: ZONE }))).toEqual({
      status: 404,
      errors: [{ code: 1005, message: "job 1 not found" }],
    });
    // Ids are never reused.
    expect((await create({})).id).toBe(3);
  });

  it("creates a job of the seed's logpull_options form, kept as given through updates", async () => {
    const logpull = "fields=RayID,ClientIP,EdgeStartTimestamp&timestamps=rfc3339";
    const job = await create({ name: "seed", logpull_options: logpull });
    expect([job.logpull_options, job.output_options]).toEqual([logpull, null]);
    const updated = (await client.logpush.jobs.update(job.id, {
      zone_id: ZONE,
      filter: '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":"500"}}',
    })) as unknown as Job;
    expect([updated.logpull_options, updated.output_options]).toEqual([logpull, null]);
  });

  it("takes a destination that carries its own keys without an ownership challenge", async () => {
    const destination =
      "s3://keyed-bucket/http?region=us-east-1&access-key-id=AKIA1&secret-access-key=secret&endpoint=minio.example.com";
    const job = (await client.logpush.jobs.create({
      zone_id: ZONE,
      destination_conf: destination,
      output_options: OUTPUT_OPTIONS,
    } as never)) as unknown as Job;
    expect(job.destination_conf).toBe(destination);
  });

  it("lists a dataset's fields and its jobs", async () => {
    const fields = (await client.logpush.datasets.fields.get("http_requests", { zone_id: ZONE })) as Record<
      string,
      string
    >;
    expect(Object.keys(fields)).toContain("EdgeResponseStatus");
    expect(Object.keys(fields)).toContain("RequestHeaders");
    const job = await create({ dataset: "dns_logs" });
    const jobs = [];
    for await (const item of client.logpush.datasets.jobs.get("dns_logs", { zone_id: ZONE })) jobs.push(item);
    expect(jobs).toEqual([job]);
  });
});

describe("the jobs API refuses what the service refuses", () => {
  it.each([
    [
      "a comma-joined in list on an int field, as the service answers",
      { filter: '{"where":{"and":[{"key":"EdgeResponseStatus","operator":"in","value":"200,201"}]}}' },
      {
        code: 1004,
        message: 'bad predicate: failed to decode value "\\"200,201\\"", supported kinds: []uint64',
      },
    ],
    [
      "an unknown dataset",
      { dataset: "http_request" },
      { code: 1002, message: 'dataset "http_request" is unknown' },
    ],
    [
      "an unknown output field",
      { output_options: { field_names: ["ClientIp"] } },
      {
        code: 1002,
        message: "unknown field `ClientIp` in dataset `http_requests`; did you mean `ClientIP`?",
        source: { pointer: "/output_options/field_names/0" },
      },
    ],
    [
      "an upload limit out of range",
      { max_upload_bytes: 1000 },
      {
        code: 1002,
        message: "`max_upload_bytes` takes 0 or 5,000,000–1,000,000,000 (bytes), not 1000",
        source: { pointer: "/max_upload_bytes" },
      },
    ],
    [
      "a destination the sandbox cannot deliver to",
      { destination_conf: "https://logs.example.com/ingest" },
      {
        code: 1002,
        message:
          'destination_conf "https://logs.example.com/ingest" is not supported by the sandbox: it delivers to s3://bucket/path?region=REGION',
      },
    ],
    [
      "a dataset that lives under accounts",
      { dataset: "gateway_http" },
      {
        code: 1002,
        message: expect.stringContaining("`gateway_http` has no zone-level jobs"),
        source: { pointer: "/dataset" },
      },
    ],
    [
      "a logpull_options string with an unknown key, as the client does",
      { logpull_options: "fields=RayID&start=2026-01-01T00:00:00Z" },
      {
        code: 1002,
        message:
          "unknown job option `logpull_options.start`; known options: fields, timestamps, sample, CVE-2021-44228",
        source: { pointer: "/logpull_options/start" },
      },
    ],
    [
      "a logpull_options field of another dataset",
      { logpull_options: "fields=RayID,QueryName&timestamps=rfc3339" },
      {
        code: 1002,
        message: "unknown field `QueryName` in dataset `http_requests`",
        source: { pointer: "/logpull_options/fields/1" },
      },
    ],
    [
      "a missing ownership challenge",
      { ownership_challenge: undefined },
      {
        code: 1003,
        message:
          "ownership_challenge is required for this destination; request one with POST /zones/{zone_id}/logpush/ownership",
      },
    ],
    [
      "a wrong ownership challenge",
      { ownership_challenge: "00000000000000000000" },
      { code: 1003, message: "ownership_challenge is not valid for this destination" },
    ],
  ])("refuses %s", async (_name, body, error) => {
    expect(await sdkRejection(create(body))).toEqual({ status: 400, errors: [error] });
    const listed = [];
    for await (const item of client.logpush.jobs.list({ zone_id: ZONE })) listed.push(item);
    expect(listed).toEqual([]);
  });

  it("checks filters with the compiler: types, names and the limits", async () => {
    const leaf = (key: string, operator: string, value: unknown) => ({ key, operator, value });
    const filterOf = (where: unknown) => JSON.stringify({ where });
    const cases: [unknown, RegExp][] = [
      [leaf("EdgeResponseStatus", "startsWith", "5"), /^bad predicate: .*startsWith/],
      [leaf("ClientIp", "eq", "1.1.1.1"), /^bad predicate: .*ClientIP/],
      [leaf("RequestHeaders", "eq", "x"), /^bad predicate: .*RequestHeaders/],
      [
        { or: Array.from({ length: 31 }, (_, i) => leaf("ClientRequestPath", "contains", `/p${i}`)) },
        /^bad predicate: .*31.*30/,
      ],
    ];
    for (const [where, message] of cases) {
      const { status, errors } = await sdkRejection(create({ filter: filterOf(where) }));
      expect(status).toBe(400);
      expect(errors).toEqual([{ code: 1004, message: expect.stringMatching(message) }]);
    }
    const ok = await create({ filter: filterOf(leaf("EdgeResponseStatus", "in", [200, 201])) });
    expect(ok.filter).toBe('{"where":{"key":"EdgeResponseStatus","operator":"in","value":[200,201]}}');
  });
});
