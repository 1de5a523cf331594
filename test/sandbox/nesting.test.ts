import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Store } from "../../src/sandbox/store.js";
import { call, failure, ownershipToken, type Running, runSandbox, sdk, tempDir, ZONE } from "./helpers.js";

let running: Running;
beforeAll(async () => {
  running = await runSandbox();
});
afterAll(() => running.stop());

/** `{"a":{"a":…{"a":1}…}}`, `levels` objects deep, as text (JSON.stringify would recurse). */
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

const tooDeep = failure(6009, "request body nests arrays and objects deeper than the limit of 64 levels");

describe("the nesting of JSON bodies", () => {
  it("refuses a rule's action_parameters or a job's output_options nested thousands deep, and keeps serving the zone", async () => {
    const entrypoint = `/zones/${ZONE}/rulesets/phases/http_log_custom_fields/entrypoint`;
    const deepRule = `{"rules":[{"action":"log_custom_field","expression":"true","action_parameters":${nested(4000)}}]}`;
    expect(await call(running, "PUT", entrypoint, deepRule)).toEqual({ status: 400, json: tooDeep });
    const destination = "s3://nesting-bucket/logs?region=us-east-1";
    const ownership_challenge = await ownershipToken(sdk(running), running, destination);
    const deepJob = `{"destination_conf":"${destination}","ownership_challenge":"${ownership_challenge}","output_options":${nested(3000)}}`;
    expect(await call(running, "POST", `/zones/${ZONE}/logpush/jobs`, deepJob)).toEqual({
      status: 400,
      json: tooDeep,
    });
    const rule = {
      action: "log_custom_field",
      expression: "true",
      action_parameters: { cookie_fields: [{ name: "a" }] },
    };
    expect((await call(running, "PUT", entrypoint, { rules: [rule] })).status).toBe(200);
  });

  it("takes a body exactly at the limit, and refuses one level more", async () => {
    const validate = `/zones/${ZONE}/logpush/ownership/validate`;
    const body = (levels: number) =>
      `{"destination_conf":"s3://nesting-bucket/x?region=us-east-1","ownership_challenge":${nested(levels)}}`;
    expect(await call(running, "POST", validate, body(63))).toEqual({
      status: 200,
      json: { result: { valid: false }, success: true, errors: [], messages: [] },
    });
    expect(await call(running, "POST", validate, body(64))).toEqual({ status: 400, json: tooDeep });
  });

  it("counts an ingested record nested deeper than the limit as a malformed line", async () => {
    const lines = [JSON.stringify({ RayID: "a" }), `{"RayID":"b","Deep":${nested(20000)}}`];
    expect(await call(running, "POST", `/zones/${ZONE}/sandbox/ingest`, lines.join("\n"))).toEqual({
      status: 200,
      json: {
        result: { records: 1, malformed: 1, malformed_lines: [2], deliveries: [], failures: [] },
        success: true,
        errors: [],
        messages: [],
      },
    });
  });
});

describe("the store", () => {
  it("rejects a change that cannot be saved, with no unhandled rejection, and goes on", async () => {
    const dataDir = await tempDir();
    try {
      const store = await Store.open(dataDir, 68, 1024 * 1024, () => undefined);
      await expect(
        store.update(ZONE, (zone) => {
          (zone.challenges as Record<string, unknown>)["unsavable"] = 1n;
        }),
      ).rejects.toThrow("BigInt");
      await expect(store.update(ZONE, () => 1)).resolves.toBe(1);
      expect(store.zone(ZONE).challenges).toEqual({});
      await expect(store.update(OTHER, () => 2)).resolves.toBe(2);
      await store.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it("keeps what was acknowledged from a change that edits it in place", async () => {
    const dataDir = await tempDir();
    try {
      const store = await Store.open(dataDir, 68, 1024 * 1024, () => undefined);
      await store.update(ZONE, (zone) => {
        zone.challenges["bucket/path"] = "token";
      });
      await expect(
        store.update(ZONE, () => {
          (store.zone(ZONE).challenges as Record<string, string>)["bucket/path"] = "changed";
        }),
      ).rejects.toThrow(TypeError);
      expect(store.zone(ZONE).challenges).toEqual({ "bucket/path": "token" });
      await store.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

const OTHER = "9a7806061c88ada191ed06f989cc3dac";
