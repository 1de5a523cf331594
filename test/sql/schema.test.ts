import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { getCatalog } from "../../src/index.js";
import { createTable } from "../../src/sql/index.js";
import { runCli } from "../helpers/cli.js";
import { clickhouseTable, duckdbTable } from "./typed-engines.js";

const dir = mkdtempSync(join(tmpdir(), "filterc-schema-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("filterc schema", () => {
  it("writes the columns named, typed, for DuckDB", async () => {
    const run = await runCli([
      "schema",
      "--dialect",
      "duckdb",
      "--fields",
      "RayID,EdgeStartTimestamp,EdgeResponseStatus,EdgeResponseCompressionRatio,CacheTieredFill,SecurityActions,BotDetectionIDs,RequestHeaders,MatchedRules",
    ]);
    expect(run).toEqual({
      code: 0,
      stderr: "",
      stdout: `CREATE TABLE "http_requests" (
  "RayID" VARCHAR,
  "EdgeStartTimestamp" BIGINT,
  "EdgeResponseStatus" HUGEINT,
  "EdgeResponseCompressionRatio" DOUBLE,
  "CacheTieredFill" BOOLEAN,
  "SecurityActions" VARCHAR[],
  "BotDetectionIDs" HUGEINT[],
  "RequestHeaders" JSON,
  "MatchedRules" JSON[]
);
`,
    });
  });

  it("writes a MergeTree ordered by the timestamp field for ClickHouse, under the table's name", async () => {
    const run = await runCli([
      "schema",
      "--dialect",
      "clickhouse",
      "--table",
      "logs",
      "--fields",
      "RayID, EdgeEndTimestamp,EdgeStartTimestamp,EdgeResponseStatus,EdgeResponseCompressionRatio,CacheTieredFill,SecurityActions,BotDetectionIDs,RequestHeaders,MatchedRules",
    ]);
    expect(run).toEqual({
      code: 0,
      stderr: "",
      stdout: `CREATE TABLE \`logs\` (
  \`RayID\` Nullable(String),
  \`EdgeEndTimestamp\` Nullable(Int64),
  \`EdgeStartTimestamp\` Nullable(Int64),
  \`EdgeResponseStatus\` Nullable(Int128),
  \`EdgeResponseCompressionRatio\` Nullable(Float64),
  \`CacheTieredFill\` Nullable(Bool),
  \`SecurityActions\` Array(Nullable(String)),
  \`BotDetectionIDs\` Array(Nullable(Int128)),
  \`RequestHeaders\` Nullable(JSON),
  \`MatchedRules\` Array(JSON)
)
ENGINE = MergeTree
ORDER BY \`EdgeStartTimestamp\`
SETTINGS allow_nullable_key = 1;
`,
    });
    const unordered = await runCli(["schema", "--dialect", "clickhouse", "--fields", "RayID"]);
    expect(unordered.stdout).toBe(
      "CREATE TABLE `http_requests` (\n  `RayID` Nullable(String)\n)\nENGINE = MergeTree\nORDER BY tuple();\n",
    );
  });

  it("writes a column for every field of a dataset, the dataset from a filter's directive", async () => {
    const whole = await runCli(["schema", "--dialect", "duckdb"]);
    const lines = whole.stdout.split("\n");
    expect(whole.code).toBe(0);
    expect(lines.filter((line) => line.startsWith("  "))).toHaveLength(
      getCatalog("http_requests")!.fields.size,
    );
    expect(lines.slice(0, 2)).toEqual([
      'CREATE TABLE "http_requests" (',
      '  "AISecurityCustomTopicCategories" JSON,',
    ]);
    expect(lines).toContain('  "EdgeStartTimestamp" BIGINT,');
    expect(lines.slice(-3)).toEqual(['  "ZoneName" VARCHAR', ");", ""]);
    writeFileSync(join(dir, "dns.lpf"), '# dataset: dns_logs\nQueryName eq "a"\n');
    const dns = await runCli(["schema", "--dialect", "clickhouse", join(dir, "dns.lpf")]);
    expect(dns.stdout.split("\n").filter((line) => line.startsWith("  "))).toHaveLength(
      getCatalog("dns_logs")!.fields.size,
    );
    expect(dns.stdout).toMatch(/^CREATE TABLE `dns_logs` \(\n[\s\S]*\nORDER BY `Timestamp`\n/);
  });

  it("takes the dataset of the folder's filterc.json, which --dataset overrides", async () => {
    const folder = join(dir, "folder");
    mkdirSync(folder);
    writeFileSync(join(folder, "filterc.json"), '{"dataset": "gateway_dns"}');
    const table = await runCli(
      ["schema", "--dialect", "duckdb", "--fields", "Datetime"],
      "",
      {},
      false,
      folder,
    );
    expect(table.stdout).toBe('CREATE TABLE "gateway_dns" (\n  "Datetime" BIGINT\n);\n');
    const flagged = await runCli(
      ["schema", "--dialect", "duckdb", "--dataset", "dns_logs", "--fields", "Timestamp"],
      "",
      {},
      false,
      folder,
    );
    expect(flagged.stdout).toBe('CREATE TABLE "dns_logs" (\n  "Timestamp" BIGINT\n);\n');
  });

  it("refuses what no table can be made of, naming it", async () => {
    const cases: [string[], number, string][] = [
      [["schema"], 2, "filterc schema: say which SQL: --dialect duckdb or --dialect clickhouse"],
      [
        ["schema", "--dialect", "duckdb", "--dataset", "http_request"],
        2,
        'filterc schema: unknown dataset "http_request"; known datasets:',
      ],
      [
        ["schema", "--dialect", "duckdb", "--fields", "RayId"],
        1,
        'filterc schema: http_requests has no field "RayId"; did you mean "RayID"?',
      ],
      [
        ["schema", "--dialect", "duckdb", "--fields", "RayID,RayID"],
        1,
        'filterc schema: the field "RayID" is named twice',
      ],
      [
        ["schema", "--dialect", "duckdb", "--fields", "RayID,"],
        2,
        "filterc schema: --fields takes field names separated by commas, none of them empty",
      ],
      [
        ["schema", "--dialect", "duckdb", "--table", "a\u001b[2Jb"],
        1,
        `filterc schema: the table's name "a\\u001b[2Jb" holds a character that would not show on a terminal`,
      ],
    ];
    for (const [args, code, message] of cases) {
      const run = await runCli(args);
      expect({ args, code: run.code, stdout: run.stdout }).toEqual({ args, code, stdout: "" });
      expect(run.stderr.startsWith(message), `${run.stderr} starts with ${message}`).toBe(true);
    }
  });

  it("refuses a field type no column holds exactly, and names that ignore case in DuckDB", async () => {
    const catalog = join(dir, "custom.json");
    writeFileSync(
      catalog,
      JSON.stringify([
        { name: "Ratios", type: "array", docType: "array[float]" },
        { name: "host", type: "string" },
        { name: "Host", type: "string" },
      ]),
    );
    const ratios = await runCli([
      "schema",
      "--dialect",
      "clickhouse",
      "--dataset",
      "mine",
      "--catalog",
      catalog,
    ]);
    expect(ratios).toEqual({
      code: 1,
      stdout: "",
      stderr:
        'filterc schema: the field "Ratios" has no column: no column type holds "array[float]" exactly\n',
    });
    const cased = await runCli([
      "schema",
      "--dialect",
      "duckdb",
      "--catalog",
      catalog,
      "--fields",
      "host,Host",
    ]);
    expect(cased.stderr).toBe(
      `filterc schema: DuckDB's column names ignore case: "host" and "Host" would be one column\n`,
    );
    const clickhouse = await runCli([
      "schema",
      "--dialect",
      "clickhouse",
      "--catalog",
      catalog,
      "--fields",
      "host,Host",
    ]);
    expect(clickhouse.code).toBe(0);
  });
});

/**
 * A day of http_requests as a job with the default output options delivers it: nanosecond
 * timestamps, ints up to 2^64 - 1, arrays, objects; text that DuckDB's type inference would take
 * for a time or a UUID; and a record with fields missing, null and empty.
 */
const logpushLines = [
  JSON.stringify({
    RayID: "8c1a2b3c4d5e6f70",
    EdgeStartTimestamp: 0,
    EdgeEndTimestamp: 0,
    EdgeResponseStatus: 200,
    EdgeResponseBytes: 0,
    ClientRequestHost: "2023-11-14T22:13:20Z",
    ClientRequestPath: "/api/v1/users",
    ClientRequestUserAgent: "123E4567-E89B-12D3-A456-426614174000",
    CacheTieredFill: true,
    EdgeResponseCompressionRatio: 1.25,
    SecurityActions: ["block", "log"],
    BotDetectionIDs: [1, 0],
    RequestHeaders: { "x-a": "b", "x-date": "2023-11-14" },
    JA4Signals: { h2h3_ratio_1h: 0.5, reqs_quantile_1h: 0.25, uas_rank_1h: 12 },
    MatchedRules: [{ id: "r1", action: "log" }],
  })
    .replace('"EdgeStartTimestamp":0', '"EdgeStartTimestamp":1700000000123456789')
    .replace('"EdgeEndTimestamp":0', '"EdgeEndTimestamp":1700000000223456789')
    .replace('"EdgeResponseBytes":0', '"EdgeResponseBytes":18446744073709551615')
    .replace("[1,0]", "[1,9007199254740993]"),
  JSON.stringify({
    RayID: "8c1a2b3c4d5e6f71",
    EdgeStartTimestamp: null,
    EdgeResponseStatus: 0,
    ClientRequestHost: "",
    SecurityActions: [],
    RequestHeaders: {},
    EdgeResponseCompressionRatio: 0.1,
  }).replace('"EdgeResponseStatus":0', '"EdgeResponseStatus":-9223372036854775808'),
];

/** A JSON text's value, with integers of more than 15 digits kept as their digits. */
const exactly = (text: string) => JSON.parse(text.replace(/(?<=[:,[])(-?\d{16,})(?=[,\]}])/g, '"$1"'));

describe("a Logpush file loads into the table unchanged", () => {
  const create = (dialect: "duckdb" | "clickhouse") => {
    const table = createTable(getCatalog("http_requests")!, { dialect });
    if (!table.ok) throw new Error(table.problem);
    return table.sql;
  };

  it("in DuckDB, with COPY, plain and gzip", async () => {
    const table = await duckdbTable(create("duckdb"), "http_requests");
    try {
      for (const rows of [await table.rows(logpushLines), await table.rows(logpushLines, true)])
        rows.forEach((row, i) => {
          const original = exactly(logpushLines[i]!);
          const read = exactly(row);
          for (const [name, value] of Object.entries(read))
            expect([name, value]).toEqual([name, original[name] ?? null]);
        });
    } finally {
      table.close();
    }
  });

  it("in ClickHouse, with INSERT ... FORMAT JSONEachRow (a missing array reads as [])", async () => {
    const table = await clickhouseTable(create("clickhouse"), "http_requests");
    try {
      const rows = (await table.rows(logpushLines)).map(exactly);
      expect(rows.map((row) => row.RayID).sort()).toEqual(["8c1a2b3c4d5e6f70", "8c1a2b3c4d5e6f71"]);
      for (const read of rows) {
        const original = exactly(logpushLines.find((line) => line.includes(read.RayID))!);
        for (const [name, value] of Object.entries(read)) {
          const field = getCatalog("http_requests")!.fields.get(name)!;
          const missing = field.type === "array" ? [] : null;
          expect([name, value]).toEqual([name, original[name] ?? missing]);
        }
      }
    } finally {
      table.close();
    }
  });
});

describe("filterc sql --columns typed", () => {
  it("writes direct comparisons, NULL failing positive operators and passing ! ones", async () => {
    const source =
      'EdgeResponseStatus geq 500 and not (ClientRequestHost startsWith "api." or SecurityActions contains "block") and BotDetectionIDs in [1, 18446744073709551615]';
    const duckdb = await runCli(["sql", "--dialect", "duckdb", "--columns", "typed"], source);
    // `in` on an array field is the case under test; the service's current docs do not list it (W0123).
    expect(duckdb).toEqual({
      code: 0,
      stderr: expect.stringMatching(/^warning\[W0123\]: .*\n1 warning\n$/s),
      stdout: `COALESCE("EdgeResponseStatus" >= 500, false) AND NOT COALESCE(starts_with("ClientRequestHost", 'api.'), false) AND NOT COALESCE(list_contains("SecurityActions", 'block'), false) AND COALESCE(list_has_any("BotDetectionIDs", [1, CAST('18446744073709551615' AS HUGEINT)]), false)\n`,
    });
    const clickhouse = await runCli(
      ["sql", "--dialect", "clickhouse", "--columns", "typed", "--timestamps", "unixnano"],
      "EdgeStartTimestamp lt 1700000000000000000 or EdgeResponseCompressionRatio eq 0.5",
    );
    expect(clickhouse.stdout).toBe(
      "coalesce(toInt128(`EdgeStartTimestamp`) < 1700000000000000000, false) OR coalesce(`EdgeResponseCompressionRatio` = 0.5, false)\n",
    );
  });

  it("names a column the table lacks (E0801) and a constant a double cannot hold (E0800)", async () => {
    const lacking = await runCli(
      ["sql", "--dialect", "duckdb", "--columns", "typed", "--fields", "RayID,EdgeResponseStatus"],
      'EdgeResponseStatus eq 200 and ClientRequestHost eq "a"',
    );
    expect(lacking).toEqual({
      code: 1,
      stdout: "",
      stderr: `error[E0801]: the table has no column \`ClientRequestHost\`; its columns are RayID, EdgeResponseStatus
 --> <stdin>:1:31
  |
1 | EdgeResponseStatus eq 200 and ClientRequestHost eq "a"
  |                               ^^^^^^^^^^^^^^^^^^^^^^^^
1 error
`,
    });
    const digits = await runCli(
      ["sql", "--dialect", "clickhouse", "--columns", "typed"],
      "EdgeResponseCompressionRatio gt 0.1234567890123456",
    );
    expect(digits.code).toBe(1);
    expect(digits.stderr.split("\n")[0]).toBe(
      "error[E0800]: this comparison of `EdgeResponseCompressionRatio` cannot be written exactly in ClickHouse SQL: 0.1234567890123456 has more than 15 significant digits, past what a column of doubles compares exactly",
    );
  });

  it("refuses flags of the other form, and a column no terminal shows, as usage errors", async () => {
    const cases: [string[], string][] = [
      [["--columns", "typd"], '--columns takes json or typed, not "typd"'],
      [
        ["--columns", "typed", "--from", "x.ndjson"],
        "--columns typed writes the condition over a table you load; --from reads JSON text",
      ],
      [
        ["--columns", "typed", "--column", "j"],
        "--column names the column of JSON text; a typed table has a column per field",
      ],
      [["--fields", "RayID"], "--fields names a typed table's columns: give --columns typed"],
      [
        ["--columns", "typed", "--fields", "RayId"],
        '--fields: http_requests has no field "RayId"; did you mean "RayID"?',
      ],
      [
        ["--column", "a\u001b[2Jb"],
        '--column "a\\u001b[2Jb" holds a character that would not show on a terminal',
      ],
      [["--column", "a\u202eb"], '--column "a\\u202eb" holds a character that would not show on a terminal'],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(["sql", "--dialect", "duckdb", ...args], 'RayID eq "a"');
      expect([args, run.code, run.stderr.split("\n")[0]]).toEqual([args, 2, `filterc sql: ${message}`]);
    }
  });
});
