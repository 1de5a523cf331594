import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import type { Job } from "../../src/sandbox/model.js";
import { call, ownershipToken, type Running, runSandbox, sdk, ZONE } from "./helpers.js";

const DESTINATION = "s3://output-bucket/http?region=us-east-1";

let running: Running | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

async function start(seed = 7): Promise<Running> {
  running = await runSandbox({ sampleSeed: seed });
  return running;
}

async function createJob(current: Running, body: Record<string, unknown>): Promise<Job> {
  const ownership_challenge = await ownershipToken(sdk(current), current, DESTINATION);
  const created = await call(current, "POST", `/zones/${ZONE}/logpush/jobs`, {
    destination_conf: DESTINATION,
    ownership_challenge,
    enabled: true,
    ...body,
  });
  expect(created.status).toBe(200);
  return (created.json as { result: Job }).result;
}

interface Delivery {
  job_id: number;
  records: number;
  file: string;
}

async function push(current: Running, lines: string[]): Promise<{ deliveries: Delivery[]; texts: string[] }> {
  const answer = await call(current, "POST", `/zones/${ZONE}/sandbox/ingest`, lines.join("\n"));
  expect(answer.status).toBe(200);
  const { deliveries } = (answer.json as { result: { deliveries: Delivery[] } }).result;
  const texts = await Promise.all(
    deliveries.map(async (delivery) =>
      gunzipSync(await readFile(join(current.dataDir, delivery.file))).toString(),
    ),
  );
  return { deliveries, texts };
}

const line = (ray: string, status: number, extra = "") =>
  `{"RayID":"${ray}","EdgeResponseStatus":${status},"EdgeStartTimestamp":1732443300123456789,"ClientRequestUserAgent":"\${jndi:ldap://x}"${extra}}`;

describe("the push applies output_options", () => {
  it("writes the fields in field_names order, with the timestamp format, prefixes, suffixes and the CVE-2021-44228 guard", async () => {
    const current = await start();
    await createJob(current, {
      filter: '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":500}}',
      output_options: {
        field_names: ["EdgeStartTimestamp", "RayID", "ClientRequestUserAgent", "ClientIP"],
        timestamp_format: "rfc3339ms",
        "CVE-2021-44228": true,
        batch_prefix: "[\n",
        batch_suffix: "\n]\n",
        record_prefix: "{",
        record_suffix: "}",
        record_delimiter: ",\n",
        field_delimiter: ",",
      },
    });
    const { deliveries, texts } = await push(current, [line("a", 503), line("b", 200), line("c", 500)]);
    expect(deliveries.map(({ records }) => records)).toEqual([2]);
    expect(texts[0]).toBe(
      "[\n" +
        '{"EdgeStartTimestamp":"2024-11-24T10:15:00.123Z","RayID":"a","ClientRequestUserAgent":"x{jndi:ldap://x}"},\n' +
        '{"EdgeStartTimestamp":"2024-11-24T10:15:00.123Z","RayID":"c","ClientRequestUserAgent":"x{jndi:ldap://x}"}' +
        "\n]\n",
    );
  });

  it("keeps nanosecond timestamps exact, and writes CSV and record templates", async () => {
    const current = await start();
    await createJob(current, {
      output_options: {
        field_names: ["RayID", "EdgeStartTimestamp", "EdgeResponseStatus"],
        timestamp_format: "unixnano",
      },
    });
    await createJob(current, {
      output_options: {
        output_type: "csv",
        field_names: ["RayID", "ClientRequestUserAgent", "EdgeStartTimestamp"],
        timestamp_format: "unix",
      },
    });
    await createJob(current, {
      output_options: {
        field_names: ["RayID", "EdgeResponseStatus"],
        record_template: '{{ .RayID }} {{- "|" -}} {{ .EdgeResponseStatus }}|{{ .ClientIP }}',
        record_prefix: "<",
        record_suffix: ">\n",
      },
    });
    const { texts } = await push(current, [line("a,1", 503, ',"ClientIP":"192.0.2.1"')]);
    expect(texts).toEqual([
      '{"RayID":"a,1","EdgeStartTimestamp":1732443300123456789,"EdgeResponseStatus":503}\n',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the log4j lookup, left as it is without CVE-2021-44228
      '"a,1",${jndi:ldap://x},1732443300\n',
      '<"a,1"|503|null>\n',
    ]);
  });

  it("writes a template's constants as Go reads them: escapes JSON lacks, a raw tab, delimiters in a string", async () => {
    const current = await start();
    await createJob(current, {
      output_options: {
        field_names: ["RayID"],
        record_template: '{{ "\\x41\\a" }}{{ "\t}}" }}{{ .RayID }}{{ `\\x` }}',
        record_prefix: "",
        record_suffix: "\n",
      },
    });
    const { texts } = await push(current, [line("a", 200)]);
    expect(texts).toEqual(['A\x07\t}}"a"\\x\n']);
  });

  it("keeps the old logpull_options form's fields and timestamps when a job has no output_options", async () => {
    const current = await start();
    await createJob(current, { logpull_options: "fields=RayID,EdgeStartTimestamp&timestamps=rfc3339" });
    const { texts } = await push(current, [line("a", 200)]);
    expect(texts).toEqual(['{"RayID":"a","EdgeStartTimestamp":"2024-11-24T10:15:00Z"}\n']);
  });

  it("filters on a timestamp's instant (any offset, before 1970) and writes that instant", async () => {
    const current = await start();
    await createJob(current, {
      filter: '{"where":{"key":"EdgeStartTimestamp","operator":"lt","value":"1732443300000000000"}}',
      output_options: { field_names: ["RayID", "EdgeStartTimestamp"], timestamp_format: "rfc3339ns" },
    });
    const { texts } = await push(current, [
      '{"RayID":"a","EdgeStartTimestamp":"2024-11-24T12:14:59.5+02:00"}',
      '{"RayID":"b","EdgeStartTimestamp":"2024-11-24t12:15:00+02:00"}',
      '{"RayID":"c","EdgeStartTimestamp":"1969-12-31T23:59:59.25Z"}',
      '{"RayID":"d","EdgeStartTimestamp":1732443299999999999}',
    ]);
    expect(texts).toEqual([
      '{"RayID":"a","EdgeStartTimestamp":"2024-11-24T10:14:59.500000000Z"}\n' +
        '{"RayID":"c","EdgeStartTimestamp":"1969-12-31T23:59:59.250000000Z"}\n' +
        '{"RayID":"d","EdgeStartTimestamp":"2024-11-24T10:14:59.999999999Z"}\n',
    ]);
  });

  it("writes every timestamp field of the dataset's catalog in the job's format, whatever its name", async () => {
    const current = await start();
    await createJob(current, {
      dataset: "zaraz_events",
      output_options: { field_names: ["EventType", "TimestampStart"], timestamp_format: "unix" },
    });
    const answer = await call(
      current,
      "POST",
      `/zones/${ZONE}/sandbox/ingest?dataset=zaraz_events`,
      '{"EventType":"track","TimestampStart":1732443300123456789}',
    );
    const [delivery] = (answer.json as { result: { deliveries: Delivery[] } }).result.deliveries;
    expect(gunzipSync(await readFile(join(current.dataDir, delivery!.file))).toString()).toBe(
      '{"EventType":"track","TimestampStart":1732443300}\n',
    );
  });

  it("writes a logpull_options job's fields in its order, unixnano without timestamps=, and its redaction and sample", async () => {
    const current = await start();
    await createJob(current, { logpull_options: "fields=EdgeStartTimestamp,ClientRequestUserAgent,RayID" });
    await createJob(current, {
      logpull_options: "fields=ClientRequestUserAgent,EdgeStartTimestamp&timestamps=unix&CVE-2021-44228=true",
    });
    await createJob(current, { logpull_options: "fields=RayID&sample=0.5" });
    const lines = Array.from({ length: 40 }, (_, i) => line(`r${i}`, 200));
    const { deliveries, texts } = await push(current, lines);
    expect(texts[0]!.split("\n")[0]).toBe(
      `{"EdgeStartTimestamp":1732443300123456789,"ClientRequestUserAgent":"\${jndi:ldap://x}","RayID":"r0"}`,
    );
    expect(texts[1]!.split("\n")[0]).toBe(
      '{"ClientRequestUserAgent":"x{jndi:ldap://x}","EdgeStartTimestamp":1732443300}',
    );
    expect(deliveries.map((d) => d.records)).toEqual([40, 40, deliveries[2]!.records]);
    expect(deliveries[2]!.records).toBeGreaterThan(5);
    expect(deliveries[2]!.records).toBeLessThan(35);
  });

  it("samples after the filter, the same records for the same seed", async () => {
    const lines = Array.from({ length: 400 }, (_, i) => line(`r${i}`, i % 2 ? 500 : 200));
    const kept: string[][] = [];
    for (const seed of [7, 7, 8]) {
      const current = await start(seed);
      await createJob(current, {
        filter: '{"where":{"key":"EdgeResponseStatus","operator":"eq","value":500}}',
        output_options: { field_names: ["RayID"], sample_rate: 0.25 },
      });
      const { texts } = await push(current, lines);
      kept.push(texts[0]!.trimEnd().split("\n"));
      await current.stop();
      running = undefined;
    }
    expect(kept[0]).toEqual(kept[1]);
    expect(kept[0]).not.toEqual(kept[2]);
    // About a quarter of the 200 records the filter keeps.
    expect(kept[0]!.length).toBeGreaterThan(30);
    expect(kept[0]!.length).toBeLessThan(70);
    expect(kept[0]!.every((text) => Number(/r(\d+)/.exec(text)![1]) % 2 === 1)).toBe(true);
  });

  it("cuts a push into files of at most max_upload_records records and max_upload_bytes bytes", async () => {
    const current = await start();
    await createJob(current, { output_options: { field_names: ["RayID"] }, max_upload_records: 1000 });
    await createJob(current, {
      output_options: { field_names: ["RayID", "ClientRequestPath"] },
      max_upload_bytes: 5_000_000,
    });
    const path = "p".repeat(2000);
    const lines = Array.from(
      { length: 2500 },
      (_, i) => `{"RayID":"${String(i).padStart(4, "0")}","ClientRequestPath":"${path}"}`,
    );
    const { deliveries, texts } = await push(current, lines);
    // Each record of the second job is {"RayID":"0000","ClientRequestPath":"pp…"}\n: 2,040 bytes; 2,450 fit in 5 MB.
    expect(deliveries.map(({ job_id, records }) => [job_id, records])).toEqual([
      [1, 1000],
      [1, 1000],
      [1, 500],
      [2, 2450],
      [2, 50],
    ]);
    expect(texts.slice(0, 3).join("")).toBe(
      lines.map((_, i) => `{"RayID":"${String(i).padStart(4, "0")}"}\n`).join(""),
    );
    expect(Buffer.byteLength(texts[3]!)).toBe(2450 * 2040);
    expect(new Set(deliveries.map(({ file }) => file)).size).toBe(5);
  });
});

describe("scopes", () => {
  const ACCOUNT = "9a7806061c88ada191ed06f989cc3dac";
  const ACCOUNT_DESTINATION = "s3://gateway-bucket/logs?region=us-east-1";

  it("serves every job route under an account, refuses a dataset of the other scope, and pushes account datasets", async () => {
    const current = await start();
    const challenge = await call(current, "POST", `/accounts/${ACCOUNT}/logpush/ownership`, {
      destination_conf: ACCOUNT_DESTINATION,
    });
    const filename = (challenge.json as { result: { filename: string } }).result.filename;
    const ownership_challenge = await readFile(join(current.dataDir, filename), "utf8");
    const wrong = await call(current, "POST", `/accounts/${ACCOUNT}/logpush/jobs`, {
      destination_conf: ACCOUNT_DESTINATION,
      ownership_challenge,
    });
    expect(wrong.status).toBe(400);
    expect((wrong.json as { errors: { message: string }[] }).errors[0]!.message).toContain(
      "the dataset `http_requests` has no account-level jobs",
    );
    const zoneGateway = await call(current, "POST", `/zones/${ZONE}/logpush/jobs`, {
      dataset: "gateway_http",
      destination_conf: ACCOUNT_DESTINATION,
    });
    expect(zoneGateway.status).toBe(400);
    const created = await call(current, "POST", `/accounts/${ACCOUNT}/logpush/jobs`, {
      dataset: "gateway_http",
      destination_conf: ACCOUNT_DESTINATION,
      ownership_challenge,
      enabled: true,
      filter: '{"where":{"key":"Action","operator":"eq","value":"block"}}',
      output_options: { field_names: ["Action", "Datetime"], timestamp_format: "unix" },
    });
    expect(created.status).toBe(200);
    const id = (created.json as { result: Job }).result.id;
    expect((await call(current, "GET", `/accounts/${ACCOUNT}/logpush/jobs/${id}`)).status).toBe(200);
    expect((await call(current, "GET", `/zones/${ZONE}/logpush/jobs/${id}`)).status).toBe(404);
    const pushed = await call(
      current,
      "POST",
      `/accounts/${ACCOUNT}/sandbox/ingest?dataset=gateway_http`,
      '{"Action":"block","Datetime":"2026-11-24T10:15:00Z"}\n{"Action":"allow"}',
    );
    const [delivery] = (pushed.json as { result: { deliveries: Delivery[] } }).result.deliveries;
    expect(gunzipSync(await readFile(join(current.dataDir, delivery!.file))).toString()).toBe(
      '{"Action":"block","Datetime":1795515300}\n',
    );
    const exists = await call(current, "POST", `/accounts/${ACCOUNT}/logpush/validate/destination/exists`, {
      destination_conf: ACCOUNT_DESTINATION,
    });
    expect(exists.json).toMatchObject({ result: { exists: true } });
    expect((await call(current, "DELETE", `/accounts/${ACCOUNT}/logpush/jobs/${id}`)).status).toBe(200);
  });
});
