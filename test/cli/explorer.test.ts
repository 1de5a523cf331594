/**
 * `filterc explorer` against a real sandbox: the filter a person writes reaches the dataset as
 * exactly the JSON `filterc compile` gives (and reads back byte for byte), nothing else of the
 * dataset changes, nothing is sent for a filter with errors or one the dataset already has, and
 * `explorer diff` tells drift by meaning with terraform's exit codes.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type Cloudflare from "cloudflare";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { compile } from "../../src/compile.js";
import { runCli } from "../helpers/cli.js";
import { type Running, runSandbox, sdk, TOKEN, ZONE } from "../sandbox/helpers.js";

const ACCOUNT = "01a7362d577a6c3019a474fd6f485823";
const SOURCE =
  '# dataset: http_requests\nEdgeResponseStatus geq 500\n  and not ClientRequestPath startsWith "/health"\n';

let running: Running;
let client: Cloudflare;
let env: Record<string, string>;
let dir: string;
let id: string;
let fields: { name: string; enabled: boolean }[];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "filterc-explorer-"));
  await writeFile(join(dir, "errors.lpf"), SOURCE);
  await writeFile(join(dir, "broken.lpf"), 'ClientCountry neq "ca"\n');
  await writeFile(
    join(dir, "other.lpf"),
    'EdgeResponseStatus geq 400 and ClientRequestPath startsWith "/api"\n',
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));
beforeEach(async () => {
  running = await runSandbox();
  client = sdk(running);
  env = { CLOUDFLARE_BASE_URL: running.api, CLOUDFLARE_API_TOKEN: TOKEN };
  fields = [
    { name: "rayid", enabled: true },
    { name: "clientip", enabled: false },
  ];
  ({ dataset_id: id } = await client.logs.logExplorer.datasets.create({
    zone_id: ZONE,
    dataset: "http_requests",
    fields,
  }));
});
afterEach(() => running.stop());

const explorer = (...args: string[]) => runCli(["explorer", ...args], "", env, false, dir);
const file = (name: string) => join(dir, name);
const live = () => client.logs.logExplorer.datasets.get(id, { zone_id: ZONE });

describe("filterc explorer set, get and clear", () => {
  it("sets the compiled filter, byte for byte, and changes nothing else of the dataset", async () => {
    const compiled = compile(SOURCE).filter!;
    const before = await live();
    const set = await explorer(
      "set",
      "--zone",
      ZONE,
      "--dataset",
      "http_requests",
      "--filter",
      file("errors.lpf"),
    );
    expect(set.stderr).toBe("");
    expect(set.stdout).toBe(
      `updated the ingestion filter of http_requests (id ${id}, zone ${ZONE})\n  before: none (every event is ingested)\n  after:  EdgeResponseStatus geq 500 and ClientRequestPath !startsWith "/health"\n`,
    );
    expect(set.code).toBe(0);
    const after = await live();
    expect(after.filter).toBe(compiled);
    expect(after.fields).toEqual(fields);
    expect(after.enabled).toBe(before.enabled);
    // What get --json reads back is the filter as sent, byte for byte.
    const got = await explorer("get", "--zone", ZONE, "--id", id, "--json");
    expect(JSON.parse(got.stdout).filter).toBe(compiled);
    const shown = await explorer("get", "--zone", ZONE, "--dataset", "http_requests");
    expect(shown.stdout).toBe(
      `http_requests (id ${id}, zone ${ZONE}): ingest enabled, 1 of 2 fields\nfilter: EdgeResponseStatus geq 500 and ClientRequestPath !startsWith "/health"\n`,
    );
    // The same filter given as its JSON goes as the same bytes, and changes nothing.
    await writeFile(file("errors.json"), compiled);
    const again = await explorer(
      "set",
      "--zone",
      ZONE,
      "--dataset",
      "http_requests",
      "--filter",
      file("errors.json"),
    );
    expect(again.stdout).toBe(
      `http_requests (id ${id}, zone ${ZONE}) unchanged: it already has this filter\n`,
    );
    expect(again.stderr).toBe("note: nothing to change: the dataset already has this filter\n");
    expect((await live()).updated_at).toBe(after.updated_at);
  });

  it("sends nothing for a filter with errors, and says where they are", async () => {
    const before = await live();
    const set = await explorer(
      "set",
      "--zone",
      ZONE,
      "--dataset",
      "http_requests",
      "--filter",
      file("broken.lpf"),
    );
    expect(set.code).toBe(1);
    expect(set.stderr).toContain("error[E0205]");
    expect(set.stderr).toContain("error[E0616]: filter: the filter has 1 error");
    expect(set.stderr).toContain("filterc explorer set: set Log Explorer filter: nothing was sent\n");
    expect(await live()).toEqual(before);
    // The dataset's type is the catalog: a field of another dataset is an error at its place.
    const other = await explorer(
      "set",
      "--zone",
      ZONE,
      "--dataset",
      "http_requests",
      "--expr",
      'Action eq "block"',
    );
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("error[E0201]");
  });

  it("shows the PUT a dry run would send: the filter with the dataset's own enabled and fields", async () => {
    const plan = await explorer(
      "set",
      "--zone",
      ZONE,
      "--id",
      id,
      "--expr",
      "BotScore lt 30",
      "--dry-run",
      "--json",
    );
    expect(plan.code).toBe(0);
    const { requests } = JSON.parse(plan.stdout);
    expect(requests.map((r: { method: string; sent: boolean }) => [r.method, r.sent])).toEqual([
      ["GET", true],
      ["PUT", false],
    ]);
    expect(JSON.parse(requests[1].body)).toEqual({
      enabled: true,
      fields,
      filter: '{"where":{"key":"BotScore","operator":"lt","value":"30"}}',
    });
    expect(requests[1].headers.Authorization).toBe("Bearer ****");
    expect(plan.stdout).not.toContain(TOKEN);
    expect(await live()).not.toHaveProperty("filter");
  });

  it("clears the filter", async () => {
    await explorer("set", "--zone", ZONE, "--id", id, "--expr", "BotScore lt 30");
    const cleared = await explorer("clear", "--zone", ZONE, "--id", id);
    expect(cleared.stdout).toBe(
      `updated the ingestion filter of http_requests (id ${id}, zone ${ZONE})\n  before: BotScore lt 30\n  after:  none (every event is ingested)\n`,
    );
    expect(await live()).not.toHaveProperty("filter");
    expect((await live()).fields).toEqual(fields);
  });

  it("lists a zone's and an account's datasets", async () => {
    const account = await client.logs.logExplorer.datasets.create({
      account_id: ACCOUNT,
      dataset: "gateway_http",
    });
    expect((await explorer("list", "--zone", ZONE)).stdout).toBe(
      `http_requests (id ${id}, zone ${ZONE}): ingest enabled\n`,
    );
    const listed = await explorer("list", "--account", ACCOUNT, "--json");
    expect(JSON.parse(listed.stdout).map((d: { dataset_id: string }) => d.dataset_id)).toEqual([
      account.dataset_id,
    ]);
    const set = await explorer(
      "set",
      "--account",
      ACCOUNT,
      "--dataset",
      "gateway_http",
      "--expr",
      'Action eq "block"',
    );
    expect(set.code).toBe(0);
    expect(
      (await client.logs.logExplorer.datasets.get(account.dataset_id, { account_id: ACCOUNT })).filter,
    ).toBe('{"where":{"key":"Action","operator":"eq","value":"block"}}');
  });

  it("names the datasets there are when the one asked for is not", async () => {
    const missing = await explorer("get", "--zone", ZONE, "--dataset", "firewall_events");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(
      `error[E0650]: dataset: the zone ${ZONE} has no Log Explorer dataset of type \`firewall_events\`; it has \`http_requests\``,
    );
    const unknownId = await explorer("get", "--zone", ZONE, "--id", "0123abcd");
    expect(unknownId.code).toBe(1);
    expect(unknownId.stderr).toContain("HTTP 404");
    const badId = await explorer("get", "--zone", ZONE, "--id", "../jobs");
    expect(badId.code).toBe(1);
    expect(badId.stderr).toContain("error[E0617]");
  });

  it("refuses unclear calls as usage errors", async () => {
    expect((await explorer("get", "--zone", ZONE)).stderr).toContain("needs --dataset NAME or --id ID");
    expect((await explorer("get", "--zone", ZONE, "--id", id, "--dry-run")).code).toBe(2);
    expect((await explorer("set", "--zone", ZONE, "--id", id)).stderr).toContain(
      "needs --filter FILE or --expr SRC",
    );
    expect((await explorer("list", "--zone", ZONE, "--expr", "x")).stderr).toContain(
      "explorer list takes no --expr",
    );
    expect((await explorer("get", "--zone", ZONE, "--dataset", "http_request")).stderr).toContain(
      'unknown dataset "http_request"',
    );
    expect((await explorer("pull", "--zone", ZONE)).code).toBe(2);
  });
});

describe("filterc explorer diff", () => {
  it("exits 0 when the live filter keeps the same records, 2 with a record only one side keeps", async () => {
    await explorer("set", "--zone", ZONE, "--id", id, "--filter", file("errors.lpf"));
    // The same meaning written otherwise is no drift.
    const same = await explorer(
      "diff",
      "--zone",
      ZONE,
      "--id",
      id,
      "--expr",
      'not (EdgeResponseStatus lt 500 or ClientRequestPath startsWith "/health")',
    );
    expect(same.stdout).toBe(
      `same     http_requests (id ${id}, zone ${ZONE}): the live filter keeps the records <--expr> keeps\n`,
    );
    expect(same.code).toBe(0);
    const changed = await explorer(
      "diff",
      "--zone",
      ZONE,
      "--dataset",
      "http_requests",
      "--filter",
      file("other.lpf"),
    );
    expect(changed.code).toBe(2);
    expect(changed.stdout).toMatch(/^changed {2}http_requests .*: the live filter keeps other records\n/);
    expect(changed.stdout).toContain("  only the live filter keeps: ");
    expect(changed.stdout).toContain("  only the file keeps: ");
    const json = await explorer("diff", "--zone", ZONE, "--id", id, "--filter", file("other.lpf"), "--json");
    expect(JSON.parse(json.stdout)).toMatchObject({ dataset_id: id, relation: "overlap" });
  });

  it("exits 1 when the local filter has errors", async () => {
    const broken = await explorer("diff", "--zone", ZONE, "--id", id, "--filter", file("broken.lpf"));
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain("error[E0205]");
  });
});
