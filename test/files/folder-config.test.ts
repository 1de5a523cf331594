import { mkdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import Ajv from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { datasetNames } from "../../src/catalog/index.js";
import {
  ConfigError,
  ConfigLookup,
  MAX_CONFIG_FILE_BYTES,
  MAX_CONFIG_FOLDERS,
  readConfig,
} from "../../src/files/index.js";
import { temporaryFolder } from "../helpers/folders.js";

const folder = temporaryFolder("filterc-config-");

/** What readConfig says of a text: the settings, or each problem at its place. */
function read(text: string): object | string[] {
  try {
    return readConfig(text, "filterc.json");
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
}

describe("reading a filterc.json", () => {
  it("takes the dataset, the limits and $schema, each of its type", () => {
    expect(read('{"dataset": "gateway_http", "maxOperators": 20, "maxBytes": 800}')).toEqual({
      dataset: "gateway_http",
      maxOperators: 20,
      maxBytes: 800,
    });
    expect(read('\uFEFF{"$schema": "./node_modules/filterc/schemas/filterc.schema.json"}\n')).toEqual({});
    expect(read("{}")).toEqual({});
  });

  it("takes sample logs as a glob inside its own folder", () => {
    expect(read('{"samples": "logs/**/*.ndjson.gz"}')).toEqual({ samples: "logs/**/*.ndjson.gz" });
    const like = 'samples must be a glob of log files inside this folder, like "logs/*.ndjson"';
    expect(read('{"samples": 3}')).toEqual([`filterc.json:1:13: ${like}, not 3`]);
    expect(read('{"samples": ""}')).toEqual([`filterc.json:1:13: ${like}, not an empty string`]);
    for (const outside of [
      "/var/log/*.ndjson",
      "../logs/*",
      "logs/../../x",
      "~/logs/*",
      "C:\\logs\\*",
      "a\\..\\b",
    ])
      expect(read(JSON.stringify({ samples: outside }))).toEqual([
        `filterc.json:1:12: ${like}: ${JSON.stringify(outside)} reaches outside the folder of filterc.json`,
      ]);
  });

  it("names every problem at its line and column, with the fix where one is near", () => {
    const text = [
      "{",
      '  "datset": "gateway_http",',
      '  "dataset": "gatway_http",',
      '  "maxOperators": "30",',
      '  "maxBytes": 0,',
      '  "maxBytes": 900',
      "}",
    ].join("\n");
    expect(read(text)).toEqual([
      'filterc.json:2:3: unknown setting "datset"; did you mean "dataset"? (filterc.json takes $schema, dataset, maxOperators, maxBytes, samples, diagnostics)',
      `filterc.json:3:14: unknown dataset "gatway_http"; known datasets: gateway_http, gateway_dns, gateway_network, audit_logs, zaraz_events and 32 more (did you mean gateway_http?)`,
      'filterc.json:4:19: maxOperators must be a whole number from 1 to 9007199254740991, not "30"',
      "filterc.json:5:15: maxBytes must be a whole number from 1 to 9007199254740991, not 0",
      'filterc.json:6:3: "maxBytes" is set more than once',
    ]);
    expect(read('{"dataset": ["gateway_http"], "$schema": 1, "maxBytes": 1.5}')).toEqual([
      "filterc.json:1:13: dataset must be a dataset's name, a string, not a JSON array",
      "filterc.json:1:42: $schema must be a string (the address of the JSON Schema), not 1",
      "filterc.json:1:57: maxBytes must be a whole number from 1 to 9007199254740991, not 1.5",
    ]);
  });

  it("cuts a long name short in its message", () => {
    const long = "x".repeat(1000);
    expect(read(JSON.stringify({ [long]: 1, dataset: long, $schema: 2 }))).toEqual([
      `filterc.json:1:2: unknown setting "${"x".repeat(40)}…" (filterc.json takes $schema, dataset, maxOperators, maxBytes, samples, diagnostics)`,
      `filterc.json:1:1017: unknown dataset "${"x".repeat(40)}…"; known datasets: dex_application_tests, dex_device_state_events, access_requests, account_abuse_protection_events, audit_logs and 32 more`,
      "filterc.json:1:2030: $schema must be a string (the address of the JSON Schema), not 2",
    ]);
    expect(read(JSON.stringify({ maxBytes: long }))).toEqual([
      `filterc.json:1:13: maxBytes must be a whole number from 1 to 9007199254740991, not "${"x".repeat(40)}…"`,
    ]);
  });

  it("is strict JSON: comments, trailing commas and other values are told at their place", () => {
    expect(read('{\n  // the gateway\n  "dataset": "gateway_http"\n}')).toEqual([
      "filterc.json:2:3: not JSON: InvalidCommentToken",
    ]);
    expect(read('{"dataset": "gateway_http",}')).toEqual([
      "filterc.json:1:28: not JSON: PropertyNameExpected",
    ]);
    expect(read("")).toEqual(["filterc.json:1:1: not JSON: ValueExpected"]);
    expect(read('  ["gateway_http"]')).toEqual([
      'filterc.json:1:3: filterc.json holds one JSON object, like {"dataset": "gateway_http"}',
    ]);
  });
});

describe("the JSON Schema of filterc.json", () => {
  const schemaFile = new URL("../../schemas/filterc.schema.json", import.meta.url);
  const validate = async () =>
    new Ajv({ strict: true }).compile(JSON.parse(await readFile(schemaFile, "utf8")));

  it("ships with the package", async () => {
    const manifest = JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8"));
    expect(manifest.files).toContain("schemas");
    expect(manifest.exports["./schemas/filterc.schema.json"]).toBe("./schemas/filterc.schema.json");
  });

  it("lists exactly the datasets filterc ships", async () => {
    const schema = JSON.parse(await readFile(schemaFile, "utf8"));
    expect(schema.properties.dataset.enum).toEqual([...datasetNames]);
  });

  it("accepts and rejects the configs the loader accepts and rejects", async () => {
    const valid = await validate();
    const settingValue = fc.oneof(
      fc.constantFrom(
        ...datasetNames,
        "gatway_http",
        "",
        "./schema.json",
        "logs/*.ndjson",
        "../logs",
        "/etc/x",
        "a/../b",
        "a/..b",
        "~x",
        "C:x",
        "a\\..",
        " ",
      ),
      fc.integer({ min: -2, max: 2000 }),
      fc.constantFrom(0.5, 1e3, 2 ** 53 - 1, 2 ** 53, -0),
      fc.boolean(),
      fc.constant(null),
      fc.constant([]),
      fc.constant({}),
    );
    const config = fc.oneof(
      fc.dictionary(
        fc.constantFrom("$schema", "dataset", "maxOperators", "maxBytes", "samples", "datset", "max_bytes"),
        settingValue,
      ),
      settingValue,
    );
    fc.assert(
      fc.property(config, (value) => {
        const loaded = !Array.isArray(read(JSON.stringify(value)));
        expect(valid(value), JSON.stringify(value)).toBe(loaded);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("finding the nearest filterc.json", () => {
  it("uses the file's own folder's, else the first one above it; the nearest alone applies", async () => {
    const top = join(folder(), "nearest");
    await mkdir(join(top, "gateway", "block", "deep"), { recursive: true });
    await writeFile(join(top, "filterc.json"), '{"dataset": "dns_logs", "maxBytes": 500}');
    await writeFile(join(top, "gateway", "filterc.json"), '{"dataset": "gateway_http"}');
    const lookup = new ConfigLookup();
    expect(await lookup.forFolder(join(top, "gateway", "block", "deep"))).toEqual({
      path: join(top, "gateway", "filterc.json"),
      defaults: { dataset: "gateway_http" },
    });
    expect(await lookup.forFile(join(top, "errors.lpf"))).toEqual({
      path: join(top, "filterc.json"),
      defaults: { dataset: "dns_logs", maxBytes: 500 },
    });
  });

  it("keeps each folder's answer until cleared", async () => {
    const top = join(folder(), "kept");
    await mkdir(top, { recursive: true });
    const lookup = new ConfigLookup();
    const file = join(top, "filterc.json");
    await writeFile(file, '{"dataset": "gateway_http"}');
    expect((await lookup.forFolder(top)).defaults).toEqual({ dataset: "gateway_http" });
    await writeFile(file, '{"dataset": "gateway_dns"}');
    expect((await lookup.forFolder(top)).defaults).toEqual({ dataset: "gateway_http" });
    lookup.clear();
    expect((await lookup.forFolder(top)).defaults).toEqual({ dataset: "gateway_dns" });
  });

  it(`looks in at most ${MAX_CONFIG_FOLDERS} folders`, async () => {
    const top = join(folder(), "far");
    const levels = Array.from({ length: MAX_CONFIG_FOLDERS }, (_, i) => `d${i}`);
    await mkdir(join(top, ...levels), { recursive: true });
    await writeFile(join(top, "filterc.json"), '{"dataset": "gateway_http"}');
    const lookup = new ConfigLookup();
    // The deepest folder and the 63 above it: the one holding filterc.json is the 65th.
    expect(await lookup.forFolder(join(top, ...levels))).toEqual({ path: undefined, defaults: {} });
    expect((await lookup.forFolder(join(top, ...levels.slice(0, -1)))).defaults).toEqual({
      dataset: "gateway_http",
    });
  });

  it("refuses a filterc.json it cannot use, named as `show` names it, reading no more than the bound", async () => {
    const top = join(folder(), "broken");
    await mkdir(top, { recursive: true });
    const show = (path: string) => path.replace(`${folder()}/`, "");
    const problems = (at: string) =>
      new ConfigLookup(show).forFolder(at).then(
        () => [],
        (error: ConfigError) => error.problems,
      );
    await writeFile(join(top, "filterc.json"), " ".repeat(MAX_CONFIG_FILE_BYTES + 1));
    expect(await problems(top)).toEqual([
      `broken/filterc.json is larger than ${MAX_CONFIG_FILE_BYTES} bytes, more than its settings need; not read`,
    ]);
    await writeFile(join(top, "filterc.json"), Buffer.from([0x7b, 0xff, 0x7d]));
    expect(await problems(top)).toEqual(["broken/filterc.json is not valid UTF-8; save it as UTF-8"]);
    await rm(join(top, "filterc.json"));
    await mkdir(join(top, "filterc.json"));
    expect(await problems(top)).toEqual(["cannot read broken/filterc.json: is a directory"]);
    await rm(join(top, "filterc.json"), { recursive: true });
    // A device that never ends, or a fifo that waits for a writer, is refused before any read.
    await symlink("/dev/zero", join(top, "filterc.json"));
    expect(await problems(top)).toEqual([
      "cannot read broken/filterc.json: a character device, not a regular file",
    ]);
  });
});
