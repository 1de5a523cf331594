import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { useTestApi } from "./harness.js";
import { success } from "./server.js";

// jobs pull and jobs diff on what a hostile or broken service sends: every value of a job becomes
// a file's name, its content or a comparison.

const api = useTestApi();

const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";
const LIST = `GET /zones/${ZONE}/logpush/jobs`;
const NOTE =
  "# pulled by filterc jobs pull; filterc jobs diff compares the filter by meaning, each setting exactly\n";
/** The setting lines of a job(), after its name's; the destination's credentials masked. */
const SETTINGS = [
  'destination_conf: "s3://bucket/logs?region=us-west-2&access-key-id=****&secret-access-key=****"',
  "enabled: true",
  ...["frequency", "kind", "logpull_options", "output_options", "max_upload_bytes", "max_upload_records"].map(
    (key) => `${key}: null`,
  ),
  "max_upload_interval_seconds: null",
  "filter_attack_traffic: null",
]
  .map((line) => `# setting ${line}\n`)
  .join("");
const FILTER = '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":"500"}}';
const job = (id: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  name: `job ${String(id)}`,
  dataset: "http_requests",
  destination_conf: "s3://bucket/logs?region=us-west-2&access-key-id=AKID123456&secret-access-key=S3cr3tKey0",
  enabled: true,
  filter: FILTER,
  ...extra,
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "filterc-live-jobs-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const jobs = (...args: string[]) =>
  runCli(["jobs", ...args, "--zone", ZONE, "--dir", dir], "", {
    CLOUDFLARE_API_TOKEN: "live-jobs-token",
    CLOUDFLARE_BASE_URL: api.baseUrl,
  });
const files = () => readdirSync(dir).sort();
const read = (file: string) => readFileSync(join(dir, file), "utf8");

describe("jobs pull and jobs diff on what the service sends", () => {
  it("reports a job whose filter is not a string, and still writes and compares the others", async () => {
    api.on(
      LIST,
      success([
        job(1, { filter: 5 }),
        job(2, { filter: {} }),
        job(3, { filter: [1] }),
        job(4),
        job(5, { filter: true }),
      ]),
    );
    expect(await jobs("pull")).toEqual({
      code: 1,
      stdout: "wrote job-4-job-4.lpf\n",
      stderr:
        'filterc jobs pull: job 1 "job 1" was not written: its filter is the number 5, not Logpush filter JSON in a string\n' +
        'filterc jobs pull: job 2 "job 2" was not written: its filter is an object, not Logpush filter JSON in a string\n' +
        'filterc jobs pull: job 3 "job 3" was not written: its filter is a list, not Logpush filter JSON in a string\n' +
        'filterc jobs pull: job 5 "job 5" was not written: its filter is the value true, not Logpush filter JSON in a string\n',
    });
    expect(files()).toEqual(["job-4-job-4.lpf"]);
    const diff = await jobs("diff", "--json");
    expect(diff.code).toBe(1);
    expect(JSON.parse(diff.stdout)).toEqual({
      changes: [],
      same: [4],
      errors: [1, 2, 3, 5].map((id) => ({
        file: `job ${id} "job ${id}"`,
        message: expect.stringMatching(/^its filter is .*, not Logpush filter JSON in a string$/),
      })),
    });
    expect(await jobs("pull", "--json")).toMatchObject({
      code: 1,
      stdout: '{"written":["job-4-job-4.lpf"],"failed":[1,2,3,5]}\n',
    });
  });

  it("writes no dataset raw into a header: a line break would add filter text, ESC and BEL land in the file", async () => {
    api.on(
      LIST,
      success([
        job(1, { dataset: "http_requests)\nEdgeResponseStatus eq 200\n#" }),
        job(2, { dataset: "http_requests\u001b]0;owned\u0007" }),
        job(3, { dataset: 7 }),
        job(4, { dataset: null }),
      ]),
    );
    const pulled = await jobs("pull");
    expect(pulled).toEqual({
      code: 1,
      stdout: "wrote job-4-job-4.lpf\n",
      stderr:
        'filterc jobs pull: job 1 "job 1" was not written: its dataset "http_requests)\\nEdgeResponseStatus eq 200\\n#" is not the name of a dataset\n' +
        'filterc jobs pull: job 2 "job 2" was not written: its dataset "http_requests\\u001b]0;owned\\u0007" is not the name of a dataset\n' +
        'filterc jobs pull: job 3 "job 3" was not written: its dataset 7 is not the name of a dataset\n',
    });
    // A job without a dataset is of the service's default one.
    expect(read("job-4-job-4.lpf")).toBe(
      `# Logpush job 4 "job 4" (dataset http_requests)\n${NOTE}# dataset: http_requests\n# setting name: "job 4"\n${SETTINGS}EdgeResponseStatus geq 500\n`,
    );
  });

  it("keeps a hostile name on the header's one line, every hidden character escaped, and cut short", async () => {
    const name = "a\nEdgeResponseStatus eq 200 b\r\u001b[2J\u0007\u202ecba\u2028\u0085\ud800 \u200b";
    api.on(LIST, success([job(1, { name }), job(2, { name: "n".repeat(1_000_000) })]));
    const pulled = await jobs("pull");
    expect(pulled).toEqual({
      code: 0,
      stdout:
        "wrote job-1-a-edgeresponsestatus-eq-200-b-2j-cba.lpf\nwrote job-2-nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn.lpf\n",
      // A setting too long for a file to hold is left out, and said: the file must stay readable.
      stderr: `note: job 2 "${"n".repeat(200)}…": its name is 1000002 characters as JSON, more than a pulled file holds (10000); not written, so not compared\n`,
    });
    expect(read("job-1-a-edgeresponsestatus-eq-200-b-2j-cba.lpf")).toBe(
      '# Logpush job 1 "a\\nEdgeResponseStatus eq 200 b\\r\\u001b[2J\\u0007\\u202ecba\\u2028\\u0085\\ud800 \\u200b" (dataset http_requests)\n' +
        `${NOTE}# dataset: http_requests\n` +
        '# setting name: "a\\nEdgeResponseStatus eq 200 b\\r\\u001b[2J\\u0007\\u202ecba\\u2028\\u0085\\ud800 \\u200b"\n' +
        `${SETTINGS}EdgeResponseStatus geq 500\n`,
    );
    expect(read(files()[1]!)).toBe(
      `# Logpush job 2 "${"n".repeat(200)}…" (dataset http_requests)\n${NOTE}# dataset: http_requests\n${SETTINGS}EdgeResponseStatus geq 500\n`,
    );
    // Both read back, the long name too (once a file too large for jobs diff, which then stopped).
    expect(await jobs("diff")).toEqual({ code: 0, stdout: "0 jobs changed, 2 the same\n", stderr: "" });
  });

  it("writes neither of two jobs with one id, nor a job whose id is no job ID", async () => {
    api.on(
      LIST,
      success([job(7, { name: "first" }), job("7", { name: "second" }), job("007"), job("../1"), job(8)]),
    );
    const pulled = await jobs("pull");
    expect(pulled).toEqual({
      code: 1,
      stdout: "wrote job-8-job-8.lpf\n",
      stderr:
        'filterc jobs pull: job 7 "first" was not written: the service lists 2 jobs with this id: which one is live cannot be told\n' +
        'filterc jobs pull: job 7 "second" was not written: the service lists 2 jobs with this id: which one is live cannot be told\n' +
        'filterc jobs pull: job with the id "007" was not written: its id is not a job ID (a positive whole number)\n' +
        'filterc jobs pull: job with the id "../1" was not written: its id is not a job ID (a positive whole number)\n',
    });
    expect(files()).toEqual(["job-8-job-8.lpf"]);
    // A file of job 7 from before is not compared with either of them.
    writeFileSync(
      join(dir, "job-7-first.lpf"),
      `# Logpush job 7 "first" (dataset http_requests)\nEdgeResponseStatus geq 500\n`,
    );
    const diff = await jobs("diff");
    expect(diff).toEqual({
      code: 1,
      stdout: "0 jobs changed, 1 the same\n",
      stderr:
        'filterc jobs diff: job 7 "first": the service lists 2 jobs with this id: which one is live cannot be told\n' +
        'filterc jobs diff: job 7 "second": the service lists 2 jobs with this id: which one is live cannot be told\n' +
        'filterc jobs diff: job with the id "007": its id is not a job ID (a positive whole number)\n' +
        'filterc jobs diff: job with the id "../1": its id is not a job ID (a positive whole number)\n',
    });
  });

  it("reads a live filter as the service stores it: JSON, with the job's own dataset", async () => {
    api.on(
      LIST,
      success([
        // Filter source is not what the service stores: pull and diff alike refuse it.
        job(1, { filter: "EdgeResponseStatus geq 500" }),
        // A job record naming another dataset: read with the job's dataset, where QueryName is unknown.
        job(2, {
          filter: JSON.stringify({
            dataset: "dns_logs",
            filter: '{"where":{"key":"QueryName","operator":"eq","value":"a"}}',
          }),
        }),
        job(3),
      ]),
    );
    const pulled = await jobs("pull");
    expect(pulled.code).toBe(1);
    expect(pulled.stdout).toBe("wrote job-3-job-3.lpf\n");
    expect(pulled.stderr).toContain(
      'filterc jobs pull: job 1 "job 1" was not written: its filter has errors\n',
    );
    expect(pulled.stderr).toContain(
      'filterc jobs pull: job 2 "job 2" was not written: its filter has errors\n',
    );
    for (const id of [1, 2])
      writeFileSync(
        join(dir, `job-${id}.lpf`),
        `# Logpush job ${id} (dataset http_requests)\nEdgeResponseStatus geq 500\n`,
      );
    const diff = await jobs("diff", "--json");
    expect(diff.code).toBe(1);
    expect(JSON.parse(diff.stdout)).toEqual({
      changes: [],
      same: [3],
      errors: [
        { file: "job 1 (live filter)", message: "the live filter has errors" },
        { file: "job 2 (live filter)", message: "the live filter has errors" },
      ],
    });
  });

  it("reports a file it cannot compare and still compares the others", async () => {
    api.on(LIST, success([job(1), job(2), job(3)]));
    expect((await jobs("pull")).code).toBe(0);
    writeFileSync(join(dir, "huge.lpf"), `# Logpush job 9 (dataset http_requests)\n${"#".repeat(400_000)}\n`);
    writeFileSync(join(dir, "latin1.lpf"), Buffer.from([0x23, 0x20, 0xe9, 0x0a]));
    // A second file naming job 2 (its name changed since the pull?): which one holds the job is unknown.
    writeFileSync(join(dir, "job-2-renamed.lpf"), read("job-2-job-2.lpf"));
    const diff = await jobs("diff");
    expect(diff).toEqual({
      code: 1,
      stdout: "0 jobs changed, 2 the same\n",
      stderr:
        `filterc jobs diff: huge.lpf: not compared: ${join(dir, "huge.lpf")} is larger than 300003 bytes, longer than any filter or filter JSON can be; not read\n` +
        "filterc jobs diff: latin1.lpf: not compared: latin1.lpf is not valid UTF-8: byte 2 (0xE9) is not; save it as UTF-8\n" +
        "filterc jobs diff: job-2-job-2.lpf: 2 files name job 2; which one holds the job cannot be told (remove the stale ones)\n" +
        "filterc jobs diff: job-2-renamed.lpf: 2 files name job 2; which one holds the job cannot be told (remove the stale ones)\n",
    });
  });

  it("shows a record of a live filter's hidden characters escaped, in --json too", async () => {
    const path = (value: string) =>
      JSON.stringify({ where: { key: "ClientRequestPath", operator: "eq", value } });
    api.on(LIST, success([job(1, { filter: path("/x") })]));
    expect((await jobs("pull")).code).toBe(0);
    api.on(LIST, success([job(1, { filter: path("/a\u202eb") })]));
    const diff = await jobs("diff");
    expect([diff.code, diff.stdout.split("\n")[1]]).toEqual([
      2,
      '  only the live job keeps: {"ClientRequestPath":"/a<U+202E>b"}',
    ]);
    const json = await jobs("diff", "--json");
    expect(json.stdout).toBe(
      '{"changes":[{"id":1,"name":"job 1","file":"job-1-job-1.lpf","status":"changed","relation":"disjoint","settings":[],"onlyFile":{"ClientRequestPath":"/x"},"onlyLive":{"ClientRequestPath":"/a\\u202eb"}}],"same":[],"errors":[]}\n',
    );
  });

  it("writes no destination into a pulled file, and diff prints none", async () => {
    api.on(LIST, success([job(1)]));
    await jobs("pull");
    expect(read("job-1-job-1.lpf")).not.toContain("S3cr3tKey0");
    expect(read("job-1-job-1.lpf")).not.toContain("AKID123456");
    api.on(LIST, success([job(1, { filter: "" })]));
    const diff = await jobs("diff", "--json");
    expect(diff.stdout + diff.stderr).not.toContain("S3cr3tKey0");
  });
});
