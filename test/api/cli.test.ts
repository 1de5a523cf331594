import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { useTestApi } from "./harness.js";
import { failure, success } from "./server.js";

const api = useTestApi();

const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";
const TOKEN = "cli_T0kenSecretValue_987654321";
const JOBS = `/zones/${ZONE}/logpush/jobs`;
const DESTINATION = "s3://my-bucket/logs?region=us-west-2";

const env = () => ({ CLOUDFLARE_API_TOKEN: TOKEN, CLOUDFLARE_BASE_URL: api.baseUrl });
const job = { id: 7, name: "errors", dataset: "http_requests", destination_conf: DESTINATION, enabled: true };

async function cli(args: string[], stdin = "") {
  const run = await runCli(args, stdin, env());
  expect(run.stdout + run.stderr).not.toContain(TOKEN);
  return run;
}

describe("filterc fields", () => {
  it("sets the custom fields, creating the ruleset, and prints what was set", async () => {
    const ruleset = {
      id: "rs1",
      kind: "zone",
      phase: "http_log_custom_fields",
      name: "e",
      version: "1",
      rules: [],
    };
    api.on(`GET /zones/${ZONE}/rulesets`, success([]));
    api.on(`POST /zones/${ZONE}/rulesets`, success(ruleset));
    api.on(
      `PUT /zones/${ZONE}/rulesets/rs1`,
      success({
        ...ruleset,
        rules: [
          {
            action: "log_custom_field",
            expression: "true",
            action_parameters: {
              request_fields: [{ name: "x-request-id" }],
              cookie_fields: [{ name: "SID" }],
            },
          },
        ],
      }),
    );
    const run = await cli([
      "fields",
      "set",
      "--zone",
      ZONE,
      "--request-header",
      "X-Request-Id",
      "--cookie",
      "SID",
    ]);
    expect(run).toEqual({
      code: 0,
      stdout:
        "custom fields set (ruleset created): ruleset rs1\nrequest headers: x-request-id\ncookies: SID\n",
      stderr:
        'note: requestHeaders[0]: header name "X-Request-Id" sent as "x-request-id" (header names are lower case)\n',
    });
  });

  it("refuses invalid names with exit 1, listing every problem and sending nothing", async () => {
    const run = await cli([
      "fields",
      "set",
      "--zone",
      ZONE,
      "--request-header",
      "bad header",
      "--cookie",
      "a;b",
    ]);
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr: [
        `error[E0602]: requestHeaders[0]: "bad header" is not a valid header name; use letters, digits and !#$%&'*+-.^_\`|~ only`,
        `error[E0603]: cookies[0]: "a;b" is not a valid cookie name; use letters, digits and !#$%&'*+-.^_\`|~ only`,
        "filterc fields set: set custom fields: nothing was sent",
        "",
      ].join("\n"),
    });
    expect(api.received).toEqual([]);
  });

  it("dry-runs a set: sends the reads, prints the writes it would send, credentials masked", async () => {
    api.on(`GET /zones/${ZONE}/rulesets`, success([]));
    const run = await cli(["fields", "set", "--zone", ZONE, "--response-header", "server", "--dry-run"]);
    const base = `${api.baseUrl}/zones/${ZONE}/rulesets`;
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        "# dry run: nothing was written",
        "",
        "# read (sent: a dry run reads what it needs)",
        `GET ${base}`,
        "Accept: application/json",
        "Authorization: Bearer ****",
        "",
        "# not sent",
        `POST ${base}`,
        "Accept: application/json",
        "Content-Type: application/json",
        "Authorization: Bearer ****",
        "",
        '{"name":"Zone-level phase entry point","kind":"zone","description":"This ruleset configures custom log fields.","phase":"http_log_custom_fields"}',
        "",
        "# not sent",
        "# replaces all rules of the ruleset",
        `PUT ${base}/{ruleset_id}`,
        "Accept: application/json",
        "Content-Type: application/json",
        "Authorization: Bearer ****",
        "",
        '{"rules":[{"action":"log_custom_field","expression":"true","description":"Set Logpush custom fields for HTTP requests","enabled":true,"action_parameters":{"response_fields":[{"name":"server"}]}}]}',
        "",
      ].join("\n"),
    );
    expect(api.calls()).toEqual([`GET /zones/${ZONE}/rulesets`]);
  });

  it("adds and removes custom fields by merging with the zone's own", async () => {
    const ruleset = { id: "rs1", kind: "zone", phase: "http_log_custom_fields", name: "e", version: "1" };
    const rule = (parameters: unknown) => ({
      action: "log_custom_field",
      expression: "true",
      enabled: true,
      action_parameters: parameters,
    });
    api.on(`GET /zones/${ZONE}/rulesets`, success([ruleset]));
    api.on(
      `GET /zones/${ZONE}/rulesets/rs1`,
      success({
        ...ruleset,
        rules: [rule({ request_fields: [{ name: "x-a" }], cookie_fields: [{ name: "sid" }] })],
      }),
    );
    api.on(
      `PUT /zones/${ZONE}/rulesets/rs1`,
      success({
        ...ruleset,
        rules: [
          rule({ request_fields: [{ name: "x-a" }, { name: "x-b" }], cookie_fields: [{ name: "sid" }] }),
        ],
      }),
    );
    const added = await cli([
      "fields",
      "add",
      "--zone",
      ZONE,
      "--request-header",
      "X-B",
      "--request-header",
      "x-a",
    ]);
    expect(added.code).toBe(0);
    expect(JSON.parse(api.received[2]!.body).rules[0].action_parameters).toEqual({
      request_fields: [{ name: "x-a" }, { name: "x-b" }],
      cookie_fields: [{ name: "sid" }],
    });
    api.reset();
    api.on(`GET /zones/${ZONE}/rulesets`, success([ruleset]));
    api.on(
      `GET /zones/${ZONE}/rulesets/rs1`,
      success({
        ...ruleset,
        rules: [rule({ request_fields: [{ name: "x-a" }], cookie_fields: [{ name: "sid" }] })],
      }),
    );
    api.on(
      `PUT /zones/${ZONE}/rulesets/rs1`,
      success({ ...ruleset, rules: [rule({ cookie_fields: [{ name: "sid" }] })] }),
    );
    const removed = await cli(["fields", "remove", "--zone", ZONE, "--request-header", "X-A"]);
    expect(removed.code).toBe(0);
    expect(JSON.parse(api.received[2]!.body).rules[0].action_parameters).toEqual({
      cookie_fields: [{ name: "sid" }],
    });
  });

  it("gets the custom fields as JSON", async () => {
    api.on(`GET /zones/${ZONE}/rulesets`, success([]));
    expect(await cli(["fields", "get", "--zone", ZONE, "--json"])).toEqual({
      code: 0,
      stdout: "null\n",
      stderr: "",
    });
  });

  it("prints the API's error with exit 1", async () => {
    api.on(`GET /zones/${ZONE}/rulesets`, failure(403, 10000, "Authentication error"));
    expect(await cli(["fields", "get", "--zone", ZONE])).toEqual({
      code: 1,
      stdout: "",
      stderr: "filterc fields get: get custom fields: HTTP 403: [10000] Authentication error\n",
    });
  });

  it("is a usage error without --zone or with an unknown subcommand", async () => {
    expect((await cli(["fields", "get"])).code).toBe(2);
    expect((await cli(["fields", "put", "--zone", ZONE])).code).toBe(2);
  });
});

describe("filterc jobs", () => {
  it("creates a job from --expr, printing the job", async () => {
    api.on(`POST ${JOBS}`, success(job));
    const run = await cli([
      "jobs",
      "create",
      "--zone",
      ZONE,
      "--name",
      "errors",
      "--destination",
      DESTINATION,
      "--fields",
      "ClientIP,EdgeResponseStatus,RequestHeaders",
      "--expr",
      "EdgeResponseStatus >= 500",
    ]);
    expect(run).toEqual({
      code: 0,
      stdout: `created job 7 "errors": http_requests → ${DESTINATION}\n`,
      stderr: "",
    });
    expect(JSON.parse(api.received[0]!.body).filter).toBe(
      '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":"500"}}',
    );
  });

  it("refuses a filter file with errors, rendering the compiler's diagnostics", async () => {
    const dir = mkdtempSync(join(tmpdir(), "filterc-jobs-"));
    const file = join(dir, "bad.lpf");
    writeFileSync(file, "ClientIp eq 1\n");
    const run = await cli([
      "jobs",
      "create",
      "--zone",
      ZONE,
      "--destination",
      DESTINATION,
      "--fields",
      "ClientIP,Cookies",
      "--filter",
      file,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      [
        "error[E0202]: unknown field `ClientIp`; field names are case-sensitive: did you mean `ClientIP`?",
        ` --> ${file}:1:1`,
        "  |",
        "1 | ClientIp eq 1",
        "  | ^^^^^^^^",
        "  = help: replace with `ClientIP`: ClientIP",
        "1 error",
        "error[E0616]: filter: the filter has 1 error; fix it before sending the job",
        "filterc jobs create: create job: nothing was sent",
        "",
      ].join("\n"),
    );
    expect(api.received).toEqual([]);
  });

  it("lists jobs", async () => {
    api.on(`GET ${JOBS}`, success([job, { ...job, id: 8, name: null, enabled: false }]));
    expect(await cli(["jobs", "list", "--zone", ZONE])).toEqual({
      code: 0,
      stdout: `7 "errors": http_requests → ${DESTINATION}\n8: http_requests → ${DESTINATION} (disabled)\n`,
      stderr: "",
    });
  });

  it("deletes a job, and prints JSON with --json", async () => {
    api.on(`DELETE ${JOBS}/7`, success({ id: 7 }));
    expect(await cli(["jobs", "delete", "--zone", ZONE, "--id", "7", "--json"])).toEqual({
      code: 0,
      stdout: '{"id":7}\n',
      stderr: "",
    });
  });

  it("removes a filter explicitly with update --no-filter; --dataset on update is a usage error", async () => {
    api.on(
      `GET ${JOBS}/7`,
      success({ ...job, filter: '{"where":{"key":"ClientIP","operator":"eq","value":"1.2.3.4"}}' }),
    );
    api.on(`PUT ${JOBS}/7`, success(job));
    const run = await cli(["jobs", "update", "--zone", ZONE, "--id", "7", "--no-filter"]);
    expect(run.code).toBe(0);
    expect(api.received[1]!.body).toBe('{"filter":""}');
    expect(run.stdout).toBe(
      `updated job 7 "errors": http_requests → ${DESTINATION}\n  filter: "{\\"where\\":{\\"key\\":\\"ClientIP\\",\\"operator\\":\\"eq\\",\\"value\\":\\"1.2.3.4\\"}}" → ""\n`,
    );
    api.reset();
    const dataset = await cli([
      "jobs",
      "update",
      "--zone",
      ZONE,
      "--id",
      "7",
      "--dataset",
      "dns_logs",
      "--no-filter",
    ]);
    expect([dataset.code, dataset.stderr.split("\n")[0]]).toEqual([
      2,
      "filterc jobs: --dataset is set when a job is created; update checks against the job's own dataset",
    ]);
    expect(api.received).toEqual([]);
  });

  it("prints the API's errors as JSON with --json", async () => {
    api.on(`GET ${JOBS}/9`, failure(404, 1003, "job not found"));
    const run = await cli(["jobs", "get", "--zone", ZONE, "--id", "9", "--json"]);
    expect(run).toEqual({
      code: 1,
      stdout:
        '{"ok":false,"operation":"get job","failure":"http","status":404,"errors":[{"code":1003,"message":"job not found"}],"message":"get job: HTTP 404: [1003] job not found"}\n',
      stderr: "",
    });
  });

  it("dry-runs a create as JSON, masking email and key", async () => {
    const run = await runCli(
      [
        "jobs",
        "create",
        "--zone",
        ZONE,
        "--destination",
        DESTINATION,
        "--fields",
        "ClientIP,Cookies",
        "--dry-run",
        "--json",
      ],
      "",
      {
        CLOUDFLARE_EMAIL: "me@example.com",
        CLOUDFLARE_API_KEY: "global-key-123",
        CLOUDFLARE_BASE_URL: api.baseUrl,
      },
    );
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      dryRun: true,
      requests: [
        {
          operation: "create job",
          method: "POST",
          url: `${api.baseUrl}${JOBS}`,
          headers: {
            Accept: "application/json",
            "Content-Type": "application/json",
            "X-Auth-Email": "****",
            "X-Auth-Key": "****",
          },
          body: `{"dataset":"http_requests","destination_conf":"${DESTINATION}","enabled":true,"output_options":{"field_names":["ClientIP","Cookies"],"timestamp_format":"rfc3339"}}`,
          sent: false,
        },
      ],
      notices: [],
    });
    expect(run.stdout + run.stderr).not.toContain("global-key-123");
    expect(api.received).toEqual([]);
  });

  it("says why without credentials", async () => {
    const run = await runCli(["jobs", "list", "--zone", ZONE], "", { CLOUDFLARE_BASE_URL: api.baseUrl });
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "filterc jobs list: no credentials: set CLOUDFLARE_API_TOKEN, or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY\n",
    });
  });

  it("warns that a token flag is visible in process lists, and never prints it", async () => {
    api.on(`GET ${JOBS}`, success([]));
    const run = await runCli([
      "jobs",
      "list",
      "--zone",
      ZONE,
      "--api-token",
      TOKEN,
      "--base-url",
      api.baseUrl,
    ]);
    expect(run).toEqual({
      code: 0,
      stdout: "no jobs\n",
      stderr: "note: credentials given as flags are visible in process lists; prefer the environment\n",
    });
  });

  it("times out with exit 1", async () => {
    api.on(`GET ${JOBS}`, { ...success([]), delayMs: 1000 });
    const run = await cli(["jobs", "list", "--zone", ZONE, "--timeout-ms", "100", "--max-retries", "0"]);
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr: `filterc jobs list: list jobs: no response within 100 ms (--timeout-ms) from GET ${api.baseUrl}${JOBS}\n`,
    });
  });

  it("takes the scope from CLOUDFLARE_ACCOUNT_ID, and refuses both scopes", async () => {
    const ACCOUNT = "9a7806061c88ada191ed06f989cc3dac";
    api.on(`GET /accounts/${ACCOUNT}/logpush/jobs`, success([{ ...job, dataset: "gateway_http" }]));
    const env = {
      CLOUDFLARE_API_TOKEN: TOKEN,
      CLOUDFLARE_BASE_URL: api.baseUrl,
      CLOUDFLARE_ACCOUNT_ID: ACCOUNT,
    };
    const listed = await runCli(["jobs", "list"], "", env);
    expect(listed).toEqual({ code: 0, stdout: `7 "errors": gateway_http → ${DESTINATION}\n`, stderr: "" });
    const both = await runCli(["jobs", "list"], "", { ...env, CLOUDFLARE_ZONE_ID: ZONE });
    expect([both.code, both.stderr.split("\n")[0]]).toEqual([
      2,
      "filterc jobs: both CLOUDFLARE_ZONE_ID and CLOUDFLARE_ACCOUNT_ID are set: say which with --zone or --account",
    ]);
    const flags = await runCli(["jobs", "list", "--zone", ZONE, "--account", ACCOUNT], "", env);
    expect([flags.code, flags.stderr.split("\n")[0]]).toEqual([
      2,
      "filterc jobs: give --zone or --account, not both",
    ]);
  });

  it("refuses a zone-only dataset on an account, naming its scope, before sending", async () => {
    const run = await cli([
      "jobs",
      "create",
      "--account",
      "9a7806061c88ada191ed06f989cc3dac",
      "--destination",
      DESTINATION,
      "--fields",
      "ClientIP",
    ]);
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "error[E0621]: dataset: the dataset `http_requests` has no account-level jobs; it exists at zone level (give --zone ID)\nfilterc jobs create: create job: nothing was sent\n",
    });
    expect(api.received).toEqual([]);
  });

  it("masks destination secrets in jobs list and refuses control characters raw", async () => {
    api.on(
      `GET ${JOBS}`,
      success([
        {
          ...job,
          name: "a\u001b[2Jb",
          destination_conf: "datadog://h/api/v2/logs?header_DD-API-KEY=topsecret1234&ddsource=x\u001b",
        },
      ]),
    );
    const run = await cli(["jobs", "list", "--zone", ZONE]);
    expect(run.stdout).toBe(
      '7 "a\\u001b[2Jb": http_requests → datadog://h/api/v2/logs?header_DD-API-KEY=****&ddsource=x<U+001B>\n',
    );
  });

  const usageCases: Array<[string, string[]]> = [
    ["no subcommand", ["jobs"]],
    ["get without --id", ["jobs", "get", "--zone", ZONE]],
    ["create without --destination", ["jobs", "create", "--zone", ZONE, "--fields", "ClientIP"]],
    ["two filter flags", ["jobs", "update", "--zone", ZONE, "--id", "7", "--expr", "a", "--no-filter"]],
    ["update with nothing to change", ["jobs", "update", "--zone", ZONE, "--id", "7"]],
    ["an unknown flag", ["jobs", "list", "--zone", ZONE, "--bogus"]],
  ];
  for (const [name, args] of usageCases) {
    it(`exits 2 on ${name}`, async () => {
      const run = await cli(args);
      expect([run.code, run.stdout]).toEqual([2, ""]);
      expect(api.received).toEqual([]);
    });
  }
});
