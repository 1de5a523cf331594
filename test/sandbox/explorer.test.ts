/**
 * The sandbox's Log Explorer datasets API, driven by the official SDK (its generated code is what
 * the routes, bodies and answers follow), and its ingest: what a dataset's ingestion filter lets
 * into Log Explorer is written where a test can read it, and is exactly what the filter's
 * predicate keeps of the same records.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type Cloudflare from "cloudflare";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compile } from "../../src/compile.js";
import { decompile } from "../../src/decompile/index.js";
import { compilePredicate, parseRecord } from "../../src/eval/index.js";
import {
  call,
  failure,
  HEX_ID,
  MICRO_TIMESTAMP,
  type Running,
  runSandbox,
  sdk,
  sdkRejection,
  ZONE,
} from "./helpers.js";

const ACCOUNT = "01a7362d577a6c3019a474fd6f485823";
const FILTER = compile('EdgeResponseStatus geq 500 and ClientRequestHost eq "api.example.com"').filter!;

let running: Running;
let client: Cloudflare;
beforeEach(async () => {
  running = await runSandbox();
  client = sdk(running);
});
afterEach(() => running.stop());

const datasets = () => client.logs.logExplorer.datasets;

async function ingest(scope: string, lines: string[], dataset = "http_requests") {
  const response = await fetch(`${running.api}/${scope}/sandbox/ingest?dataset=${dataset}`, {
    method: "POST",
    headers: { authorization: "Bearer sandbox-test-token" },
    body: `${lines.join("\n")}\n`,
  });
  return (await response.json()) as { result: Record<string, unknown> };
}

describe("Log Explorer datasets through the official SDK", () => {
  it("creates, lists, gets, updates and deletes a dataset, its filter kept byte for byte", async () => {
    const created = await datasets().create({ zone_id: ZONE, dataset: "http_requests", filter: FILTER });
    expect(created).toMatchObject({
      dataset: "http_requests",
      dataset_id: expect.stringMatching(HEX_ID),
      enabled: true,
      object_id: ZONE,
      object_type: "zone",
      created_at: expect.stringMatching(MICRO_TIMESTAMP),
      deletion_protection: true,
      filter: FILTER,
    });
    expect(created.fields).toContainEqual({ name: "edgeresponsestatus", enabled: true });
    const id = created.dataset_id;
    const listed = [];
    for await (const summary of datasets().list({ zone_id: ZONE })) listed.push(summary);
    // The list leaves the fields and the filter out, as the service's does.
    expect(listed).toEqual([
      {
        dataset: "http_requests",
        dataset_id: id,
        enabled: true,
        object_id: ZONE,
        object_type: "zone",
        created_at: created.created_at,
        updated_at: created.updated_at,
        deletion_protection: true,
      },
    ]);
    expect((await datasets().get(id, { zone_id: ZONE })).filter).toBe(FILTER);
    // A PUT without `filter` keeps it; without `fields`, every field is ingested again.
    const narrowed = await datasets().update(id, {
      zone_id: ZONE,
      enabled: false,
      fields: [{ name: "ClientIP", enabled: true }],
    });
    expect(narrowed).toMatchObject({
      enabled: false,
      filter: FILTER,
      fields: [{ name: "clientip", enabled: true }],
    });
    const widened = await datasets().update(id, { zone_id: ZONE, enabled: true });
    expect(widened.fields!.length).toBe(created.fields!.length);
    // `""` clears the filter: the dataset then has none at all.
    const cleared = await datasets().update(id, { zone_id: ZONE, enabled: true, filter: "" });
    expect("filter" in cleared).toBe(false);
    expect(await sdkRejection(datasets().delete(id, { zone_id: ZONE }))).toEqual({
      status: 400,
      errors: [
        {
          code: 1008,
          message: "the dataset's deletion is protected; set deletion_protection to false first",
        },
      ],
    });
    await datasets().update(id, { zone_id: ZONE, enabled: true, deletion_protection: false });
    expect((await datasets().delete(id, { zone_id: ZONE })).dataset_id).toBe(id);
    expect(await sdkRejection(datasets().get(id, { zone_id: ZONE }))).toMatchObject({ status: 404 });
  });

  it("checks the filter as the service checks a job's, and refuses what a dataset cannot take", async () => {
    const { dataset_id: id } = await datasets().create({ zone_id: ZONE, dataset: "http_requests" });
    const neq = '{"where":{"key":"ClientCountry","operator":"neq","value":"ca"}}';
    expect(await sdkRejection(datasets().update(id, { zone_id: ZONE, enabled: true, filter: neq }))).toEqual({
      status: 400,
      errors: [{ code: 1004, message: expect.stringMatching(/^bad predicate: .*"neq"/) }],
    });
    const joined = '{"where":{"key":"EdgeResponseStatus","operator":"in","value":"200,201"}}';
    expect(
      await sdkRejection(datasets().update(id, { zone_id: ZONE, enabled: true, filter: joined })),
    ).toEqual({
      status: 400,
      errors: [
        {
          code: 1004,
          message: 'bad predicate: failed to decode value "\\"200,201\\"", supported kinds: []uint64',
        },
      ],
    });
    expect(
      await call(running, "PUT", `/zones/${ZONE}/logs/explorer/datasets/${id}`, { filter: FILTER }),
    ).toEqual({
      status: 400,
      json: failure(1009, "enabled is required (a boolean)", "/enabled"),
    });
    expect(await sdkRejection(datasets().create({ zone_id: ZONE, dataset: "http_requests" }))).toMatchObject({
      status: 409,
    });
    // A dataset of the account scope only is refused at a zone, as a job of it is.
    expect(await sdkRejection(datasets().create({ zone_id: ZONE, dataset: "gateway_http" }))).toMatchObject({
      status: 400,
    });
    expect(
      await sdkRejection(
        datasets().update(id, {
          zone_id: ZONE,
          enabled: true,
          fields: [{ name: "NoSuchField", enabled: true }],
        }),
      ),
    ).toEqual({
      status: 400,
      errors: [
        {
          code: 1009,
          message: '"NoSuchField" is not a field of http_requests',
          source: { pointer: "/fields/0/name" },
        },
      ],
    });
    // Nothing refused changed the dataset.
    expect(await datasets().get(id, { zone_id: ZONE })).not.toHaveProperty("filter");
  });

  it("keeps datasets across a restart", async () => {
    const { dataset_id: id } = await datasets().create({
      account_id: ACCOUNT,
      dataset: "gateway_http",
      filter: '{"where":{"key":"Action","operator":"eq","value":"block"}}',
    });
    const dataDir = running.dataDir;
    await running.sandbox.close();
    running = { ...(await runSandbox({ dataDir })), stop: running.stop };
    client = sdk(running);
    expect((await datasets().get(id, { account_id: ACCOUNT })).filter).toBe(
      '{"where":{"key":"Action","operator":"eq","value":"block"}}',
    );
  });
});

describe("the ingest plays Log Explorer's ingestion filter", () => {
  const records = [
    '{"RayID":"1","ClientIP":"192.0.2.1","EdgeResponseStatus":503,"ClientRequestHost":"api.example.com","EdgeStartTimestamp":1700000000000000000}',
    '{"RayID":"2","ClientIP":"192.0.2.2","EdgeResponseStatus":200,"ClientRequestHost":"api.example.com","EdgeStartTimestamp":1700000001000000000}',
    '{"RayID":"3","ClientIP":"192.0.2.3","EdgeResponseStatus":500,"ClientRequestHost":"www.example.com","EdgeStartTimestamp":1700000002000000000}',
    '{"RayID":"4","ClientIP":"192.0.2.4","EdgeResponseStatus":"502","ClientRequestHost":"api.example.com"}',
    '{"RayID":"5","ClientRequestHost":"api.example.com"}',
  ];

  it("keeps exactly the records the filter's predicate keeps, with the dataset's enabled fields", async () => {
    const created = await datasets().create({
      zone_id: ZONE,
      dataset: "http_requests",
      filter: FILTER,
      fields: [
        { name: "rayid", enabled: true },
        { name: "edgeresponsestatus", enabled: true },
        { name: "clientip", enabled: false },
        { name: "edgestarttimestamp", enabled: true },
      ],
    });
    const answer = await ingest(`zones/${ZONE}`, records);
    const kept = answer.result["explorer"] as { dataset_id: string; records: number; files: string[] };
    expect(kept).toEqual({
      dataset_id: created.dataset_id,
      records: 2,
      files: [
        expect.stringMatching(new RegExp(`^_explorer/${ZONE}/${created.dataset_id}/\\d{8}/.*\\.log\\.gz$`)),
      ],
    });
    const written = gunzipSync(await readFile(join(running.dataDir, kept.files[0]!))).toString("utf8");
    const predicate = compilePredicate(decompile(FILTER).condition!, { timestamps: "unixnano" });
    const expected = records.map((line) => parseRecord(line)!).filter(predicate);
    expect(expected.map((record) => record["RayID"])).toEqual(["1", "4"]);
    expect(written).toBe(
      '{"RayID":"1","EdgeResponseStatus":503,"EdgeStartTimestamp":"2023-11-14T22:13:20Z"}\n{"RayID":"4","EdgeResponseStatus":"502"}\n',
    );
  });

  it("keeps every record without a filter, nothing of a disabled dataset, and answers as before without one", async () => {
    expect(await ingest(`zones/${ZONE}`, records)).not.toHaveProperty("result.explorer");
    const { dataset_id: id } = await datasets().create({ zone_id: ZONE, dataset: "http_requests" });
    expect((await ingest(`zones/${ZONE}`, records)).result["explorer"]).toMatchObject({ records: 5 });
    await datasets().update(id, { zone_id: ZONE, enabled: false });
    expect(await ingest(`zones/${ZONE}`, records)).not.toHaveProperty("result.explorer");
  });

  it("applies an account's dataset to the account's ingest", async () => {
    await datasets().create({
      account_id: ACCOUNT,
      dataset: "gateway_http",
      filter: '{"where":{"key":"Action","operator":"eq","value":"block"}}',
    });
    const answer = await ingest(
      `accounts/${ACCOUNT}`,
      ['{"Action":"block"}', '{"Action":"allow"}'],
      "gateway_http",
    );
    expect(answer.result["explorer"]).toMatchObject({ records: 1 });
  });
});
