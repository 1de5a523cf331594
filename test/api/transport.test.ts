import { describe, expect, it } from "vitest";
import { ApiError, ClientConfigError, createClient } from "../../src/api/index.js";
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
    await client().listJobs(ZONE);
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
    }).listJobs(ZONE);
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
    }).listJobs(ZONE);
    expect(api.received[0]!.headers["authorization"]).toBe("Bearer from-option");
    expect(api.received[0]!.headers["x-auth-key"]).toBeUndefined();
  });

  it("refuses to send without credentials", async () => {
    const error = await createClient({ baseUrl: api.baseUrl, env: {} })
      .listJobs(ZONE)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClientConfigError);
    expect((error as Error).message).toBe(
      "no credentials: set CLOUDFLARE_API_TOKEN, or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY",
    );
    expect(api.received).toEqual([]);
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
      const error = await failureOf(client({ maxRetries: 0 }).listJobs(ZONE));
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

  it("masks a credential the service echoes back", async () => {
    api.on(JOBS, failure(400, 6003, `Invalid request headers: bad token ${TOKEN}`));
    const error = await failureOf(client().listJobs(ZONE));
    expect(error.message).toBe("list jobs: HTTP 400: [6003] Invalid request headers: bad token ****");
    expect(JSON.stringify(error)).not.toContain(TOKEN);
  });

  it("names a response that is not an envelope", async () => {
    api.on(JOBS, { status: 502, raw: "<html>Bad gateway</html>" });
    const error = await failureOf(client({ maxRetries: 0 }).listJobs(ZONE));
    expect([error.status, error.message]).toEqual([
      502,
      "list jobs: HTTP 502: an error that is not a Cloudflare envelope",
    ]);
  });

  it("treats success: false on HTTP 200 as a failure", async () => {
    api.on(JOBS, {
      json: { success: false, errors: [{ code: 1001, message: "nope" }], messages: [], result: null },
    });
    const error = await failureOf(client().listJobs(ZONE));
    expect(error.message).toBe("list jobs: HTTP 200: [1001] nope");
  });

  it("times out a slow response, naming the operation and the limit", async () => {
    api.on(JOBS, { ...success([]), delayMs: 1000 });
    const error = await failureOf(client({ timeoutMs: 100 }).listJobs(ZONE));
    expect([error.failure, error.status, error.message]).toEqual([
      "timeout",
      null,
      `list jobs: no response within 100 ms (timeout) from GET ${api.baseUrl}/zones/${ZONE}/logpush/jobs`,
    ]);
  });

  it("reports an unreachable server after retrying", async () => {
    const closed = await new TestApi().start();
    await closed.close();
    const error = await failureOf(client({ baseUrl: closed.baseUrl }).listJobs(ZONE));
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
    expect(await client().listJobs(ZONE)).toEqual([]);
    expect(api.calls()).toEqual([JOBS, JOBS]);
    expect(sleeps).toEqual([3000]);
  });

  it("honours Retry-After as an HTTP date, and caps it at a minute", async () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    api.on(
      JOBS,
      failure(429, 10013, "rate limited", { "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }),
      failure(429, 10013, "rate limited", { "retry-after": "3600" }),
      success([]),
    );
    await client({ now: () => now }).listJobs(ZONE);
    expect(sleeps).toEqual([5000, 60000]);
  });

  it("backs off exponentially with jitter on 5xx, then gives up", async () => {
    api.on(JOBS, failure(503, 1000, "unavailable"));
    const error = await failureOf(client({ maxRetries: 3 }).listJobs(ZONE));
    expect(error.status).toBe(503);
    expect(api.received.length).toBe(4);
    expect(sleeps).toEqual([438, 875, 1750]);
  });

  it("never retries a POST", async () => {
    api.on(`POST /zones/${ZONE}/logpush/jobs`, failure(500, 1000, "Internal error"));
    const error = await failureOf(
      client().createJob(ZONE, {
        destination: "s3://bucket/logs?region=us-west-2",
        fields: ["ClientIP", "Cookies"],
      }),
    );
    expect(error.message).toBe("create job: HTTP 500: [1000] Internal error");
    expect(api.calls()).toEqual([`POST /zones/${ZONE}/logpush/jobs`]);
    expect(sleeps).toEqual([]);
  });

  it("does not retry a client error", async () => {
    api.on(JOBS, failure(400, 1001, "bad"));
    await failureOf(client().listJobs(ZONE));
    expect(api.received.length).toBe(1);
  });
});
