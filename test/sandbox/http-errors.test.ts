import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, failure, type Running, runSandbox, TOKEN, ZONE } from "./helpers.js";

let running: Running;
beforeAll(async () => {
  running = await runSandbox({ maxBodyBytes: 1024 });
});
afterAll(() => running.stop());

const rulesets = `/zones/${ZONE}/rulesets`;

describe("requests the sandbox refuses, in Cloudflare's envelope", () => {
  it.each([
    [
      "no credentials",
      "GET",
      rulesets,
      undefined,
      {},
      401,
      failure(
        10000,
        "Authentication error: send Authorization: Bearer <API token>, or X-Auth-Email and X-Auth-Key",
      ),
    ],
    [
      "a wrong token",
      "GET",
      rulesets,
      undefined,
      { authorization: "Bearer nope" },
      401,
      failure(10000, "Authentication error"),
    ],
    [
      "a key without its email",
      "GET",
      rulesets,
      undefined,
      { "x-auth-key": TOKEN },
      401,
      failure(10000, "Authentication error"),
    ],
    [
      "an unknown route",
      "GET",
      `/zones/${ZONE}/dns_records`,
      undefined,
      undefined,
      404,
      failure(7000, "No route for that URI"),
    ],
    [
      "account scope",
      "GET",
      `/accounts/${ZONE}/rulesets`,
      undefined,
      undefined,
      404,
      failure(7000, "No route for that URI"),
    ],
    [
      "a wrong method",
      "PATCH",
      rulesets,
      "{}",
      undefined,
      405,
      failure(7001, "Method PATCH not allowed for this route"),
    ],
    [
      "a zone id that is not 32 hex digits",
      "GET",
      "/zones/example.com/rulesets",
      undefined,
      undefined,
      400,
      failure(
        7003,
        "Could not route to /zones/example.com/rulesets, perhaps your object identifier is invalid?",
      ),
    ],
    [
      "a job id that is not a number",
      "GET",
      `/zones/${ZONE}/logpush/jobs/abc`,
      undefined,
      undefined,
      400,
      failure(
        7003,
        `Could not route to /zones/${ZONE}/logpush/jobs/abc, perhaps your object identifier is invalid?`,
      ),
    ],
    [
      "malformed JSON",
      "POST",
      rulesets,
      '{"name": ',
      undefined,
      400,
      failure(6007, "Malformed JSON in request body"),
    ],
    [
      "a JSON body that is not an object",
      "POST",
      rulesets,
      "[1]",
      undefined,
      400,
      failure(6007, "Malformed JSON in request body: expected an object"),
    ],
    [
      "an oversized body",
      "POST",
      rulesets,
      JSON.stringify({ name: "x".repeat(2000) }),
      undefined,
      413,
      failure(6008, "request body is larger than the limit of 1024 bytes"),
    ],
  ])("refuses %s", async (_name, method, path, body, headers, status, expected) => {
    const response = await call(
      running,
      method,
      path,
      body,
      headers === undefined ? { authorization: `Bearer ${TOKEN}` } : headers,
    );
    expect(response).toEqual({ status, json: expected });
  });

  it("refuses a path that is no URL path with a 400, not a 500 (regression)", async () => {
    const url = new URL(running.api);
    const answer = await new Promise<{ status: number; json: unknown }>((resolve, reject) => {
      const sent = request(
        { host: url.hostname, port: url.port, path: "//[", headers: { authorization: `Bearer ${TOKEN}` } },
        (response) => {
          let text = "";
          response.on("data", (chunk) => (text += chunk));
          response.on("end", () => resolve({ status: response.statusCode!, json: JSON.parse(text) }));
        },
      );
      sent.on("error", reject);
      sent.end();
    });
    expect(answer).toEqual({ status: 400, json: failure(6012, "the request's path is not a URL path") });
  });

  it("refuses a body larger than the limit that declares no length", async () => {
    const chunks = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode("x".repeat(512)));
        controller.close();
      },
    });
    const response = await fetch(`${running.api}${rulesets}`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}` },
      body: chunks,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(
      failure(6008, "request body is larger than the limit of 1024 bytes"),
    );
  });
});

describe("credentials", () => {
  it("makes and prints a token when none is configured, and requires it", async () => {
    const open = await runSandbox({ apiToken: undefined });
    try {
      expect(open.sandbox.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
      const path = `/zones/${ZONE}/logpush/jobs`;
      expect((await call(open, "GET", path, undefined, {})).status).toBe(401);
      expect(
        await call(open, "GET", path, undefined, { authorization: `Bearer ${open.sandbox.token}` }),
      ).toEqual({
        status: 200,
        json: { result: [], success: true, errors: [], messages: [] },
      });
    } finally {
      await open.stop();
    }
  });
});
