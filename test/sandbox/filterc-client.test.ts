import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError, createClient, type LogpushClient } from "../../src/api/index.js";
import { runCli } from "../helpers/cli.js";
import { call, ownershipToken, type Running, runSandbox, sdk, TOKEN, ZONE } from "./helpers.js";

const DESTINATION = "s3://client-bucket/logs?region=us-east-2";

let running: Running;
let client: LogpushClient;
beforeEach(async () => {
  running = await runSandbox();
  client = createClient({ apiToken: TOKEN, baseUrl: running.api, env: {}, maxRetries: 0 });
});
afterEach(() => running.stop());

describe("filterc's own client against the sandbox", () => {
  it("sets custom fields, creates a job with a compiled filter, and the push honours both", async () => {
    const set = await client.setCustomFields(
      { zoneId: ZONE },
      { requestHeaders: ["X-Client"], cookies: ["session"] },
    );
    expect(set).toMatchObject({
      created: true,
      changed: true,
      config: { requestHeaders: ["x-client"], cookies: ["session"] },
    });
    const again = await client.setCustomFields(
      { zoneId: ZONE },
      { requestHeaders: ["x-client"], cookies: ["session"] },
    );
    expect(again).toMatchObject({ created: false, changed: false, rulesetId: set.rulesetId });
    expect(await client.getCustomFields({ zoneId: ZONE })).toEqual({
      rulesetId: set.rulesetId,
      config: { requestHeaders: ["x-client"], cookies: ["session"] },
    });

    const ownershipChallenge = await ownershipToken(sdk(running), running, DESTINATION);
    const created = await client.createJob(
      { zoneId: ZONE },
      {
        name: "errors",
        destination: DESTINATION,
        fields: ["RayID", "EdgeResponseStatus", "RequestHeaders", "Cookies"],
        filter: { source: "EdgeResponseStatus in [500, 503]" },
        ownershipChallenge,
      },
    );
    expect(created.job).toMatchObject({
      id: 1,
      enabled: true,
      filter: '{"where":{"key":"EdgeResponseStatus","operator":"in","value":[500,503]}}',
      output_options: {
        field_names: ["RayID", "EdgeResponseStatus", "RequestHeaders", "Cookies"],
        timestamp_format: "rfc3339",
      },
    });

    const records = [500, 502, 503].map((status) =>
      JSON.stringify({
        RayID: `r${status}`,
        EdgeResponseStatus: status,
        RequestHeaders: { "X-Client": "cli", Accept: "*/*" },
        Cookies: { session: "s", other: "o" },
      }),
    );
    const pushed = await call(running, "POST", `/zones/${ZONE}/sandbox/ingest`, records.join("\n"));
    const file = (pushed.json as { result: { deliveries: { file: string }[] } }).result.deliveries[0]!.file;
    expect(gunzipSync(await readFile(join(running.dataDir, file))).toString("utf8")).toBe(
      '{"RayID":"r500","EdgeResponseStatus":500,"RequestHeaders":{"x-client":"cli"},"Cookies":{"session":"s"}}\n' +
        '{"RayID":"r503","EdgeResponseStatus":503,"RequestHeaders":{"x-client":"cli"},"Cookies":{"session":"s"}}\n',
    );

    const updated = await client.updateJob({ zoneId: ZONE }, 1, { enabled: false, filter: null });
    expect(updated.job).toMatchObject({ id: 1, enabled: false, filter: "" });
    expect((await client.listJobs({ zoneId: ZONE })).map((job) => job.id)).toEqual([1]);
    expect(await client.deleteJob({ zoneId: ZONE }, 1)).toEqual({ id: 1 });
    expect(await client.listJobs({ zoneId: ZONE })).toEqual([]);
  });

  it("surfaces the sandbox's error code and status", async () => {
    const failure = await client
      .createJob(
        { zoneId: ZONE },
        { destination: DESTINATION, fields: ["RayID"], ownershipChallenge: "wrong" },
      )
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(400);
    expect((failure as ApiError).errors).toEqual([
      { code: 1003, message: "ownership_challenge is not valid for this destination" },
    ]);
  });
});

describe("custom fields, the whole life, against the sandbox", () => {
  it("removes a name only as configured, clears with the last one, and the push then logs none", async () => {
    const env = { CLOUDFLARE_BASE_URL: running.api, CLOUDFLARE_API_TOKEN: TOKEN };
    const fields = (...args: string[]) => runCli(["fields", ...args, "--zone", ZONE], "", env);
    expect((await fields("set", "--request-header", "x-trace", "--cookie", "SessionID")).code).toBe(0);
    const wrongCase = await fields("remove", "--cookie", "sessionid");
    expect([wrongCase.code, wrongCase.stderr.split("\n")[0]]).toEqual([
      1,
      'error[E0628]: cookies[0]: "sessionid" is not a configured cookie, so it cannot be removed; the zone has "SessionID" (cookie names are case-sensitive)',
    ]);
    expect((await fields("remove", "--cookie", "SessionID")).stdout).toMatch(/^custom fields set: ruleset /);
    const last = await fields("remove", "--request-header", "X-Trace");
    expect([last.code, last.stdout.replace(/ruleset \w+/, "ruleset …")]).toEqual([
      0,
      "custom fields cleared: ruleset …\n  - request header x-trace\nno custom fields\n",
    ]);
    const state = await client.getCustomFields({ zoneId: ZONE });
    expect(state?.config).toEqual({});
    const again = await fields("clear");
    expect(again).toEqual({
      code: 0,
      stdout: `nothing to clear: ruleset ${state?.rulesetId} has no rules\n`,
      stderr: "",
    });
    expect((await fields("set", "--cookie", "a")).code).toBe(0);
    expect((await fields("clear")).stdout).toBe(
      `custom fields cleared: ruleset ${state?.rulesetId} has no rules\n  - cookie a\n`,
    );

    const ownershipChallenge = await ownershipToken(sdk(running), running, DESTINATION);
    await client.createJob(
      { zoneId: ZONE },
      { destination: DESTINATION, ownershipChallenge, fields: ["RayID", "RequestHeaders", "Cookies"] },
    );
    const ingest = await call(
      running,
      "POST",
      `/zones/${ZONE}/sandbox/ingest`,
      '{"RayID":"r1","RequestHeaders":{"x-trace":"t"},"Cookies":{"a":"1"}}',
    );
    const file = (ingest.json as { result: { deliveries: { file: string }[] } }).result.deliveries[0]!.file;
    expect(gunzipSync(await readFile(join(running.dataDir, file))).toString()).toBe(
      '{"RayID":"r1","RequestHeaders":{},"Cookies":{}}\n',
    );
  });
});

describe("the filterc CLI against the sandbox", () => {
  it("sets fields and creates, lists and deletes a job", async () => {
    const env = { CLOUDFLARE_BASE_URL: running.api, CLOUDFLARE_API_TOKEN: TOKEN };
    const fields = await runCli(
      ["fields", "set", "--zone", ZONE, "--request-header", "x-trace", "--cookie", "sid"],
      "",
      env,
    );
    expect(fields.code).toBe(0);
    expect((await client.getCustomFields({ zoneId: ZONE }))?.config).toEqual({
      requestHeaders: ["x-trace"],
      cookies: ["sid"],
    });

    const token = await ownershipToken(sdk(running), running, DESTINATION);
    const create = await runCli(
      [
        "jobs",
        "create",
        "--zone",
        ZONE,
        "--name",
        "cli-job",
        "--destination",
        DESTINATION,
        "--fields",
        "RayID,RequestHeaders",
        "--expr",
        "ClientRequestPath startsWith '/api'",
        "--ownership-challenge",
        token,
      ],
      "",
      env,
    );
    expect(create.code).toBe(0);
    expect(create.stdout + create.stderr).not.toContain(TOKEN);
    const list = await runCli(["jobs", "list", "--zone", ZONE, "--json"], "", env);
    expect(list.code).toBe(0);
    const jobs = (await client.listJobs({ zoneId: ZONE })).map((job) => [job.id, job.name, job.filter]);
    expect(jobs).toEqual([
      [1, "cli-job", '{"where":{"key":"ClientRequestPath","operator":"startsWith","value":"/api"}}'],
    ]);
    expect(list.stdout).toContain('"cli-job"');

    const create2 = ["jobs", "create", "--zone", ZONE, "--name", "x", "--destination", DESTINATION];
    const missing = await runCli([...create2, "--fields", "RayID"], "", env);
    expect([missing.code, missing.stderr.slice(0, 22)]).toEqual([1, "error[E0627]: ownershi"]);
    const refused = await runCli(
      [...create2, "--fields", "RayID", "--ownership-challenge", "not-the-token"],
      "",
      env,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      "filterc jobs create: create job: HTTP 400: [1003] ownership_challenge is not valid for this destination\n",
    );
    expect(refused.stderr).not.toContain(TOKEN);

    expect((await runCli(["jobs", "delete", "--zone", ZONE, "--id", "1"], "", env)).code).toBe(0);
    expect(await client.listJobs({ zoneId: ZONE })).toEqual([]);
  });
});
