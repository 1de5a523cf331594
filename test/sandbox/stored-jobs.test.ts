import type { ChildProcess } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Job } from "../../src/sandbox/model.js";
import { ensureBundles } from "../helpers/bundles.js";
import { call, runSandbox, spawnSandbox, storedJob, TOKEN, tempDir, ZONE } from "./helpers.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

/**
 * Jobs saved with settings the push cannot apply (written by hand, or by an older sandbox whose
 * checks let them through): each fails alone, never the process, never the other jobs.
 */

const job = (id: number, extra: Partial<Job> = {}): Job =>
  storedJob(id, {
    enabled: true,
    destination_conf: `s3://stored-bucket/job-${id}?region=us-east-1`,
    output_options: { field_names: ["RayID"] },
    ...extra,
  });

/** Templates an older check let through, which the push's JSON.parse threw on. */
const badTemplate = job(1, { output_options: { field_names: ["RayID"], record_template: '{{ "\\q" }}' } });
const badFilter = job(2, { filter: '{"where":{"key":"Nope","operator":"eq","value":1}}' });
const good = job(3);
const badDestination = job(4, { destination_conf: "ftp://stored-bucket/x" });

let dataDir: string;
beforeEach(async () => {
  dataDir = await tempDir();
  await mkdir(join(dataDir, "_sandbox", "zones"), { recursive: true });
  await writeFile(
    join(dataDir, "_sandbox", "zones", `${ZONE}.json`),
    JSON.stringify({
      rulesets: [],
      jobs: [badTemplate, badFilter, good, badDestination],
      lastJobId: 4,
      challenges: {},
    }),
  );
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const records = '{"RayID":"a"}\n{"RayID":"b"}\n';
const filterProblem = "bad predicate: /where/key: unknown field `Nope` in dataset http_requests";

describe("a saved job the push cannot apply", () => {
  it("starts with a warning for each, and fails each alone while the others deliver", async () => {
    const logged: string[] = [];
    const running = await runSandbox({ dataDir, log: (line) => logged.push(line) });
    try {
      const warning = (id: number, problem: string) =>
        `filterc sandbox: warning: job ${id} in ${join(dataDir, "_sandbox", "zones", ZONE, "jobs", `${id}.json`)} cannot be pushed: ${problem}; it fails alone at each push until it is changed`;
      const templateProblem =
        'invalid record_template: "{{ \\"\\\\q\\" }}" at offset 0 holds a string Go cannot write: \\q is not an escape of a Go string';
      const savedTemplateProblem = `output_options.record_template: ${templateProblem}; a template holds text and actions {{ .Field }} or {{ "text" }} only`;
      expect(logged).toEqual([
        warning(1, savedTemplateProblem),
        warning(2, filterProblem),
        warning(
          4,
          'destination_conf "ftp://stored-bucket/x" is not supported by the sandbox: it delivers to s3://bucket/path?region=REGION',
        ),
      ]);
      for (let round = 0; round < 2; round++) {
        const answer = await call(running, "POST", `/zones/${ZONE}/sandbox/ingest`, records);
        expect(answer).toEqual({
          status: 200,
          json: {
            result: {
              records: 2,
              malformed: 0,
              malformed_lines: [],
              deliveries: [{ job_id: 3, records: 2, file: expect.stringMatching(/^stored-bucket\/job-3\//) }],
              failures: [
                { job_id: 1, message: savedTemplateProblem },
                { job_id: 2, message: filterProblem },
                {
                  job_id: 4,
                  message:
                    'destination_conf "ftp://stored-bucket/x" is not supported by the sandbox: it delivers to s3://bucket/path?region=REGION',
                },
              ],
            },
            success: true,
            errors: [],
            messages: [],
          },
        });
        const file = (answer.json as { result: { deliveries: { file: string }[] } }).result.deliveries[0]!
          .file;
        expect(gunzipSync(await readFile(join(dataDir, file))).toString()).toBe(records);
      }
      const saved = await call(running, "GET", `/zones/${ZONE}/logpush/jobs/1`);
      expect((saved.json as { result: Job }).result).toMatchObject({
        error_message: savedTemplateProblem,
        last_error: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        last_complete: null,
      });
      expect((await call(running, "GET", `/zones/${ZONE}/logpush/jobs/3`)).json).toMatchObject({
        result: { error_message: null, last_complete: expect.stringMatching(/^\d{4}-/), last_error: null },
      });
      // The destination check of the scope passes over the job whose destination no longer reads.
      expect(
        await call(running, "POST", `/zones/${ZONE}/logpush/validate/destination/exists`, {
          destination_conf: "s3://stored-bucket/job-3?region=us-east-1",
        }),
      ).toMatchObject({ status: 200, json: { result: { exists: true } } });
      // A job fixed with a PUT delivers again.
      const fixed = await call(running, "PUT", `/zones/${ZONE}/logpush/jobs/1`, {
        output_options: { field_names: ["RayID"], record_template: '{{ "\\x41" }}{{ .RayID }}' },
      });
      expect(fixed.status).toBe(200);
      const again = await call(running, "POST", `/zones/${ZONE}/sandbox/ingest`, records);
      expect(
        (again.json as { result: { deliveries: { job_id: number }[] } }).result.deliveries.map(
          (delivery) => delivery.job_id,
        ),
      ).toEqual([1, 3]);
    } finally {
      await running.stop();
    }
  });

  it("fails alone when its destination folder cannot be written", async () => {
    const running = await runSandbox({ dataDir });
    try {
      await writeFile(join(dataDir, "stored-bucket"), "a file where the bucket's folder goes");
      const answer = await call(running, "POST", `/zones/${ZONE}/sandbox/ingest`, records);
      expect(answer.json).toMatchObject({
        result: {
          deliveries: [],
          failures: expect.arrayContaining([
            { job_id: 3, message: "the push could not write to the destination folder (ENOTDIR)" },
          ]),
        },
      });
    } finally {
      await running.stop();
    }
  });

  it("pushes past a saved custom fields rule whose lists are no lists of names", async () => {
    const file = join(dataDir, "_sandbox", "zones", `${ZONE}.json`);
    const zone = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    zone["rulesets"] = [
      {
        id: "c".repeat(32),
        name: "custom fields",
        description: "",
        kind: "zone",
        phase: "http_log_custom_fields",
        version: "1",
        last_updated: "2026-11-24T10:15:00.000000Z",
        rules: [
          {
            id: "d".repeat(32),
            version: "1",
            action: "log_custom_field",
            expression: "true",
            enabled: true,
            last_updated: "2026-11-24T10:15:00.000000Z",
            ref: "r",
            action_parameters: { request_fields: "x-not-a-list", cookie_fields: [null, { name: "kept" }] },
          },
        ],
      },
    ];
    zone["jobs"] = [job(3, { output_options: { field_names: ["RayID", "Cookies"] } })];
    await writeFile(file, JSON.stringify(zone));
    const running = await runSandbox({ dataDir });
    try {
      const answer = await call(
        running,
        "POST",
        `/zones/${ZONE}/sandbox/ingest`,
        '{"RayID":"a","Cookies":{"kept":"1","other":"2"}}\n',
      );
      expect(answer.json).toMatchObject({ result: { records: 1, failures: [] } });
      const file3 = (answer.json as { result: { deliveries: { file: string }[] } }).result.deliveries[0]!
        .file;
      expect(gunzipSync(await readFile(join(dataDir, file3))).toString()).toBe(
        '{"RayID":"a","Cookies":{"kept":"1"}}\n',
      );
    } finally {
      await running.stop();
    }
  });

  it("fails a job alone when its prefixes make more of a push than maxIngestInflatedBytes (output is bounded too)", async () => {
    const file = join(dataDir, "_sandbox", "zones", `${ZONE}.json`);
    const zone = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    zone["jobs"] = [
      job(3),
      job(5, { output_options: { field_names: ["RayID"], record_prefix: `{"pad":"${"p".repeat(600)}",` } }),
    ];
    await writeFile(file, JSON.stringify({ ...zone, lastJobId: 5 }));
    const running = await runSandbox({ dataDir, maxIngestInflatedBytes: 1000 });
    try {
      const answer = await call(running, "POST", `/zones/${ZONE}/sandbox/ingest`, records);
      expect(answer.json).toMatchObject({
        result: {
          deliveries: [{ job_id: 3, records: 2 }],
          failures: [
            {
              job_id: 5,
              message:
                "the job's records came to more than 1000 bytes in one push (its prefixes and template make more of a record than came in); the push stopped there",
            },
          ],
        },
      });
    } finally {
      await running.stop();
    }
  });

  it("never ends the filterc sandbox process (its push once threw, and the error path with it, at every ingest)", async () => {
    let child: ChildProcess | undefined;
    try {
      let api: string;
      ({ child, api } = await spawnSandbox(dataDir));
      let stderr = "";
      child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      for (let round = 0; round < 3; round++) {
        const response = await fetch(`${api}/zones/${ZONE}/sandbox/ingest`, {
          method: "POST",
          headers: { authorization: `Bearer ${TOKEN}` },
          body: records,
        });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
      }
      expect(child.exitCode).toBe(null);
      expect(stderr).not.toContain("TypeError");
    } finally {
      child?.kill("SIGKILL");
    }
  });
});
