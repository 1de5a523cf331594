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
  it("sends the body with the compiled filter and logpull_options", async () => {
    api.on(`POST ${JOBS}`, success(job({ id: 7 })));
    const result = await client().createJob(ZONE, {
      name: "errors",
      destination: DESTINATION,
      fields: ["ClientIP", "EdgeResponseStatus", "Cookies"],
      ownershipChallenge: "00000000000000000000",
      filter: { source: 'EdgeResponseStatus geq 500 and ClientRequestHost eq "api.example.com"' },
    });
    expect(api.calls()).toEqual([`POST ${JOBS}`]);
    expect(api.received[0]!.body).toBe(
      JSON.stringify({
        name: "errors",
        dataset: "http_requests",
        destination_conf: DESTINATION,
        enabled: true,
        logpull_options: "fields=ClientIP,EdgeResponseStatus,Cookies&timestamps=rfc3339",
        filter:
          '{"where":{"and":[{"key":"EdgeResponseStatus","operator":"geq","value":"500"},{"key":"ClientRequestHost","operator":"eq","value":"api.example.com"}]}}',
        ownership_challenge: "00000000000000000000",
      }),
    );
    expect([result.job.id, result.notices, result.diagnostics]).toEqual([7, [], []]);
  });

  it("takes the filter as Logpush JSON and sends it in canonical form", async () => {
    api.on(`POST ${JOBS}`, success(job()));
    await client().createJob(ZONE, {
      destination: DESTINATION,
      fields: ["ClientIP", "Cookies"],
      filter: {
        json: '{"where":{"or":[{"key":"ClientCountry","operator":"eq","value":"us"},{"key":"ClientCountry","operator":"eq","value":"ca"}]}}',
      },
    });
    expect(JSON.parse(api.received[0]!.body).filter).toBe(
      '{"where":{"key":"ClientCountry","operator":"in","value":["us","ca"]}}',
    );
  });

  it("refuses a filter with type errors, with the compiler's diagnostics, sending nothing", async () => {
    const error = await validationErrorOf(
      client().createJob(ZONE, {
        destination: DESTINATION,
        fields: ["ClientIP", "Cookies"],
        filter: { source: 'EdgeResponseStatus startsWith "5"' },
      }),
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
      client().createJob(ZONE, {
        destination: DESTINATION,
        fields: ["ClientIP", "Cookies"],
        filter: { source },
        compileOptions: { maxBytes: 100_000 },
      }),
    );
    expect(error.diagnostics.map((d) => d.code)).toEqual(["E0401"]);
  });

  it("refuses filter JSON that does not fit the dataset", async () => {
    const error = await validationErrorOf(
      client().createJob(ZONE, {
        destination: DESTINATION,
        fields: ["ClientIP", "Cookies"],
        filter: { json: { where: { key: "EdgeResponseStatus", operator: "in", value: "200,201" } } },
      }),
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
      const error = await validationErrorOf(client().createJob(ZONE, c.settings as JobSettings));
      expect(error.problems).toEqual(c.problems);
      expect(api.received).toEqual([]);
    });
  }

  it("passes other destination schemes through with a notice", async () => {
    api.on(`POST ${JOBS}`, success(job()));
    const result = await client().createJob(ZONE, {
      destination: "r2://logs/http?account-id=abc&access-key-id=x&secret-access-key=y",
      fields: ["ClientIP", "Cookies"],
    });
    expect(result.notices).toEqual([
      "destination: the r2:// destination is passed through as written; filterc checks s3:// destinations only",
    ]);
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
    const result = await client().createJob(ZONE, { destination: DESTINATION, fields: ["ClientIP"] });
    expect(api.calls()).toEqual([RULESETS, `GET /zones/${ZONE}/rulesets/rs1`, `POST ${JOBS}`]);
    expect(result.notices).toEqual([
      "the zone has custom fields, but the job selects none of RequestHeaders, ResponseHeaders, Cookies: their values will not be in the logs",
    ]);
  });

  it("still creates the job when the custom fields cannot be read", async () => {
    api.on(RULESETS, failure(403, 10000, "Authentication error"));
    api.on(`POST ${JOBS}`, success(job()));
    const result = await client().createJob(ZONE, { destination: DESTINATION, fields: ["ClientIP"] });
    expect(result.notices).toEqual([
      "could not check the zone's custom fields (get custom fields: HTTP 403: [10000] Authentication error)",
    ]);
  });
});

describe("jobs", () => {
  it("lists jobs, leaving out null entries", async () => {
    api.on(`GET ${JOBS}`, success([job(), null]));
    expect(await client().listJobs(ZONE)).toEqual([job()]);
  });

  it("gets one job", async () => {
    api.on(`GET ${JOBS}/7`, success(job()));
    expect(await client().getJob(ZONE, 7)).toEqual(job());
  });

  it("deletes a job", async () => {
    api.on(`DELETE ${JOBS}/7`, success({ id: 7 }));
    expect(await client().deleteJob(ZONE, "7")).toEqual({ id: 7 });
    expect(api.received[0]!.body).toBe("");
  });

  it("reports a missing job", async () => {
    api.on(`GET ${JOBS}/8`, failure(404, 1003, "job not found"));
    await expect(client().getJob(ZONE, 8)).rejects.toThrow("get job: HTTP 404: [1003] job not found");
  });

  it("refuses an invalid job ID or zone before sending", async () => {
    const badId = await validationErrorOf(client().getJob(ZONE, "7a"));
    expect(badId.problems).toEqual([
      { code: "E0617", path: "id", message: 'invalid job ID "7a"; expected a positive whole number' },
    ]);
    const badZone = await validationErrorOf(client().listJobs("example.com"));
    expect(badZone.problems[0]!.message).toBe(
      "invalid zone ID \"example.com\"; expected the zone's ID (32 hex digits, on the dashboard's Overview page), not its name",
    );
    expect(api.received).toEqual([]);
  });

  it("updates a job, reading its dataset to check the filter, and removes a filter explicitly", async () => {
    api.on(`GET ${JOBS}/7`, success(job({ dataset: "dns_logs" })));
    api.on(`PUT ${JOBS}/7`, success(job({ dataset: "dns_logs" })));
    await client().updateJob(ZONE, 7, { filter: null, fields: ["QueryName"] });
    expect(api.calls()).toEqual([`GET ${JOBS}/7`, `PUT ${JOBS}/7`]);
    expect(api.received[1]!.body).toBe(
      '{"logpull_options":"fields=QueryName&timestamps=rfc3339","filter":""}',
    );
  });

  it("updates only what is given", async () => {
    api.on(`PUT ${JOBS}/7`, success(job({ enabled: false })));
    const result = await client().updateJob(ZONE, 7, { enabled: false, name: "paused" });
    expect(api.received[0]!.body).toBe('{"name":"paused","enabled":false}');
    expect(result.job.enabled).toBe(false);
  });
});

describe("plans (dry runs)", () => {
  it("shows the create request with the credential masked, sending nothing", () => {
    const plan = client().plan.createJob(ZONE, { destination: DESTINATION, fields: ["ClientIP"] });
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
        body: `{"dataset":"http_requests","destination_conf":"${DESTINATION}","enabled":true,"logpull_options":"fields=ClientIP&timestamps=rfc3339"}`,
      },
    ]);
    expect(plan.notices).toEqual([
      "the job selects none of RequestHeaders, ResponseHeaders, Cookies: custom fields the zone has will not be in the logs",
    ]);
    expect(api.received).toEqual([]);
  });
});
