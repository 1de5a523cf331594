import { describe, expect, it } from "vitest";
import { createClient, type JobSettings, ValidationError } from "../../src/api/index.js";
import { rejectionOf, useTestApi } from "./harness.js";
import cases from "./job-cases.json" with { type: "json" };
import { failure, success } from "./server.js";

const api = useTestApi();

const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";
const JOBS = `/zones/${ZONE}/logpush/jobs`;
const RULESETS = `GET /zones/${ZONE}/rulesets`;
const DESTINATION = "s3://my-bucket/logs/{DATE}?region=us-west-2";
/** The token of the destination's ownership challenge (an S3 destination without keys needs one). */
const CHALLENGE = "00000000000000000000";
/** Writes a job without reading the zone's custom fields (the tests of the notices read them). */
const noRead = { checkCustomFields: false } as const;

const client = () => createClient({ baseUrl: api.baseUrl, apiToken: "t0ken-value", env: {}, maxRetries: 0 });
const job = (extra: Record<string, unknown> = {}) => ({
  id: 7,
  dataset: "http_requests",
  destination_conf: DESTINATION,
  enabled: true,
  name: "errors",
  logpull_options: "fields=ClientIP,Cookies&timestamps=rfc3339",
  filter: "",
  ...extra,
});

const validationErrorOf = (promise: Promise<unknown>) => rejectionOf(promise, ValidationError);

describe("createJob", () => {
  it("sends the body with the compiled filter and output_options", async () => {
    api.on(`POST ${JOBS}`, success(job({ id: 7 })));
    const result = await client().createJob(
      { zoneId: ZONE },
      {
        name: "errors",
        destination: DESTINATION,
        fields: ["ClientIP", "EdgeResponseStatus", "Cookies"],
        ownershipChallenge: CHALLENGE,
        filter: { source: 'EdgeResponseStatus geq 500 and ClientRequestHost eq "api.example.com"' },
      },
      noRead,
    );
    expect(api.calls()).toEqual([`POST ${JOBS}`]);
    expect(api.received[0]!.body).toBe(
      JSON.stringify({
        name: "errors",
        dataset: "http_requests",
        destination_conf: DESTINATION,
        enabled: true,
        output_options: {
          field_names: ["ClientIP", "EdgeResponseStatus", "Cookies"],
          timestamp_format: "rfc3339",
        },
        filter:
          '{"where":{"and":[{"key":"EdgeResponseStatus","operator":"geq","value":"500"},{"key":"ClientRequestHost","operator":"eq","value":"api.example.com"}]}}',
        ownership_challenge: CHALLENGE,
      }),
    );
    expect([result.job.id, result.notices, result.diagnostics]).toEqual([7, [], []]);
  });

  it("takes the filter as Logpush JSON and sends it in canonical form", async () => {
    api.on(`POST ${JOBS}`, success(job()));
    await client().createJob(
      { zoneId: ZONE },
      {
        destination: DESTINATION,
        ownershipChallenge: CHALLENGE,
        fields: ["ClientIP", "Cookies"],
        filter: {
          json: '{"where":{"or":[{"key":"ClientCountry","operator":"eq","value":"us"},{"key":"ClientCountry","operator":"eq","value":"ca"}]}}',
        },
      },
      noRead,
    );
    expect(JSON.parse(api.received[0]!.body).filter).toBe(
      '{"where":{"key":"ClientCountry","operator":"in","value":["us","ca"]}}',
    );
  });

  it("refuses a filter with type errors, with the compiler's diagnostics, sending nothing", async () => {
    const error = await validationErrorOf(
      client().createJob(
        { zoneId: ZONE },
        {
          destination: DESTINATION,
          ownershipChallenge: CHALLENGE,
          fields: ["ClientIP", "Cookies"],
          filter: { source: 'EdgeResponseStatus startsWith "5"' },
        },
      ),
    );
    expect(error.problems).toEqual([
      { code: "E0616", path: "filter", message: "the filter has 1 error; fix it before sending the job" },
    ]);
    expect(error.diagnostics.map((d) => [d.code, d.range.start.offset, d.range.end.offset])).toEqual([
      ["E0301", 19, 29],
    ]);
    expect(error.filterSource).toBe('EdgeResponseStatus startsWith "5"');
    expect(api.received).toEqual([]);
  });

  it("refuses a filter over the comparison limit", async () => {
    const source = Array.from({ length: 31 }, (_, i) => `ClientRequestPath contains "/${i}"`).join(" or ");
    const error = await validationErrorOf(
      client().createJob(
        { zoneId: ZONE },
        {
          destination: DESTINATION,
          ownershipChallenge: CHALLENGE,
          fields: ["ClientIP", "Cookies"],
          filter: { source },
          compileOptions: { maxBytes: 100_000 },
        },
      ),
    );
    expect(error.diagnostics.map((d) => d.code)).toEqual(["E0401"]);
  });

  it("refuses filter JSON that does not fit the dataset", async () => {
    const error = await validationErrorOf(
      client().createJob(
        { zoneId: ZONE },
        {
          destination: DESTINATION,
          ownershipChallenge: CHALLENGE,
          fields: ["ClientIP", "Cookies"],
          filter: { json: { where: { key: "EdgeResponseStatus", operator: "in", value: "200,201" } } },
        },
      ),
    );
    expect(error.problems.map((p) => p.code)).toEqual(["E0616"]);
    expect(error.diagnostics.map((d) => [d.code, d.message, d.range.start.offset])).toEqual([
      [
        "E0512",
        '/where/value: "in" takes a JSON array, not a comma-joined string (Logpush rejects it); write [200,201]',
        83,
      ],
    ]);
  });

  for (const c of cases) {
    it(`refuses: ${c.name}`, async () => {
      const error = await validationErrorOf(client().createJob({ zoneId: ZONE }, c.settings as JobSettings));
      expect(error.problems).toEqual(c.problems);
      expect(api.received).toEqual([]);
    });
  }

  it("sends the seed's logpull_options form exactly as given, instead of output_options", async () => {
    api.on(`POST ${JOBS}`, success(job()));
    const logpull =
      "fields=ClientIP,EdgeStartTimestamp,RayID&sample=0.1&timestamps=rfc3339&CVE-2021-44228=false";
    await client().createJob(
      { zoneId: ZONE },
      { name: "errors", destination: DESTINATION, ownershipChallenge: CHALLENGE, logpullOptions: logpull },
      noRead,
    );
    expect(api.received[0]!.body).toBe(
      JSON.stringify({
        name: "errors",
        dataset: "http_requests",
        destination_conf: DESTINATION,
        enabled: true,
        logpull_options: logpull,
        ownership_challenge: CHALLENGE,
      }),
    );
  });

  it("refuses a logpull_options string or a destination over the schema's 4096 characters", async () => {
    const logpullOptions = `fields=${"ClientIP,".repeat(455)}RayID`;
    const destination = `s3://my-bucket/${"a".repeat(4080)}?region=us-west-2`;
    const error = await validationErrorOf(
      client().createJob({ zoneId: ZONE }, { destination, logpullOptions }),
    );
    expect(error.problems).toEqual([
      {
        code: "E0618",
        path: "destination_conf",
        message: "`destination_conf` takes at most 4096 characters, not 4112 characters",
      },
      {
        code: "E0618",
        path: "logpull_options",
        message: "`logpull_options` takes at most 4096 characters, not 4107 characters",
      },
    ]);
  });

  it("refuses a destination that needs an ownership challenge without its token, naming the command", async () => {
    const settings = { destination: "gs://my-bucket/logs", fields: ["ClientIP"] };
    const error = await validationErrorOf(client().createJob({ zoneId: ZONE }, settings));
    expect(error.problems).toEqual([
      {
        code: "E0627",
        path: "ownership_challenge",
        message: `the destination "gs://my-bucket/logs" needs the token of its ownership challenge: run filterc jobs ownership --zone ${ZONE} --destination 'gs://my-bucket/logs', then give the token from the file it names with --ownership-challenge-file FILE (ownershipChallenge)`,
      },
    ]);
    const dryRun = await validationErrorOf(client().dryRun((c) => c.createJob({ zoneId: ZONE }, settings)));
    expect(dryRun.problems.map((p) => p.code)).toEqual(["E0627"]);
    api.on(`GET ${JOBS}/7`, success(job()));
    const update = await validationErrorOf(
      client().updateJob({ zoneId: ZONE }, 7, { destination: "azure://logs/http?sv=2024&sig=s3cr3t" }),
    );
    expect(update.problems.map((p) => [p.code, p.message.slice(0, 68)])).toEqual([
      ["E0627", 'the destination "azure://logs/http?sv=2024&sig=****" needs the token'],
    ]);
    expect(api.calls()).toEqual([`GET ${JOBS}/7`]);
  });

  it("needs no ownership challenge for destinations that carry their own credentials", async () => {
    api.on(`POST ${JOBS}`, success(job()));
    for (const destination of [
      "s3://my-bucket/logs?region=us-east-1&access-key-id=AKIA&secret-access-key=secret&endpoint=minio.example.com",
      "r2://logs/http?account-id=abc&access-key-id=key&secret-access-key=secret",
      "datadog://http-intake.logs.datadoghq.com/api/v2/logs?header_DD-API-KEY=key",
      "https://logs.example.com/ingest?header_Authorization=Basic%20abc",
    ])
      await client().createJob({ zoneId: ZONE }, { destination, fields: ["ClientIP"] }, noRead);
    expect(api.calls()).toEqual(Array(4).fill(`POST ${JOBS}`));
    expect(api.received.map((r) => JSON.parse(r.body).ownership_challenge)).toEqual(Array(4).fill(undefined));
  });

  it("notes each custom-fields column the job selects that the zone logs nothing into", async () => {
    const ruleset = { id: "rs1", kind: "zone", phase: "http_log_custom_fields", name: "e", version: "1" };
    api.on(RULESETS, success([ruleset]));
    api.on(
      `GET /zones/${ZONE}/rulesets/rs1`,
      success({
        ...ruleset,
        rules: [
          {
            action: "log_custom_field",
            expression: "true",
            action_parameters: { transformed_request_fields: [{ name: "host" }] },
          },
        ],
      }),
    );
    api.on(`POST ${JOBS}`, success(job()));
    const settings = {
      destination: DESTINATION,
      ownershipChallenge: CHALLENGE,
      fields: ["ClientIP", "RequestHeaders", "ResponseHeaders", "Cookies"],
    };
    const result = await client().createJob({ zoneId: ZONE }, settings);
    expect(result.notices).toEqual([
      "the job selects ResponseHeaders, but the zone logs no response header as a custom field: ResponseHeaders will be empty (add one with filterc fields add --response-header NAME)",
      "the job selects Cookies, but the zone logs no cookie as a custom field: Cookies will be empty (add one with filterc fields add --cookie NAME)",
    ]);
    api.reset();
    api.on(RULESETS, success([]));
    api.on(`POST ${JOBS}`, success(job()));
    const none = await client().createJob(
      { zoneId: ZONE },
      { destination: DESTINATION, ownershipChallenge: CHALLENGE, logpullOptions: "fields=Cookies" },
    );
    expect(none.notices).toEqual([
      "the job selects Cookies, but the zone logs no cookie as a custom field: Cookies will be empty (add one with filterc fields add --cookie NAME)",
    ]);
    expect(api.calls()).toEqual([RULESETS, `POST ${JOBS}`]);
  });

  it("warns when the zone has custom fields the job does not select", async () => {
    const ruleset = { id: "rs1", kind: "zone", phase: "http_log_custom_fields", name: "e", version: "1" };
    api.on(RULESETS, success([ruleset]));
    api.on(
      `GET /zones/${ZONE}/rulesets/rs1`,
      success({
        ...ruleset,
        last_updated: "2026-01-01T00:00:00Z",
        rules: [
          {
            action: "log_custom_field",
            expression: "true",
            action_parameters: { cookie_fields: [{ name: "sid" }] },
          },
        ],
      }),
    );
    api.on(`POST ${JOBS}`, success(job()));
    const result = await client().createJob(
      { zoneId: ZONE },
      { destination: DESTINATION, ownershipChallenge: CHALLENGE, fields: ["ClientIP"] },
    );
    expect(api.calls()).toEqual([RULESETS, `GET /zones/${ZONE}/rulesets/rs1`, `POST ${JOBS}`]);
    expect(result.notices).toEqual([
      "the zone has custom fields, but the job selects none of RequestHeaders, ResponseHeaders, Cookies: their values will not be in the logs",
    ]);
  });

  it("still creates the job when the custom fields cannot be read", async () => {
    api.on(RULESETS, failure(403, 10000, "Authentication error"));
    api.on(`POST ${JOBS}`, success(job()));
    const result = await client().createJob(
      { zoneId: ZONE },
      { destination: DESTINATION, ownershipChallenge: CHALLENGE, fields: ["ClientIP"] },
    );
    expect(result.notices).toEqual([
      "could not check the zone's custom fields (get custom fields: HTTP 403: [10000] Authentication error)",
    ]);
  });
});

describe("jobs", () => {
  it("lists jobs, leaving out null entries", async () => {
    api.on(`GET ${JOBS}`, success([job(), null]));
    expect(await client().listJobs({ zoneId: ZONE })).toEqual([job()]);
  });

  it("gets one job", async () => {
    api.on(`GET ${JOBS}/7`, success(job()));
    expect(await client().getJob({ zoneId: ZONE }, 7)).toEqual(job());
  });

  it("deletes a job", async () => {
    api.on(`DELETE ${JOBS}/7`, success({ id: 7 }));
    expect(await client().deleteJob({ zoneId: ZONE }, "7")).toEqual({ id: 7 });
    expect(api.received[0]!.body).toBe("");
  });

  it("reports a missing job", async () => {
    api.on(`GET ${JOBS}/8`, failure(404, 1003, "job not found"));
    await expect(client().getJob({ zoneId: ZONE }, 8)).rejects.toThrow(
      "get job: HTTP 404: [1003] job not found",
    );
  });

  it("refuses an invalid job ID or zone before sending", async () => {
    const badId = await validationErrorOf(client().getJob({ zoneId: ZONE }, "7a"));
    expect(badId.problems).toEqual([
      { code: "E0617", path: "id", message: 'invalid job ID "7a"; expected a positive whole number' },
    ]);
    const badZone = await validationErrorOf(client().listJobs({ zoneId: "example.com" }));
    expect(badZone.problems[0]!.message).toBe(
      "invalid zone ID \"example.com\"; expected the zone's ID (32 hex digits, on the dashboard's Overview page), not its name",
    );
    const bigId = await validationErrorOf(client().getJob({ zoneId: ZONE }, 2 ** 53 + 2));
    expect(bigId.problems[0]!.message).toBe(
      'invalid job ID "9007199254740994"; expected a positive whole number (give IDs beyond 2^53 as a string, a number cannot hold them exactly)',
    );
    expect(api.received).toEqual([]);
  });

  it("addresses a job beyond 2^53 exactly and reads its id back exactly", async () => {
    api.on(`GET ${JOBS}/9007199254740993`, {
      raw: '{"success":true,"errors":[],"messages":[],"result":{"id":9007199254740993,"dataset":"http_requests"}}',
    });
    const got = await client().getJob({ zoneId: ZONE }, "9007199254740993");
    expect(got.id).toBe("9007199254740993");
    expect(api.calls()).toEqual([`GET ${JOBS}/9007199254740993`]);
  });

  it("updates a job, reading its dataset to check the filter, and removes a filter explicitly", async () => {
    api.on(`GET ${JOBS}/7`, success(job({ dataset: "dns_logs" })));
    api.on(`PUT ${JOBS}/7`, success(job({ dataset: "dns_logs" })));
    await client().updateJob({ zoneId: ZONE }, 7, { filter: null, fields: ["QueryName"] });
    expect(api.calls()).toEqual([`GET ${JOBS}/7`, `PUT ${JOBS}/7`]);
    expect(api.received[1]!.body).toBe(
      '{"logpull_options":"fields=QueryName&timestamps=rfc3339","filter":""}',
    );
  });

  it("updates only what is given", async () => {
    api.on(`GET ${JOBS}/7`, success(job()));
    api.on(`PUT ${JOBS}/7`, success(job({ enabled: false, name: "paused" })));
    const result = await client().updateJob({ zoneId: ZONE }, 7, { enabled: false, name: "paused" });
    expect(api.received[1]!.body).toBe('{"name":"paused","enabled":false}');
    expect(result.job.enabled).toBe(false);
    expect(result.changes).toEqual([
      { path: "name", before: "errors", after: "paused" },
      { path: "enabled", before: true, after: false },
    ]);
  });
});

describe("updates change only what is named", () => {
  const fullOutput = {
    "CVE-2021-44228": true,
    batch_prefix: "[",
    batch_suffix: "]",
    field_delimiter: ",",
    field_names: ["ClientIP", "RayID", "EdgeStartTimestamp"],
    output_type: "ndjson",
    record_delimiter: ",",
    record_prefix: "{",
    record_suffix: "}",
    sample_rate: 0.5,
    timestamp_format: "unixnano",
  };

  it("sends the job's whole output_options with the one option changed, and says what changed", async () => {
    api.on(`GET ${JOBS}/7`, success(job({ logpull_options: null, output_options: fullOutput })));
    api.on(
      `PUT ${JOBS}/7`,
      success(job({ logpull_options: null, output_options: { ...fullOutput, sample_rate: 0.1 } })),
    );
    const result = await client().updateJob({ zoneId: ZONE }, 7, { outputOptions: { sample_rate: 0.1 } });
    expect(JSON.parse(api.received[1]!.body)).toEqual({
      output_options: { ...fullOutput, sample_rate: 0.1 },
    });
    expect(result.changes).toEqual([{ path: "output_options.sample_rate", before: 0.5, after: 0.1 }]);
  });

  it("changes fields without resetting the timestamps, and timestamps alone", async () => {
    api.on(`GET ${JOBS}/7`, success(job({ logpull_options: null, output_options: fullOutput })));
    api.on(`PUT ${JOBS}/7`, success(job()));
    await client().updateJob({ zoneId: ZONE }, 7, { fields: ["ClientIP", "Cookies"] }, noRead);
    expect(JSON.parse(api.received[1]!.body).output_options).toEqual({
      ...fullOutput,
      field_names: ["ClientIP", "Cookies"],
    });
    api.reset();
    api.on(`GET ${JOBS}/7`, success(job({ logpull_options: null, output_options: fullOutput })));
    api.on(`PUT ${JOBS}/7`, success(job()));
    const timestamps = await client().updateJob({ zoneId: ZONE }, 7, { timestamps: "rfc3339ms" });
    expect(timestamps.changes).toEqual([
      { path: "output_options.timestamp_format", before: "unixnano", after: "rfc3339ms" },
    ]);
  });

  it("changes a logpull_options job's filter, name and destination without converting it", async () => {
    const challenge = "11111111111111111111";
    api.on(`GET ${JOBS}/7`, success(job()));
    api.on(`PUT ${JOBS}/7`, success(job()));
    const result = await client().updateJob({ zoneId: ZONE }, 7, {
      name: "renamed",
      destination: "s3://other-bucket/logs?region=us-west-2",
      ownershipChallenge: challenge,
      filter: { source: "EdgeResponseStatus geq 500" },
    });
    expect(api.received[1]!.body).toBe(
      JSON.stringify({
        name: "renamed",
        destination_conf: "s3://other-bucket/logs?region=us-west-2",
        filter: '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":"500"}}',
        ownership_challenge: challenge,
      }),
    );
    expect(result.changes.map((change) => change.path)).toEqual(["name", "destination_conf", "filter"]);
    expect(result.notices).toEqual([]);
  });

  it("writes fields, timestamps, sample and redaction into a logpull_options job's string, keeping the rest", async () => {
    api.on(
      `GET ${JOBS}/7`,
      success(job({ logpull_options: "fields=ClientIP,Cookies&timestamps=unix&CVE-2021-44228=true" })),
    );
    api.on(`PUT ${JOBS}/7`, success(job()));
    const result = await client().updateJob(
      { zoneId: ZONE },
      7,
      { fields: ["RayID", "Cookies"], timestamps: "rfc3339", outputOptions: { sample_rate: 0.5 } },
      noRead,
    );
    expect(api.received[1]!.body).toBe(
      '{"logpull_options":"fields=RayID,Cookies&timestamps=rfc3339&CVE-2021-44228=true&sample=0.5"}',
    );
    expect(result.changes).toEqual([
      {
        path: "logpull_options",
        before: "fields=ClientIP,Cookies&timestamps=unix&CVE-2021-44228=true",
        after: "fields=RayID,Cookies&timestamps=rfc3339&CVE-2021-44228=true&sample=0.5",
      },
    ]);
  });

  it("refuses an option only output_options has on a logpull_options job, naming the conversion", async () => {
    api.on(`GET ${JOBS}/7`, success(job()));
    const error = await validationErrorOf(
      client().updateJob({ zoneId: ZONE }, 7, {
        outputOptions: { output_type: "csv" },
        timestamps: "rfc3339ms",
      }),
    );
    expect(error.problems).toEqual([
      {
        code: "E0626",
        path: "output_options.output_type",
        message:
          "the job uses logpull_options (the older form), which has no `output_options.output_type`; convert the job to output_options first (--to-output-options, or toOutputOptions: true)",
      },
    ]);
    const timestamps = await validationErrorOf(
      client().updateJob({ zoneId: ZONE }, 7, { timestamps: "rfc3339ms" }),
    );
    expect(timestamps.problems).toEqual([
      {
        code: "E0614",
        path: "logpull_options.timestamps",
        message:
          'unknown timestamp format "rfc3339ms"; use one of rfc3339, unix, unixnano (rfc3339ms and rfc3339ns exist in output_options only)',
      },
    ]);
    expect(api.calls()).toEqual([`GET ${JOBS}/7`, `GET ${JOBS}/7`]);
  });

  it("converts a logpull_options job to output_options only when asked, with every option of its string", async () => {
    api.on(
      `GET ${JOBS}/7`,
      success(job({ logpull_options: "fields=ClientIP,Cookies&sample=0.25&CVE-2021-44228=true" })),
    );
    api.on(`PUT ${JOBS}/7`, success(job()));
    const moved = await client().updateJob(
      { zoneId: ZONE },
      7,
      { toOutputOptions: true, outputOptions: { output_type: "csv" } },
      noRead,
    );
    expect(api.received[1]!.body).toBe(
      '{"output_options":{"field_names":["ClientIP","Cookies"],"timestamp_format":"unixnano","sample_rate":0.25,"CVE-2021-44228":true,"output_type":"csv"},"logpull_options":null}',
    );
    expect(moved.notices).toEqual([
      "the job moves from logpull_options to output_options, with its fields, timestamps, sample and redaction",
    ]);
    api.reset();
    api.on(`GET ${JOBS}/7`, success(job({ logpull_options: null, output_options: fullOutput })));
    const already = await client().updateJob({ zoneId: ZONE }, 7, { toOutputOptions: true });
    expect([already.changes, already.notices]).toEqual([
      [],
      [
        "the job already uses output_options: nothing to convert",
        "nothing to change: the job already is as asked",
      ],
    ]);
  });

  it("replaces a logpull_options job's string as given, and refuses one beside output_options", async () => {
    api.on(`GET ${JOBS}/7`, success(job()));
    api.on(`PUT ${JOBS}/7`, success(job()));
    await client().updateJob({ zoneId: ZONE }, 7, { logpullOptions: "fields=RayID&timestamps=unix" }, noRead);
    expect(api.received[1]!.body).toBe('{"logpull_options":"fields=RayID&timestamps=unix"}');
    api.reset();
    api.on(`GET ${JOBS}/7`, success(job({ logpull_options: null, output_options: fullOutput })));
    const error = await validationErrorOf(
      client().updateJob({ zoneId: ZONE }, 7, { logpullOptions: "fields=RayID" }),
    );
    expect(error.problems).toEqual([
      {
        code: "E0624",
        path: "logpull_options",
        message:
          "`logpull_options` cannot be combined with `output_options`: the service ignores logpull_options when output_options is present; the job has output_options, so change those instead",
      },
    ]);
  });

  it("sends nothing when the job already is as asked", async () => {
    api.on(`GET ${JOBS}/7`, success(job()));
    const result = await client().updateJob({ zoneId: ZONE }, 7, { enabled: true, name: "errors" });
    expect(api.calls()).toEqual([`GET ${JOBS}/7`]);
    expect([result.changes, result.notices]).toEqual([
      [],
      ["nothing to change: the job already is as asked"],
    ]);
  });

  it("checks fields against the job's own dataset, and refuses to change dataset or kind", async () => {
    api.on(`GET ${JOBS}/7`, success(job({ dataset: "dns_logs" })));
    const error = await validationErrorOf(client().updateJob({ zoneId: ZONE }, 7, { fields: ["ClientIP"] }));
    expect(error.problems).toEqual([
      {
        code: "E0612",
        path: "logpull_options.fields[0]",
        message: "unknown field `ClientIP` in dataset `dns_logs`",
      },
    ]);
    const kind = await validationErrorOf(client().updateJob({ zoneId: ZONE }, 7, { kind: "edge" }));
    expect(kind.problems).toEqual([
      {
        code: "E0620",
        path: "kind",
        message: "`kind` is set when a job is created; a job's `kind` cannot change",
      },
    ]);
    expect(api.calls()).toEqual([`GET ${JOBS}/7`, `GET ${JOBS}/7`]);
  });

  it("the dry run reads the job and shows the same changes, writing nothing", async () => {
    api.on(`GET ${JOBS}/7`, success(job({ logpull_options: null, output_options: fullOutput })));
    const plan = await client().dryRun((c) =>
      c.updateJob({ zoneId: ZONE }, 7, { outputOptions: { sample_rate: 1 } }),
    );
    expect(plan.requests.map((r) => [r.method, r.sent, r.body])).toEqual([
      ["GET", true, null],
      ["PUT", false, JSON.stringify({ output_options: { ...fullOutput, sample_rate: 1 } })],
    ]);
    expect(plan.result.changes).toEqual([{ path: "output_options.sample_rate", before: 0.5, after: 1 }]);
    expect(api.calls()).toEqual([`GET ${JOBS}/7`]);
  });
});

describe("account scope", () => {
  const ACCOUNT = "9a7806061c88ada191ed06f989cc3dac";
  it("creates an account-level job of an account dataset, with no custom-fields read", async () => {
    api.on(`POST /accounts/${ACCOUNT}/logpush/jobs`, success(job({ dataset: "gateway_http" })));
    await client().createJob(
      { accountId: ACCOUNT },
      {
        dataset: "gateway_http",
        destination: DESTINATION,
        ownershipChallenge: CHALLENGE,
        fields: ["Datetime"],
      },
    );
    expect(api.calls()).toEqual([`POST /accounts/${ACCOUNT}/logpush/jobs`]);
  });

  it("refuses both scopes, or an account ID that is not 32 hex digits", async () => {
    const both = await validationErrorOf(client().listJobs({ zoneId: ZONE, accountId: ACCOUNT } as never));
    expect(both.problems[0]!.message).toBe(
      'invalid scope "both zoneId and accountId"; expected exactly one of { zoneId } and { accountId }',
    );
    const bad = await validationErrorOf(client().listJobs({ accountId: "me@example.com" }));
    expect(bad.problems[0]!.message).toBe(
      "invalid account ID \"me@example.com\"; expected the account's ID (32 hex digits, in the dashboard's URL), not its name or email",
    );
    expect(api.received).toEqual([]);
  });
});

describe("dry runs", () => {
  it("shows the create request with the credential masked, sending nothing", async () => {
    const plan = await client().dryRun((c) =>
      c.createJob(
        { zoneId: ZONE },
        { destination: DESTINATION, ownershipChallenge: CHALLENGE, fields: ["ClientIP"] },
        noRead,
      ),
    );
    expect(plan.requests).toEqual([
      {
        operation: "create job",
        method: "POST",
        url: `${api.baseUrl}${JOBS}`,
        headers: {
          Accept: "application/json",
          "Content-Type": "application/json",
          Authorization: "Bearer ****",
        },
        body: `{"dataset":"http_requests","destination_conf":"${DESTINATION}","enabled":true,"output_options":{"field_names":["ClientIP"],"timestamp_format":"rfc3339"},"ownership_challenge":"${CHALLENGE}"}`,
        sent: false,
      },
    ]);
    expect(api.received).toEqual([]);
  });
});
