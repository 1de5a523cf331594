import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import rulesCases from "../fixtures/custom-field-rules.json" with { type: "json" };
import { runCli } from "../helpers/cli.js";
import { useTestApi } from "./harness.js";
import { failure, success } from "./server.js";

const api = useTestApi();

const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";
const TOKEN = "cli_T0kenSecretValue_987654321";
const JOBS = `/zones/${ZONE}/logpush/jobs`;
const DESTINATION = "s3://my-bucket/logs?region=us-west-2";
/** The token of the destination's ownership challenge (an S3 destination without keys needs one). */
const CHALLENGE = "00000000000000000000";

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
        version: "2",
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
        "custom fields set (ruleset created): ruleset rs1\n  + request header x-request-id\n  + cookie SID\nrequest headers: x-request-id\ncookies: SID\n",
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
        `error[E0602]: requestHeaders[0]: "bad header" is not a valid header name; use letters, digits and !#$%&'*+-.^_\`|~ only (custom-field rule 2)`,
        `error[E0603]: cookies[0]: "a;b" is not a valid cookie name; use letters, digits and !#$%&'*+-.^_\`|~ only (custom-field rule 2)`,
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
        version: "2",
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
      success({ ...ruleset, version: "2", rules: [rule({ cookie_fields: [{ name: "sid" }] })] }),
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

  // The cases of the custom-field rules that flags can express (the sandbox refuses each with the same message).
  for (const c of rulesCases.filter((c) => "flags" in c))
    it(`rule ${c.rule}: refuses ${c.name}, with exit 1 and nothing sent`, async () => {
      const limit = "limit" in c ? ["--custom-fields-limit", c.limit as string] : [];
      const run = await cli(["fields", "set", "--zone", ZONE, ...limit, ...(c as { flags: string[] }).flags]);
      expect(run).toEqual({
        code: 1,
        stdout: "",
        stderr: `error[${c.code}]: ${(c as { path: string }).path}: ${c.message}\nfilterc fields set: set custom fields: nothing was sent\n`,
      });
      expect(api.received).toEqual([]);
    });

  describe("remove and clear", () => {
    const ruleset = { id: "rs1", kind: "zone", phase: "http_log_custom_fields", name: "e", version: "1" };
    const withCookie = {
      ...ruleset,
      rules: [
        {
          action: "log_custom_field",
          expression: "true",
          enabled: true,
          action_parameters: { cookie_fields: [{ name: "SessionID" }] },
        },
      ],
    };

    it("says a name to remove is not configured, naming the cookie's configured spelling", async () => {
      api.on(`GET /zones/${ZONE}/rulesets`, success([ruleset]));
      api.on(`GET /zones/${ZONE}/rulesets/rs1`, success(withCookie));
      const run = await cli(["fields", "remove", "--zone", ZONE, "--cookie", "sessionid", "--dry-run"]);
      expect(run).toEqual({
        code: 1,
        stdout: "",
        stderr:
          'error[E0628]: cookies[0]: "sessionid" is not a configured cookie, so it cannot be removed; the zone has "SessionID" (cookie names are case-sensitive)\nfilterc fields remove: remove custom fields: nothing was sent\n',
      });
      expect(api.calls()).toEqual([`GET /zones/${ZONE}/rulesets`, `GET /zones/${ZONE}/rulesets/rs1`]);
    });

    it("clears the rules when the last field is removed", async () => {
      api.on(`GET /zones/${ZONE}/rulesets`, success([ruleset]));
      api.on(`GET /zones/${ZONE}/rulesets/rs1`, success(withCookie));
      api.on(`PUT /zones/${ZONE}/rulesets/rs1`, success({ ...ruleset, version: "2", rules: [] }));
      const run = await cli(["fields", "remove", "--zone", ZONE, "--cookie", "SessionID"]);
      expect(run).toEqual({
        code: 0,
        stdout: "custom fields cleared: ruleset rs1\n  - cookie SessionID\nno custom fields\n",
        stderr:
          "note: no custom fields are left: the ruleset's rules are cleared\nnote: replaced the ruleset's 1 rule (a PUT replaces all rules)\n",
      });
      expect(api.received[2]!.body).toBe('{"rules":[]}');
    });

    it("clears the custom fields, and says when there is nothing to clear (exit 0)", async () => {
      api.on(`GET /zones/${ZONE}/rulesets`, success([]));
      expect(await cli(["fields", "clear", "--zone", ZONE])).toEqual({
        code: 0,
        stdout: "nothing to clear: the zone has no http_log_custom_fields ruleset\n",
        stderr: "",
      });
      api.reset();
      api.on(`GET /zones/${ZONE}/rulesets`, success([ruleset]));
      api.on(`GET /zones/${ZONE}/rulesets/rs1`, success(withCookie));
      api.on(`PUT /zones/${ZONE}/rulesets/rs1`, success({ ...ruleset, version: "2", rules: [] }));
      expect(await cli(["fields", "clear", "--zone", ZONE])).toEqual({
        code: 0,
        stdout: "custom fields cleared: ruleset rs1 has no rules\n  - cookie SessionID\n",
        stderr: "note: replaced the ruleset's 1 rule (a PUT replaces all rules)\n",
      });
      expect(api.received[2]!.body).toBe('{"rules":[]}');
      api.reset();
      api.on(`GET /zones/${ZONE}/rulesets`, success([ruleset]));
      api.on(`GET /zones/${ZONE}/rulesets/rs1`, success({ ...ruleset, rules: [] }));
      expect(await cli(["fields", "clear", "--zone", ZONE, "--json"])).toEqual({
        code: 0,
        stdout: '{"rulesetId":"rs1","changed":false,"notices":[],"changes":[]}\n',
        stderr: "",
      });
      expect((await cli(["fields", "clear", "--zone", ZONE, "--cookie", "a"])).code).toBe(2);
    });

    it("shows a ruleset id from the service with its control characters as code points", async () => {
      const hostile = { ...withCookie, id: "rs\u001b[2J" };
      api.on(`GET /zones/${ZONE}/rulesets`, success([hostile]));
      api.on(`GET /zones/${ZONE}/rulesets/rs%1B%5B2J`, success(hostile));
      api.on(`PUT /zones/${ZONE}/rulesets/rs%1B%5B2J`, success({ ...hostile, version: "2", rules: [] }));
      expect((await cli(["fields", "clear", "--zone", ZONE])).stdout).toBe(
        "custom fields cleared: ruleset rs<U+001B>[2J has no rules\n  - cookie SessionID\n",
      );
      expect((await cli(["fields", "get", "--zone", ZONE])).stdout).toBe(
        "ruleset rs<U+001B>[2J\ncookies: SessionID\n",
      );
    });
  });

  it("shows a ruleset id the service sends on one line, its control characters as code points", async () => {
    const id = "rs\u001b]0;owned\u0007\n";
    const ruleset = { id, kind: "zone", phase: "http_log_custom_fields", rules: [] };
    api.on(`GET /zones/${ZONE}/rulesets`, success([ruleset]));
    api.on(`GET /zones/${ZONE}/rulesets/${encodeURIComponent(id)}`, success(ruleset));
    expect(await cli(["fields", "get", "--zone", ZONE])).toEqual({
      code: 0,
      stdout: "ruleset rs<U+001B>]0;owned<U+0007><U+000A>\nno custom fields\n",
      stderr: "",
    });
  });

  it("is a usage error without --zone or with an unknown subcommand", async () => {
    expect((await cli(["fields", "get"])).code).toBe(2);
    expect((await cli(["fields", "put", "--zone", ZONE])).code).toBe(2);
  });
});

describe("filterc jobs", () => {
  it("creates a job from --expr, printing the job and a note on a custom-fields column the zone leaves empty", async () => {
    api.on(`GET /zones/${ZONE}/rulesets`, success([]));
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
      "--ownership-challenge",
      CHALLENGE,
      "--fields",
      "ClientIP,EdgeResponseStatus,RequestHeaders",
      "--expr",
      "EdgeResponseStatus >= 500",
    ]);
    expect(run).toEqual({
      code: 0,
      stdout: `created job 7 "errors": http_requests → ${DESTINATION}\n`,
      stderr:
        "note: the job selects RequestHeaders, but the zone logs no request header as a custom field: RequestHeaders will be empty (add one with filterc fields add --request-header NAME)\n",
    });
    expect(JSON.parse(api.received[1]!.body).filter).toBe(
      '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":"500"}}',
    );
  });

  it("refuses a filter file with errors, rendering the compiler's diagnostics", async () => {
    const dir = mkdtempSync(join(tmpdir(), "filterc-jobs-"));
    const file = join(dir, "bad.lpf");
    writeFileSync(file, 'ClientIp eq "1.2.3.4"\n');
    const run = await cli([
      "jobs",
      "create",
      "--zone",
      ZONE,
      "--destination",
      DESTINATION,
      "--ownership-challenge",
      CHALLENGE,
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
        '1 | ClientIp eq "1.2.3.4"',
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
    const challengeFile = join(mkdtempSync(join(tmpdir(), "filterc-jobs-")), "challenge.txt");
    writeFileSync(challengeFile, `${CHALLENGE}\n`);
    const rulesets = `${api.baseUrl}/zones/${ZONE}/rulesets`;
    api.on(`GET /zones/${ZONE}/rulesets`, success([]));
    const run = await runCli(
      [
        "jobs",
        "create",
        "--zone",
        ZONE,
        "--destination",
        DESTINATION,
        "--ownership-challenge-file",
        challengeFile,
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
    const headers = { Accept: "application/json", "X-Auth-Email": "****", "X-Auth-Key": "****" };
    expect(JSON.parse(run.stdout)).toEqual({
      dryRun: true,
      requests: [
        { operation: "get custom fields", method: "GET", url: rulesets, headers, body: null, sent: true },
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
          body: `{"dataset":"http_requests","destination_conf":"${DESTINATION}","enabled":true,"output_options":{"field_names":["ClientIP","Cookies"],"timestamp_format":"rfc3339"},"ownership_challenge":"${CHALLENGE}"}`,
          sent: false,
        },
      ],
      notices: [
        "the job selects Cookies, but the zone logs no cookie as a custom field: Cookies will be empty (add one with filterc fields add --cookie NAME)",
      ],
    });
    expect(run.stdout + run.stderr).not.toContain("global-key-123");
    expect(api.calls()).toEqual([`GET /zones/${ZONE}/rulesets`]);
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
      "--ownership-challenge",
      CHALLENGE,
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

  describe("the seed's logpull_options form", () => {
    const LOGPULL = "fields=ClientIP,EdgeStartTimestamp,RayID&timestamps=rfc3339";
    const create = (...args: string[]) =>
      cli([
        "jobs",
        "create",
        "--zone",
        ZONE,
        "--destination",
        DESTINATION,
        "--ownership-challenge",
        CHALLENGE,
        ...args,
      ]);

    it("creates a job with --logpull-options, sent exactly as given", async () => {
      api.on(`GET /zones/${ZONE}/rulesets`, success([]));
      api.on(`POST ${JOBS}`, success({ ...job, logpull_options: LOGPULL }));
      const run = await create("--name", "errors", "--logpull-options", LOGPULL);
      expect(run).toEqual({
        code: 0,
        stdout: `created job 7 "errors": http_requests → ${DESTINATION}\n`,
        stderr: "",
      });
      expect(api.received[1]!.body).toBe(
        `{"name":"errors","dataset":"http_requests","destination_conf":"${DESTINATION}","enabled":true,"logpull_options":"${LOGPULL}","ownership_challenge":"${CHALLENGE}"}`,
      );
    });

    it("refuses a logpull_options string with unknown keys or fields, naming each", async () => {
      const run = await create("--logpull-options", "fields=ClientIP,ClientIp&timestamp=unix");
      expect(run).toEqual({
        code: 1,
        stdout: "",
        stderr: [
          "error[E0622]: logpull_options.timestamp: unknown job option `logpull_options.timestamp`; known options: fields, timestamps, sample, CVE-2021-44228 (did you mean timestamps?)",
          "error[E0612]: logpull_options.fields[1]: unknown field `ClientIp` in dataset `http_requests`; did you mean `ClientIP`?",
          "filterc jobs create: create job: nothing was sent",
          "",
        ].join("\n"),
      });
      expect(api.received).toEqual([]);
    });

    it("is a usage error beside output flags, and --to-output-options on create", async () => {
      const both = await create("--logpull-options", LOGPULL, "--fields", "RayID");
      expect([both.code, both.stderr.split("\n")[0]]).toEqual([
        2,
        "filterc jobs: give --logpull-options, or the output flags (--fields, --timestamps, --output-options…), not both: the service ignores logpull_options beside output_options",
      ]);
      const convert = await create("--fields", "RayID", "--to-output-options");
      expect([convert.code, convert.stderr.split("\n")[0]]).toEqual([
        2,
        "filterc jobs: --to-output-options converts a job of the older form: give it to jobs update",
      ]);
      expect(api.received).toEqual([]);
    });

    it("keeps a logpull_options job's form on update, and converts it with --to-output-options", async () => {
      const old = { ...job, logpull_options: LOGPULL, output_options: null };
      api.on(`GET ${JOBS}/7`, success(old));
      const refused = await cli(["jobs", "update", "--zone", ZONE, "--id", "7", "--output-type", "csv"]);
      expect(refused).toEqual({
        code: 1,
        stdout: "",
        stderr:
          "error[E0626]: output_options.output_type: the job uses logpull_options (the older form), which has no `output_options.output_type`; convert the job to output_options first (--to-output-options, or toOutputOptions: true)\nfilterc jobs update: update job: nothing was sent\n",
      });
      api.on(`PUT ${JOBS}/7`, success(old));
      const run = await cli([
        "jobs",
        "update",
        "--zone",
        ZONE,
        "--id",
        "7",
        "--output-type",
        "csv",
        "--to-output-options",
      ]);
      expect(run).toEqual({
        code: 0,
        stdout: [
          `updated job 7 "errors": http_requests → ${DESTINATION}`,
          '  output_options.field_names: (unset) → ["ClientIP","EdgeStartTimestamp","RayID"]',
          '  output_options.timestamp_format: (unset) → "rfc3339"',
          '  output_options.output_type: (unset) → "csv"',
          '  logpull_options: "fields=ClientIP,EdgeStartTimestamp,RayID&timestamps=rfc3339" → null',
          "",
        ].join("\n"),
        stderr:
          "note: the job moves from logpull_options to output_options, with its fields, timestamps, sample and redaction\n",
      });
      expect(api.received[2]!.body).toBe(
        '{"output_options":{"field_names":["ClientIP","EdgeStartTimestamp","RayID"],"timestamp_format":"rfc3339","output_type":"csv"},"logpull_options":null}',
      );
    });
  });

  it("refuses a create whose destination needs an ownership challenge, naming the command to run", async () => {
    const run = await cli([
      "jobs",
      "create",
      "--zone",
      ZONE,
      "--destination",
      DESTINATION,
      "--fields",
      "ClientIP",
    ]);
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr: `error[E0627]: ownership_challenge: the destination "${DESTINATION}" needs the token of its ownership challenge: run filterc jobs ownership --zone ${ZONE} --destination '${DESTINATION}', then give the token from the file it names with --ownership-challenge-file FILE (ownershipChallenge)\nfilterc jobs create: create job: nothing was sent\n`,
    });
    expect(api.received).toEqual([]);
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

describe("secrets in every output", () => {
  const DATADOG =
    "datadog://http-intake.logs.datadoghq.com/api/v2/logs?header_DD-API-KEY=dd0Secret4567&ddsource=cf";
  const MASKED = "datadog://http-intake.logs.datadoghq.com/api/v2/logs?header_DD-API-KEY=****&ddsource=cf";
  const live = {
    ...job,
    destination_conf: DATADOG,
    // The service's last error quotes the destination, key and all.
    error_message: "push failed: 403 for header_DD-API-KEY=dd0Secret4567",
  };
  const clean = (run: { stdout: string; stderr: string }) =>
    expect(run.stdout + run.stderr).not.toContain("dd0Secret");

  it("masks live destinations in jobs list --json and jobs get, and shows them with --show-secrets", async () => {
    api.on(`GET ${JOBS}`, success([live]));
    api.on(`GET ${JOBS}/7`, success(live));
    const listed = await cli(["jobs", "list", "--zone", ZONE, "--json"]);
    clean(listed);
    expect(JSON.parse(listed.stdout)).toEqual([
      { ...live, destination_conf: MASKED, error_message: "push failed: 403 for header_DD-API-KEY=****" },
    ]);
    const got = await cli(["jobs", "get", "--zone", ZONE, "--id", "7"]);
    clean(got);
    expect(JSON.parse(got.stdout).destination_conf).toBe(MASKED);
    const shown = await cli(["jobs", "list", "--zone", ZONE, "--show-secrets"]);
    expect(shown).toEqual({ code: 0, stdout: `7 "errors": http_requests → ${DATADOG}\n`, stderr: "" });
  });

  it("masks the destination jobs create --json sent and the service echoed", async () => {
    api.on(`POST ${JOBS}`, success(live));
    const run = await cli([
      "jobs",
      "create",
      "--zone",
      ZONE,
      "--destination",
      DATADOG,
      "--fields",
      "ClientIP,Cookies",
      "--json",
    ]);
    clean(run);
    expect(JSON.parse(run.stdout).job.destination_conf).toBe(MASKED);
  });

  it("masks both sides of a destination that an update changes, also in the dry run's changes", async () => {
    const next = DATADOG.replace("dd0Secret4567", "dd0Secret9999");
    api.on(`GET ${JOBS}/7`, success(live));
    api.on(`PUT ${JOBS}/7`, success({ ...live, destination_conf: next }));
    const updated = await cli(["jobs", "update", "--zone", ZONE, "--id", "7", "--destination", next]);
    clean(updated);
    expect(updated.stdout).toBe(
      `updated job 7 "errors": http_requests → ${MASKED}\n  destination_conf: ${JSON.stringify(MASKED)} → ${JSON.stringify(MASKED)}\n`,
    );
    const json = await cli(["jobs", "update", "--zone", ZONE, "--id", "7", "--destination", next, "--json"]);
    clean(json);
    expect(JSON.parse(json.stdout).changes).toEqual([
      { path: "destination_conf", before: MASKED, after: MASKED },
    ]);
    const planned = await cli([
      "jobs",
      "update",
      "--zone",
      ZONE,
      "--id",
      "7",
      "--destination",
      next,
      "--dry-run",
    ]);
    clean(planned);
    expect(planned.stdout).toContain(
      `# changes\n  destination_conf: ${JSON.stringify(MASKED)} → ${JSON.stringify(MASKED)}\n`,
    );
  });

  it("masks what the destination checks echo, and shows their words on one line", async () => {
    api.on(
      `POST ${JOBS.replace("/jobs", "/validate/destination")}`,
      success({ valid: false, message: "key dd0Secret4567 refused\n\u001b[2J" }),
    );
    api.on(`POST ${JOBS.replace("/jobs", "/validate/destination/exists")}`, success({ exists: false }));
    const run = await cli(["jobs", "validate", "--zone", ZONE, "--destination", DATADOG]);
    clean(run);
    expect(run).toEqual({
      code: 1,
      stdout:
        "destination: not valid (key **** refused<U+000A><U+001B>[2J)\na job already pushes there: no\n",
      stderr: "",
    });
    const json = await cli(["jobs", "validate", "--zone", ZONE, "--destination", DATADOG, "--json"]);
    clean(json);
    expect(JSON.parse(json.stdout).destination.message).toBe("key **** refused\n\u001b[2J");
  });
});

describe("bounds on what the service sends", () => {
  it("names the flag that raises a bound the call reached, in a dry run too", async () => {
    const list = `GET /zones/${ZONE}/rulesets`;
    const other = { id: "a", kind: "zone", phase: "http_request_firewall_custom" };
    api.on(list, success([other], { result_info: { cursor: "c1" } }));
    api.on(`${list}?cursor=c1`, success([other], { result_info: { cursor: "c2" } }));
    api.on(`${list}?cursor=c2`, success([other], { result_info: { cursor: "c3" } }));
    const run = await cli([
      "fields",
      "set",
      "--zone",
      ZONE,
      "--cookie",
      "sid",
      "--dry-run",
      "--max-pages",
      "2",
    ]);
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "filterc fields set: set custom fields: the list of rulesets goes on past 2 pages (maxPages); stopped\nnote: --max-pages N raises the bound\n",
    });
    api.reset();
    api.on(`GET ${JOBS}`, success([job, job, job]));
    const large = await cli(["jobs", "list", "--zone", ZONE, "--max-response-bytes", "100"]);
    expect(large).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "filterc jobs list: list jobs: HTTP 200: the response is larger than 100 bytes (maxResponseBytes); not read further\nnote: --max-response-bytes N raises the bound\n",
    });
  });

  it.each([
    [["--max-response-bytes", "0"], '--max-response-bytes takes a whole number from 1 to 268435456, not "0"'],
    [["--max-pages", "0"], '--max-pages takes a whole number of at least 1, not "0"'],
  ])("refuses %j with exit 2", async (flags, message) => {
    const run = await cli(["jobs", "list", "--zone", ZONE, ...flags]);
    expect([run.code, run.stderr.split("\n")[0]]).toEqual([2, `filterc jobs: ${message}`]);
  });
});

describe("what the service sends, on a terminal", () => {
  it("shows a deleted job's id, an update's old values and --json without raw hidden characters", async () => {
    api.on(`DELETE ${JOBS}/7`, success({ id: "7\u001b]0;owned\u0007" }));
    expect(await cli(["jobs", "delete", "--zone", ZONE, "--id", "7"])).toEqual({
      code: 0,
      stdout: "deleted job 7<U+001B>]0;owned<U+0007>\n",
      stderr: "",
    });
    api.on(`GET ${JOBS}/7`, success({ ...job, name: "a\u202eb\u009b2J" }));
    api.on(`PUT ${JOBS}/7`, success({ ...job, name: "new" }));
    const updated = await cli(["jobs", "update", "--zone", ZONE, "--id", "7", "--name", "new"]);
    expect(updated.stdout).toBe(
      `updated job 7 "new": http_requests → ${DESTINATION}\n  name: "a\\u202eb\\u009b2J" → "new"\n`,
    );
    api.on(`GET ${JOBS}`, success([{ ...job, name: "a\u202eb\u2028c" }]));
    const listed = await cli(["jobs", "list", "--zone", ZONE, "--json"]);
    expect(listed.stdout).toBe(`[${JSON.stringify(job).replace('"errors"', '"a\\u202eb\\u2028c"')}]\n`);
  });
});
