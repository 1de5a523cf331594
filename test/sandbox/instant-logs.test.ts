/**
 * The sandbox's Instant Logs through the official SDK (`logpush.edge`, whose generated code the
 * routes and answers follow) and a raw WebSocket client: what a session's body may hold, the bounds
 * on sessions, and which connections to a session's address are refused.
 */
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { call, failure, type Running, runSandbox, sdk, sdkRejection, ZONE } from "./helpers.js";

const OTHER_ZONE = "9a7806061c88ada191ed06f989cc3dac";
let running: Running;
afterEach(() => running.stop());

/** How a WebSocket connection to `address` goes: opened, or refused with the HTTP status. */
function connect(
  address: string,
  headers: Record<string, string> = {},
): Promise<{ socket?: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(address, { headers });
    socket.once("open", () => resolve({ socket }));
    socket.once("unexpected-response", (_request, response) => {
      resolve({ status: response.statusCode! });
      socket.terminate();
    });
    socket.once("error", () => undefined);
  });
}

describe("Instant Logs sessions through the official SDK", () => {
  it("creates a session with its WebSocket address on the sandbox, and lists it", async () => {
    running = await runSandbox();
    const client = sdk(running);
    const session = await client.logpush.edge.create({
      zone_id: ZONE,
      fields: "ClientIP,RayID",
      sample: 10,
      filter: '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":"500"}}',
    });
    expect(session).toEqual({
      id: 1,
      fields: "ClientIP,RayID",
      sample: 10,
      filter: '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":"500"}}',
      destination_conf: expect.stringMatching(
        /^ws:\/\/127\.0\.0\.1:\d+\/instant-logs\/ws\/sessions\/[0-9a-f]{32}$/,
      ),
      session_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      kind: "instant-logs",
    });
    expect(session!.destination_conf).toContain(session!.session_id!);
    const listed = [];
    for await (const entry of client.logpush.edge.get({ zone_id: ZONE })) listed.push(entry);
    expect(listed).toEqual([session]);
  });

  it("checks the body as the service checks a job's members", async () => {
    running = await runSandbox();
    const client = sdk(running);
    const create = (body: Record<string, unknown>) =>
      sdkRejection(client.logpush.edge.create({ zone_id: ZONE, ...body } as never));
    expect(await create({ fields: "ClientIp" })).toEqual({
      status: 400,
      errors: [
        { code: 1002, message: '"ClientIp" is not a field of http_requests', source: { pointer: "/fields" } },
      ],
    });
    expect(await create({ sample: 0 })).toMatchObject({
      status: 400,
      errors: [{ source: { pointer: "/sample" } }],
    });
    expect(await create({ sample: 1.5 })).toMatchObject({ status: 400 });
    expect(await create({ kind: "edge" })).toMatchObject({
      status: 400,
      errors: [{ source: { pointer: "/kind" } }],
    });
    expect(
      await create({ filter: '{"where":{"key":"ClientCountry","operator":"neq","value":"ca"}}' }),
    ).toMatchObject({
      status: 400,
      errors: [{ code: 1004 }],
    });
    expect(await call(running, "POST", `/accounts/${ZONE}/logpush/edge/jobs`, {})).toMatchObject({
      status: 404,
    });
  });

  it("holds one session a zone and maxInstantLogsSessions in all", async () => {
    running = await runSandbox({ maxInstantLogsSessions: 1 });
    const client = sdk(running);
    await client.logpush.edge.create({ zone_id: ZONE });
    expect(await sdkRejection(client.logpush.edge.create({ zone_id: ZONE }))).toMatchObject({ status: 409 });
    expect(await call(running, "POST", `/zones/${OTHER_ZONE}/logpush/edge/jobs`, {})).toEqual({
      status: 429,
      json: failure(6011, "1 Instant Logs sessions are open, the most the sandbox holds; retry later"),
    });
  });

  it("forgets a session whose client never connects", async () => {
    running = await runSandbox({ instantLogsConnectTimeoutMs: 200 });
    const session = await sdk(running).logpush.edge.create({ zone_id: ZONE });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await call(running, "GET", `/zones/${ZONE}/logpush/edge/jobs`)).json).toMatchObject({
      result: [],
    });
    expect(await connect(session!.destination_conf!)).toEqual({ status: 404 });
  });
});

describe("connections to a session's address", () => {
  it("takes one client, and refuses a second, another origin's page and other paths", async () => {
    running = await runSandbox();
    const session = await sdk(running).logpush.edge.create({ zone_id: ZONE });
    const address = session!.destination_conf!;
    expect(await connect(address, { origin: "https://evil.example" })).toEqual({ status: 403 });
    const first = await connect(address);
    expect(first.socket).toBeDefined();
    expect(await connect(address)).toEqual({ status: 409 });
    expect(await connect(address.replace(/sessions\/.*/, "sessions/nope"))).toEqual({ status: 404 });
    expect(await connect(running.api.replace("http", "ws"))).toEqual({ status: 404 });
    // The client going ends the session: the zone may open another.
    first.socket!.close();
    await expect
      .poll(async () => (await call(running, "GET", `/zones/${ZONE}/logpush/edge/jobs`)).json)
      .toMatchObject({ result: [] });
  });
});
