import { describe, expect, it } from "vitest";
import {
  ApiError,
  ClientConfigError,
  createClient,
  DEFAULT_MAX_RESPONSE_BYTES,
  MAX_RESPONSE_BYTES,
  MAX_TIMEOUT_MS,
} from "../../src/api/index.js";
import { rejectionOf, useTestApi } from "./harness.js";
import { failure, success, TestApi } from "./server.js";

const api = useTestApi(() => {
  sleeps.length = 0;
});

const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";
const TOKEN = "tok_S3cr3tValue0123456789abcdefXYZ";
const JOBS = `GET /zones/${ZONE}/logpush/jobs`;

const sleeps: number[] = [];
const client = (extra: Parameters<typeof createClient>[0] = {}) =>
  createClient({
    baseUrl: api.baseUrl,
    apiToken: TOKEN,
    env: {},
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...extra,
  });

const failureOf = (promise: Promise<unknown>) => rejectionOf(promise, ApiError);

describe("authentication", () => {
  it("sends an API token as a bearer token", async () => {
    api.on(JOBS, success([]));
    await client().listJobs({ zoneId: ZONE });
    expect(api.received[0]!.headers["authorization"]).toBe(`Bearer ${TOKEN}`);
    expect(api.received[0]!.headers["x-auth-key"]).toBeUndefined();
  });

  it("sends email and key from the SDK's environment names", async () => {
    api.on(JOBS, success([]));
    await createClient({
      env: {
        CLOUDFLARE_BASE_URL: api.baseUrl,
        CLOUDFLARE_EMAIL: "me@example.com",
        CLOUDFLARE_API_KEY: "k3y",
      },
    }).listJobs({ zoneId: ZONE });
    const headers = api.received[0]!.headers;
    expect([headers["x-auth-email"], headers["x-auth-key"], headers["authorization"]]).toEqual([
      "me@example.com",
      "k3y",
      undefined,
    ]);
  });

  it("prefers options over the environment and a token over email and key", async () => {
    api.on(JOBS, success([]));
    await createClient({
      baseUrl: api.baseUrl,
      apiToken: "from-option",
      env: {
        CLOUDFLARE_API_TOKEN: "from-env",
        CLOUDFLARE_EMAIL: "me@example.com",
        CLOUDFLARE_API_KEY: "k3y",
      },
    }).listJobs({ zoneId: ZONE });
    expect(api.received[0]!.headers["authorization"]).toBe("Bearer from-option");
    expect(api.received[0]!.headers["x-auth-key"]).toBeUndefined();
  });

  it("refuses to send without credentials", async () => {
    const error = await createClient({ baseUrl: api.baseUrl, env: {} })
      .listJobs({ zoneId: ZONE })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientConfigError);
    expect((error as Error).message).toBe(
      "no credentials: set CLOUDFLARE_API_TOKEN, or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY",
    );
    expect(api.received).toEqual([]);
  });

  it("refuses timer options a timer cannot wait (past 2^31 - 1 ms it fired at once)", () => {
    expect(() => createClient({ env: {}, timeoutMs: 2 ** 31 })).toThrow(
      new ClientConfigError("timeoutMs must be a whole number from 1 to 2147483647, not 2147483648"),
    );
    expect(() => createClient({ env: {}, maxRetryDelayMs: -1 })).toThrow(
      "maxRetryDelayMs must be a whole number from 0 to 2147483647, not -1",
    );
    expect(() => createClient({ env: {}, maxRetries: 1.5 })).toThrow(
      "maxRetries must be a whole number from 0 to 9007199254740991, not 1.5",
    );
    expect(() => createClient({ env: {}, timeoutMs: MAX_TIMEOUT_MS, maxRetryDelayMs: 0 })).not.toThrow();
  });

  it("refuses a base URL that is not http(s)", () => {
    expect(() => createClient({ baseUrl: "ftp://example.com", env: {} })).toThrow(
      'the base URL must start with https:// or http://, not "ftp://example.com"',
    );
  });
});

describe("errors", () => {
  const cases: Array<[number, number, string]> = [
    [401, 10000, "Authentication error"],
    [403, 10000, "Authentication error"],
    [404, 7003, "No route for the URI"],
    [409, 1002, "ruleset already exists"],
    [500, 1000, "Internal error"],
  ];
  for (const [status, code, message] of cases) {
    it(`surfaces HTTP ${status} with the envelope's errors`, async () => {
      api.on(JOBS, failure(status, code, message));
      const error = await failureOf(client({ maxRetries: 0 }).listJobs({ zoneId: ZONE }));
      expect({ ...error, message: error.message }).toEqual({
        name: "ApiError",
        operation: "list jobs",
        failure: "http",
        status,
        errors: [{ code, message }],
        message: `list jobs: HTTP ${status}: [${code}] ${message}`,
      });
    });
  }

  it.each([
    ["with blanks around it", ` ${TOKEN} `, "[ **** ]"],
    ["JSON-escaped", JSON.stringify(`${TOKEN}"`).slice(1, -1), "[****]"],
    ["cut to its first 8 characters", TOKEN.slice(0, 8), "[****]"],
    ["cut to its first 20 characters", TOKEN.slice(0, 20), "[****]"],
  ])("masks a credential the service echoes %s", async (_name, echoed, shown) => {
    api.on(JOBS, failure(400, 6003, `bad token [${echoed}]`));
    const error = await failureOf(client({ apiToken: `${TOKEN}"` }).listJobs({ zoneId: ZONE }));
    expect(error.message).toBe(`list jobs: HTTP 400: [6003] bad token ${shown}`);
  });

  it("masks the secrets of a destination the service echoes", async () => {
    const secret = "AKIAvery/secret+key";
    const destination = `s3://bucket/logs?region=us-east-1&endpoint=s3.example.com&access-key-id=AKID123456&secret-access-key=${encodeURIComponent(secret)}`;
    api.on(
      `POST /zones/${ZONE}/logpush/validate/destination`,
      failure(400, 1002, `cannot write with key ${secret} (AKID123456)`),
    );
    const error = await failureOf(client().validateDestination({ zoneId: ZONE }, destination));
    expect(error.message).toBe("validate destination: HTTP 400: [1002] cannot write with key **** (****)");
  });

  it("masks a destination's secret in the form the client sent it, not only decoded", async () => {
    // A + in a query is a space once decoded: the service may echo either, or encode either again.
    const destination =
      "s3://bucket/logs?region=us-east-1&endpoint=s3.example.com&access-key-id=AKID123456&secret-access-key=abc+def";
    api.on(
      `POST /zones/${ZONE}/logpush/validate/destination`,
      failure(
        400,
        1002,
        "sent abc+def; decoded abc def; again abc%2Bdef, abc%2bdef, abc%20def; id AKID123456",
      ),
    );
    const error = await failureOf(client().validateDestination({ zoneId: ZONE }, destination));
    expect(error.message).toBe(
      "validate destination: HTTP 400: [1002] sent ****; decoded ****; again ****, ****, ****; id ****",
    );
  });

  it("masks a password before a destination's host, also as Basic credentials", async () => {
    const destination = "https://pusher:p4ss%2Fw0rd@logs.example.com/ingest";
    api.on(
      `POST /zones/${ZONE}/logpush/validate/destination`,
      failure(
        400,
        1002,
        `401 from logs.example.com for "Basic ${btoa("pusher:p4ss/w0rd")}" (pusher:p4ss/w0rd)`,
      ),
    );
    const error = await failureOf(client().validateDestination({ zoneId: ZONE }, destination));
    expect(error.message).toBe(
      'validate destination: HTTP 400: [1002] 401 from logs.example.com for "Basic ****" (****)',
    );
  });

  it("masks the secrets of the destination an updated job already has, in the update's error", async () => {
    const destination = "datadog://intake.example.com/api/v2/logs?header_DD-API-KEY=ddKey0123456789";
    api.on(
      `GET /zones/${ZONE}/logpush/jobs/7`,
      success({ id: 7, dataset: "http_requests", destination_conf: destination, enabled: true }),
    );
    api.on(`PUT /zones/${ZONE}/logpush/jobs/7`, failure(400, 1002, "cannot push with ddKey0123456789"));
    const error = await failureOf(client().updateJob({ zoneId: ZONE }, 7, { enabled: false }));
    expect(error.message).toBe("update job: HTTP 400: [1002] cannot push with ****");
  });

  it("refuses a credential holding a line break before sending", () => {
    expect(() => createClient({ baseUrl: api.baseUrl, env: { CLOUDFLARE_API_TOKEN: `${TOKEN}\n` } })).toThrow(
      "the API token (CLOUDFLARE_API_TOKEN) holds a control character (a line break or a tab?); remove it",
    );
    expect(() => createClient({ baseUrl: api.baseUrl, env: {}, apiKey: "k\rey", email: "a@b.c" })).toThrow(
      "the API key (given as an option) holds a control character (a line break or a tab?); remove it",
    );
  });

  it("refuses a redirect to another origin, and follows one within the API's origin", async () => {
    const other = await new TestApi().start();
    try {
      api.on(JOBS, { status: 302, raw: "", headers: { location: `${other.baseUrl}/steal` } });
      const error = await failureOf(client({ maxRetries: 0 }).listJobs({ zoneId: ZONE }));
      expect(error.message).toBe(
        `list jobs: HTTP 302 from ${api.baseUrl}/zones/${ZONE}/logpush/jobs: a redirect to another origin (${new URL(other.baseUrl).origin}) is not followed: credentials go to the API's origin only`,
      );
      expect(other.received).toEqual([]);
      api.reset();
      api.on(JOBS, {
        status: 307,
        raw: "",
        headers: { location: `${api.baseUrl}/zones/${ZONE}/logpush/jobs/` },
      });
      api.on(`GET /zones/${ZONE}/logpush/jobs/`, success([]));
      expect(await client().listJobs({ zoneId: ZONE })).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it("masks a credential the service echoes back", async () => {
    api.on(JOBS, failure(400, 6003, `Invalid request headers: bad token ${TOKEN}`));
    const error = await failureOf(client().listJobs({ zoneId: ZONE }));
    expect(error.message).toBe("list jobs: HTTP 400: [6003] Invalid request headers: bad token ****");
    expect(JSON.stringify(error)).not.toContain(TOKEN);
  });

  it("names a response that is not an envelope", async () => {
    api.on(JOBS, { status: 502, raw: "<html>Bad gateway</html>" });
    const error = await failureOf(client({ maxRetries: 0 }).listJobs({ zoneId: ZONE }));
    expect([error.status, error.message]).toEqual([
      502,
      "list jobs: HTTP 502: an error that is not a Cloudflare envelope",
    ]);
  });

  it("treats success: false on HTTP 200 as a failure", async () => {
    api.on(JOBS, {
      json: { success: false, errors: [{ code: 1001, message: "nope" }], messages: [], result: null },
    });
    const error = await failureOf(client().listJobs({ zoneId: ZONE }));
    expect(error.message).toBe("list jobs: HTTP 200: [1001] nope");
  });

  it("times out a slow response, naming the operation and the limit", async () => {
    api.on(JOBS, { ...success([]), delayMs: 1000 });
    const error = await failureOf(client({ timeoutMs: 100 }).listJobs({ zoneId: ZONE }));
    expect([error.failure, error.status, error.message]).toEqual([
      "timeout",
      null,
      `list jobs: no response within 100 ms (timeout) from GET ${api.baseUrl}/zones/${ZONE}/logpush/jobs (3 attempts)`,
    ]);
    expect(api.received.length).toBe(3);
    expect(sleeps).toEqual([438, 875]);
  });

  it("does not retry a timed-out POST", async () => {
    api.on(`POST /zones/${ZONE}/logpush/validate/destination`, {
      ...success({ valid: true }),
      delayMs: 1000,
    });
    const error = await failureOf(
      client({ timeoutMs: 100 }).validateDestination({ zoneId: ZONE }, "s3://bucket/logs?region=us-west-2"),
    );
    expect([error.failure, api.received.length, sleeps]).toEqual(["timeout", 1, []]);
  });

  it.each([
    [
      "a list where an object was due",
      `GET /zones/${ZONE}/logpush/jobs/7`,
      "get",
      { success: true, errors: [], messages: [], result: [] },
      "get job: HTTP 200: the service answered with a list where an object was due",
    ],
    [
      "no result",
      `GET /zones/${ZONE}/logpush/jobs/7`,
      "get",
      { success: true, errors: [], messages: [] },
      "get job: HTTP 200: the service answered with no result where an object was due",
    ],
    [
      "an object where a list was due",
      JOBS,
      "list",
      { success: true, errors: [], messages: [], result: {} },
      "list jobs: HTTP 200: the service answered with an object where a list was due",
    ],
    [
      "a rulesets list that is not a list",
      `GET /zones/${ZONE}/rulesets`,
      "update",
      { success: true, errors: [], messages: [], result: { id: "x" } },
      "add custom fields: HTTP 200: the service answered with an object where a list was due",
    ],
  ])("names the operation when the result is %s", async (_name, route, call, json, message) => {
    api.on(route, { json });
    const c = client({ maxRetries: 0 });
    const pending =
      call === "get"
        ? c.getJob({ zoneId: ZONE }, 7)
        : call === "list"
          ? c.listJobs({ zoneId: ZONE })
          : c.setCustomFields({ zoneId: ZONE }, { cookies: ["sid"] }, { merge: "add" });
    const error = await failureOf(pending);
    expect([error.failure, error.message]).toEqual(["response", message]);
  });

  it("reports an unreachable server after retrying", async () => {
    const closed = await new TestApi().start();
    await closed.close();
    const error = await failureOf(client({ baseUrl: closed.baseUrl }).listJobs({ zoneId: ZONE }));
    expect([error.failure, error.message]).toEqual([
      "network",
      `list jobs: cannot reach ${closed.baseUrl}/zones/${ZONE}/logpush/jobs: ECONNREFUSED`,
    ]);
    expect(sleeps).toEqual([438, 875]);
  });
});

describe("retries", () => {
  it("retries an idempotent call on 429, honouring Retry-After in seconds", async () => {
    api.on(JOBS, failure(429, 10013, "rate limited", { "retry-after": "3" }), success([]));
    expect(await client().listJobs({ zoneId: ZONE })).toEqual([]);
    expect(api.calls()).toEqual([JOBS, JOBS]);
    expect(sleeps).toEqual([3000]);
  });

  it("honours Retry-After as an HTTP date", async () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    api.on(
      JOBS,
      failure(429, 10013, "rate limited", { "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }),
      success([]),
    );
    await client({ now: () => now }).listJobs({ zoneId: ZONE });
    expect(sleeps).toEqual([5000]);
  });

  it("gives up with the envelope, saying so, when Retry-After is longer than the cap", async () => {
    api.on(JOBS, failure(429, 10013, "rate limited", { "retry-after": "3600" }), success([]));
    const error = await failureOf(client().listJobs({ zoneId: ZONE }));
    expect(error.message).toBe(
      "list jobs: HTTP 429: [10013] rate limited; the service asked to retry after 3600 s, longer than the 60 s filterc waits (maxRetryDelayMs): not retried",
    );
    expect([api.received.length, sleeps]).toEqual([1, []]);
    api.reset();
    api.on(JOBS, failure(429, 10013, "rate limited", { "retry-after": "90" }), success([]));
    expect(await client({ maxRetryDelayMs: 120_000 }).listJobs({ zoneId: ZONE })).toEqual([]);
    expect(sleeps).toEqual([90_000]);
  });

  it("backs off exponentially with jitter on 5xx, then gives up", async () => {
    api.on(JOBS, failure(503, 1000, "unavailable"));
    const error = await failureOf(client({ maxRetries: 3 }).listJobs({ zoneId: ZONE }));
    expect(error.status).toBe(503);
    expect(api.received.length).toBe(4);
    expect(sleeps).toEqual([438, 875, 1750]);
  });

  it("never retries a POST", async () => {
    api.on(`POST /zones/${ZONE}/logpush/jobs`, failure(500, 1000, "Internal error"));
    const error = await failureOf(
      client().createJob(
        { zoneId: ZONE },
        {
          destination: "s3://bucket/logs?region=us-west-2",
          ownershipChallenge: "00000000000000000000",
          fields: ["ClientIP", "Cookies"],
        },
        { checkCustomFields: false },
      ),
    );
    expect(error.message).toBe("create job: HTTP 500: [1000] Internal error");
    expect(api.calls()).toEqual([`POST /zones/${ZONE}/logpush/jobs`]);
    expect(sleeps).toEqual([]);
  });

  it("does not retry a client error", async () => {
    api.on(JOBS, failure(400, 1001, "bad"));
    await failureOf(client().listJobs({ zoneId: ZONE }));
    expect(api.received.length).toBe(1);
  });
});

describe("response bounds", () => {
  const tooLarge = (status: number, limit: number) =>
    `list jobs: HTTP ${status}: the response is larger than ${limit} bytes (maxResponseBytes); not read further`;

  it("stops reading an endless body at the bound, by default 16 MiB", async () => {
    api.on(JOBS, { raw: '{"success":true,"errors":[],"messages":[],"result":[', endless: true });
    const error = await failureOf(client().listJobs({ zoneId: ZONE }));
    expect([error.failure, error.status, error.limit, error.message]).toEqual([
      "response",
      200,
      "maxResponseBytes",
      tooLarge(200, DEFAULT_MAX_RESPONSE_BYTES),
    ]);
    // Refused, not retried: the same body would be refused again.
    expect([api.received.length, sleeps]).toEqual([1, []]);
  });

  it("bounds what a gzip answer inflates to, and reads one within the bound", async () => {
    api.on(JOBS, { raw: `${JSON.stringify(success([]).json)}${" ".repeat(2_000_000)}`, gzip: true });
    const error = await failureOf(client({ maxResponseBytes: 1_000_000 }).listJobs({ zoneId: ZONE }));
    expect(error.message).toBe(tooLarge(200, 1_000_000));
    api.reset();
    api.on(JOBS, { ...success([{ id: 1 }]), gzip: true });
    expect(await client({ maxResponseBytes: 1_000_000 }).listJobs({ zoneId: ZONE })).toEqual([{ id: 1 }]);
  });

  it("bounds an error's body too, and believes a Content-Length past the bound", async () => {
    api.on(JOBS, { status: 503, raw: "x", endless: true });
    const error = await failureOf(client({ maxResponseBytes: 100_000 }).listJobs({ zoneId: ZONE }));
    expect([error.message, api.received.length]).toEqual([tooLarge(503, 100_000), 1]);
    api.reset();
    api.on(JOBS, { raw: " ".repeat(2000), headers: { "content-length": "2000" } });
    const declared = await failureOf(client({ maxResponseBytes: 1000 }).listJobs({ zoneId: ZONE }));
    expect(declared.message).toBe(tooLarge(200, 1000));
  });

  it.each([
    ["stacked", "gzip, gzip"],
    ["unknown", "zstd"],
  ])("refuses an encoding fetch does not undo (%s)", async (_name, encoding) => {
    api.on(JOBS, { ...success([]), gzip: true, headers: { "content-encoding": encoding } });
    const error = await failureOf(client().listJobs({ zoneId: ZONE }));
    expect([error.failure, error.limit, error.message]).toEqual([
      "response",
      undefined,
      `list jobs: HTTP 200: the response is encoded as ${JSON.stringify(encoding)} (Content-Encoding); filterc reads one of gzip, x-gzip, deflate, br, or none`,
    ]);
  });

  it("refuses bounds outside what a response can be read to", () => {
    expect(() => createClient({ env: {}, maxResponseBytes: 0 })).toThrow(
      "maxResponseBytes must be a whole number from 1 to 268435456, not 0",
    );
    expect(() => createClient({ env: {}, maxResponseBytes: MAX_RESPONSE_BYTES + 1 })).toThrow(
      "maxResponseBytes must be a whole number from 1 to 268435456, not 268435457",
    );
    expect(() => createClient({ env: {}, maxPages: 0 })).toThrow(
      "maxPages must be a whole number from 1 to 9007199254740991, not 0",
    );
  });

  it("refuses a base URL holding a password, without showing it", () => {
    expect(() => createClient({ env: {}, baseUrl: "https://me:hunter22@api.example.com/client/v4" })).toThrow(
      new ClientConfigError(
        "the base URL holds a user name or password (https://****@api.example.com/client/v4): give credentials with CLOUDFLARE_API_TOKEN, or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY",
      ),
    );
    expect(() => createClient({ env: {}, baseUrl: "ftp://me:hunter22@example.com" })).toThrow(
      'the base URL must start with https:// or http://, not "ftp://****@example.com"',
    );
  });
});
