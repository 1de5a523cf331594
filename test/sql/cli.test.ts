import { copyFile, cp, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { duckdbFailure, remoteAccess } from "../../src/cli/duckdb.js";
import { readLocalFiles } from "../../src/cli/local-read.js";
import { compile, type Location, toSql } from "../../src/index.js";
import { builtCli, ensureBundles } from "../helpers/bundles.js";
import { spawnCli } from "../helpers/cli.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

let dir: string;
const lines = [
  '{"EdgeResponseStatus":503,"ClientRequestPath":"/api/v1","SecurityActions":["block"]}',
  '{"EdgeResponseStatus":"0502","ClientRequestPath":"/api/it\'s"}',
  '{"EdgeResponseStatus":200,"ClientRequestPath":"/api/v1"}',
  '{"ClientRequestPath":"/health","EdgeResponseStatus":18446744073709551615}',
  "not json",
];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "filterc-sql-cli-"));
  await writeFile(join(dir, "a.ndjson"), `${lines.join("\n")}\n`);
  await writeFile(join(dir, "b.ndjson.gz"), gzipSync(`${lines.join("\n")}\n`));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const inDir = (args: string[], stdin = "", env: Record<string, string> = {}) =>
  spawnCli(
    args.map((arg) => arg.replace("$DIR", dir)),
    stdin,
    env,
  );

describe("filterc sql", () => {
  it("refuses a missing or unknown dialect and --column with --from as usage errors", async () => {
    const missing = await inDir(["sql"], "BotScore lt 30");
    expect(missing.code).toBe(2);
    expect(missing.stderr.split("\n")[0]).toBe(
      "filterc sql: say which SQL: --dialect duckdb or --dialect clickhouse",
    );
    const unknown = await inDir(["sql", "--dialect", "postgres"], "BotScore lt 30");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split("\n")[0]).toBe(
      'filterc sql: unknown dialect "postgres"; filterc writes duckdb and clickhouse',
    );
    const both = await inDir(
      ["sql", "--dialect", "duckdb", "--from", "$DIR/a.ndjson", "--column", "x"],
      "BotScore lt 30",
    );
    expect(both.code).toBe(2);
  });

  it("writes the same SQL for source and for the Logpush JSON it compiles to", async () => {
    const source = await inDir(["sql", "--dialect", "clickhouse"], 'ClientRequestPath in ["/a", "/b"]');
    const json = await inDir(
      ["sql", "--dialect", "clickhouse"],
      '{"where":{"key":"ClientRequestPath","operator":"in","value":["/a","/b"]}}',
    );
    expect(source).toEqual({
      code: 0,
      stdout: `${toSql(compile('ClientRequestPath in ["/a", "/b"]').condition, { dialect: "clickhouse" }).sql}\n`,
      stderr: "",
    });
    expect(json).toEqual(source);
  });

  it("escapes quotes, backslashes and hidden characters so no value leaves its literal", async () => {
    const filter = 'ClientRequestPath eq "it\'s \\\\ \\n\\u202e"';
    const duck = await inDir(["sql", "--dialect", "duckdb"], filter);
    expect(duck.stdout).toContain("f[2][1] = ('it''s \\ ' || chr(10) || chr(8238))");
    const house = await inDir(["sql", "--dialect", "clickhouse"], filter);
    expect(house.stdout).toContain(
      "JSONExtractString(l, 'ClientRequestPath') = 'it\\'s \\\\ \\x0A\\xE2\\x80\\xAE'",
    );
  });

  it("says when ClickHouse cannot read the location, and when a glob matches nothing", async () => {
    const r2 = await inDir(
      ["sql", "--dialect", "clickhouse", "--from", "r2://logs/http/*.gz"],
      "BotScore lt 30",
    );
    expect(r2).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "filterc sql: ClickHouse reads R2 through its S3 API: give the bucket's https URL instead (https://ACCOUNT_ID.r2.cloudflarestorage.com/logs/http/*.gz)\n",
    });
    const none = await inDir(["sql", "--dialect", "duckdb", "--from", "$DIR/*.log"], "BotScore lt 30");
    expect(none).toEqual({ code: 1, stdout: "", stderr: `filterc sql: no file matches "${dir}/*.log"\n` });
  });
});

describe("toSql's numbers", () => {
  it("compares integers with integer constants as 128-bit integers, others as decimals", () => {
    // DuckDB casts text to DECIMAL(38, 18) about fifty times slower than to HUGEINT.
    const where = (source: string) => toSql(compile(source).condition, { dialect: "duckdb" }).sql;
    expect(where("EdgeResponseStatus geq 500")).toContain(
      "CASE WHEN regexp_full_match(f[2][1], '-?[0-9]{1,20}') THEN TRY_CAST(f[2][1] AS HUGEINT) >= TRY_CAST('500' AS HUGEINT) " +
        "ELSE CASE WHEN regexp_full_match(f[2][1], '-?[0-9]{1,20}(\\.[0-9]{1,18})?') THEN TRY_CAST(f[2][1] AS DECIMAL(38, 18)) >= ",
    );
    expect(where("EdgeResponseStatus in [200, 18446744073709551615]")).toContain(
      "TRY_CAST(f[2][1] AS HUGEINT) IN (TRY_CAST('200' AS HUGEINT), TRY_CAST('18446744073709551615' AS HUGEINT))",
    );
    expect(where("EdgeResponseCompressionRatio gt 0.5")).not.toContain("HUGEINT");
  });
});

describe("filterc sql --timestamps", () => {
  it("compares numbers in the unit it names, and refuses a job's text formats, which need none", async () => {
    const unix = await inDir(
      ["sql", "--dialect", "duckdb", "--timestamps", "unix"],
      "EdgeStartTimestamp gt 1700000000500000000",
    );
    expect(unix.code).toBe(0);
    expect(unix.stdout).toContain(
      "TRY_CAST(f[2][1] AS DECIMAL(38, 18)) > TRY_CAST('1700000000.5' AS DECIMAL(38, 18))",
    );
    expect(unix.stdout).not.toContain("'100000000000'");
    const auto = await inDir(["sql", "--dialect", "duckdb"], "EdgeStartTimestamp gt 1700000000500000000");
    expect(auto.stdout).toContain("abs(TRY_CAST(f[2][1] AS HUGEINT)) < TRY_CAST('100000000000' AS HUGEINT)");
    const rfc = await inDir(
      ["sql", "--dialect", "duckdb", "--timestamps", "rfc3339"],
      "EdgeStartTimestamp gt 0",
    );
    expect(rfc.code).toBe(2);
    expect(rfc.stderr.split("\n")[0]).toBe(
      "filterc sql: --timestamps rfc3339: RFC 3339 text is read as the time it names whatever --timestamps says; it says how numbers are read: auto, unix or unixnano",
    );
  });
});

describe("filterc query", () => {
  it("keeps the lines eval keeps, from plain and gzip files through a glob", async () => {
    const filter = 'EdgeResponseStatus geq 500 and not ClientRequestPath startsWith "/health"';
    const query = await inDir(["query", "--expr", filter, "$DIR/a.ndjson", "$DIR/b.ndjson.gz"]);
    const evaluated = await inDir(["eval", "--expr", filter, "$DIR/a.ndjson", "$DIR/b.ndjson.gz"]);
    expect(query.code).toBe(0);
    expect(query.stdout).toBe(evaluated.stdout);
    expect(query.stdout).toBe(`${lines[0]}\n${lines[1]}\n${lines[0]}\n${lines[1]}\n`);
    const counted = await inDir(["query", "--expr", filter, "$DIR/*.ndjson*", "--count", "--stats"]);
    expect(counted).toEqual({
      code: 0,
      stdout: "4\n",
      stderr: "kept 4 of 8 well-formed lines (50.0%), 294 of 556 bytes (52.9%)\n",
    });
    const evalStats = await inDir([
      "eval",
      "--expr",
      filter,
      "$DIR/a.ndjson",
      "$DIR/b.ndjson.gz",
      "--count",
      "--stats",
    ]);
    expect(evalStats.stderr.split("\n").at(-2)).toBe(counted.stderr.trimEnd());
    const grouped = await inDir([
      "query",
      "--expr",
      "EdgeResponseStatus geq 0",
      "$DIR/a.ndjson",
      "--group-by",
      "SecurityActions",
    ]);
    expect(grouped).toEqual({ code: 0, stdout: '3\t(missing)\n1\t["block"]\n', stderr: "" });
  });

  it("reads timestamps as eval does in every mode, and reports the values that are no time once", async () => {
    const timed = [
      '{"RayID":"a","EdgeStartTimestamp":"2023-11-14T22:13:20.5Z","ClientCountry":"us"}',
      '{"RayID":"b","EdgeStartTimestamp":1699999999,"ClientCountry":"us"}',
      '{"RayID":"c","EdgeStartTimestamp":"2023-11-15T00:13:21+02:00","ClientCountry":"ca"}',
      '{"RayID":"d","EdgeStartTimestamp":"14/Nov/2023:22:13:20 +0000","ClientCountry":"us"}',
      '{"RayID":"e","EdgeStartTimestamp":1700000000123,"ClientCountry":"ca"}',
      '{"RayID":"f","EdgeStartTimestamp":1700000000000000001}',
    ];
    await writeFile(join(dir, "timed.ndjson"), `${timed.join("\n")}\n`);
    const filter = "EdgeStartTimestamp geq 1700000000000000000";
    const report =
      "filterc query: 2 values of timestamp fields cannot be read as a time, so they compare as missing fields " +
      '(one is EdgeStartTimestamp "14/Nov/2023:22:13:20 +0000")\n';
    const reportOf = (stderr: string) =>
      stderr.split("\n").filter((line) => line.startsWith("filterc query:"));
    const evaluated = await inDir(["eval", "--expr", filter, "$DIR/timed.ndjson"]);
    expect(evaluated.stdout).toBe(`${timed[0]}\n${timed[2]}\n${timed[5]}\n`);
    for (const args of [["--threads", "1"], ["--stats"]]) {
      const lines = await inDir(["query", "--expr", filter, "$DIR/timed.ndjson", ...args]);
      expect(lines.stdout).toBe(evaluated.stdout);
      expect(reportOf(lines.stderr)).toEqual([report.trimEnd()]);
    }
    for (const args of [["--count"], ["--count", "--stats"]]) {
      const counted = await inDir(["query", "--expr", filter, "$DIR/timed.ndjson", ...args]);
      expect(counted.stdout).toBe("3\n");
      expect(reportOf(counted.stderr)).toEqual([report.trimEnd()]);
    }
    const grouped = await inDir([
      "query",
      "--expr",
      filter,
      "$DIR/timed.ndjson",
      "--group-by",
      "ClientCountry",
    ]);
    // The first group holding one names its value: the groups come most first, then by value.
    expect(grouped).toEqual({
      code: 0,
      stdout: '1\t"ca"\n1\t"us"\n1\t(missing)\n',
      stderr: report.replace(
        '"14/Nov/2023:22:13:20 +0000"',
        "1700000000123, a number the size of neither unix seconds nor unix nanoseconds: see --timestamps",
      ),
    });
    const unix = await inDir([
      "query",
      "--expr",
      filter,
      "$DIR/timed.ndjson",
      "--timestamps",
      "unix",
      "--count",
    ]);
    expect(unix).toEqual({
      code: 0,
      stdout: "4\n",
      stderr:
        "filterc query: 1 value of a timestamp field cannot be read as a time, so it compares as a missing field " +
        '(EdgeStartTimestamp "14/Nov/2023:22:13:20 +0000")\n',
    });
    const none = await inDir(["query", "--expr", 'ClientCountry eq "us"', "$DIR/timed.ndjson", "--count"]);
    expect(none).toEqual({ code: 0, stdout: "3\n", stderr: "" });
  });

  it("reads the named fields typed, judging values of another type as eval does and counting them", async () => {
    const typed = [
      '{"EdgeResponseStatus":503,"ClientRequestHost":"a.com","ClientCountry":"us"}',
      '{"EdgeResponseStatus":"503","ClientRequestHost":"a.com","ClientCountry":"us"}',
      '{"EdgeResponseStatus":" 503","ClientRequestHost":"a.com","ClientCountry":"ca"}',
      '{"EdgeResponseStatus":503.5,"ClientRequestHost":"a.com","ClientCountry":"ca"}',
      '{"EdgeResponseStatus":340282366920938463463374607431768211456,"ClientRequestHost":"a.com"}',
      '{"EdgeResponseStatus":504,"ClientRequestHost":["b.com"],"ClientCountry":"us"}',
      '{"EdgeResponseStatus":500,"ClientRequestHost":{"host":"b.com"}}',
      '{"EdgeResponseStatus":true,"ClientRequestHost":"a.com","ClientCountry":"us"}',
      '{"EdgeResponseStatus":502,"ClientRequestHost":"b\\u002ecom","ClientCountry":null}',
      '{"EdgeResponseStatus":501,"ClientRequestHost":"c.com","ClientCountry":"ca"}',
      '{"EdgeResponseStatus":500,"ClientRequestHost":"d.com","ClientCountry":null}',
    ];
    await writeFile(join(dir, "typed.ndjson"), `${typed.join("\n")}\n`);
    await writeFile(join(dir, "typed.ndjson.gz"), gzipSync(`${typed.join("\n")}\n`));
    const filter = 'EdgeResponseStatus geq 500 and ClientRequestHost !eq "b.com"';
    const evaluated = await inDir(["eval", "--expr", filter, "$DIR/typed.ndjson", "--count"]);
    expect(evaluated.stdout).toBe("8\n");
    // Only the typed read counts them: the line says it ran.
    const report = (lines: number) =>
      `filterc query: ${lines} lines held a value of another type than the catalog gives its field; they were judged as filterc eval judges them\n`;
    const counted = await inDir(["query", "--expr", filter, "$DIR/typed.ndjson*", "--count"]);
    expect(counted).toEqual({ code: 0, stdout: "16\n", stderr: report(14) });
    const grouped = await inDir([
      "query",
      "--expr",
      filter,
      "$DIR/typed.ndjson",
      "--group-by",
      "ClientCountry",
    ]);
    // A null is a missing value, one group, also where the JSON-text SELECT answers (a malformed line).
    const groups = '3\t"us"\n3\t(missing)\n2\t"ca"\n';
    expect(grouped).toEqual({ code: 0, stdout: groups, stderr: report(7) });
    await writeFile(join(dir, "typed-text.ndjson"), `${typed.join("\n")}\nnot json\n`);
    const text = await inDir([
      "query",
      "--expr",
      filter,
      "$DIR/typed-text.ndjson",
      "--group-by",
      "ClientCountry",
    ]);
    expect(text).toEqual({ code: 0, stdout: groups, stderr: "" });
  });

  it("reads each field in its column's type where every value is of its kind, as eval reads them", async () => {
    const fitting = [
      '{"EdgeResponseStatus":503,"ClientRequestHost":"a.com","ClientCountry":"us","ClientRequestUserAgent":"Mozilla/5.0 (é)"}',
      '{"EdgeResponseStatus":18446744073709551615,"ClientRequestHost":"b\\u002ecom","ClientCountry":"ca"}',
      '{"EdgeResponseStatus":-9223372036854775808,"ClientRequestHost":"😀","ClientCountry":null}',
      '{"EdgeResponseStatus":null,"ClientRequestHost":"a.com","ClientCountry":"\\u00e9"}',
      '{"ClientRequestHost":"a.com","EdgeResponseStatus":500, "ClientCountry":"us"}',
      '{"EdgeResponseStatus":0,"ClientRequestHost":"a\\"b","ClientCountry":"us","Other":1e400}',
    ];
    await writeFile(join(dir, "fitting.ndjson"), `${fitting.join("\n")}\n`);
    const filters = [
      'EdgeResponseStatus geq 500 and ClientRequestHost !eq "b.com"',
      'EdgeResponseStatus lt 1 or ClientRequestHost in ["😀", "a\\"b"]',
      'ClientRequestHost contains "." and not ClientCountry eq "us"',
      'EdgeResponseStatus !eq 18446744073709551615 and ClientRequestHost !contains "😀"',
    ];
    for (const filter of filters) {
      const evaluated = await inDir(["eval", "--expr", filter, "$DIR/fitting.ndjson", "--count"]);
      const counted = await inDir(["query", "--expr", filter, "$DIR/fitting.ndjson", "--count"]);
      // No line held a value of another type: nothing to report.
      expect([filter, counted]).toEqual([filter, { code: 0, stdout: evaluated.stdout, stderr: "" }]);
    }
    // The group-by field's JSON, as the fitted read writes it, whether or not the filter compares it.
    const byCountry = await inDir([
      "query",
      "--expr",
      'ClientCountry !eq "ca"',
      "$DIR/fitting.ndjson",
      "--group-by",
      "ClientCountry",
    ]);
    expect(byCountry).toEqual({ code: 0, stdout: '3\t"us"\n1\t"é"\n1\t(missing)\n', stderr: "" });
    const byHost = await inDir([
      "query",
      "--expr",
      'ClientRequestHost !eq "x"',
      "$DIR/fitting.ndjson",
      "--group-by",
      "ClientRequestHost",
    ]);
    expect(byHost).toEqual({
      code: 0,
      stdout: '3\t"a.com"\n1\t"a\\"b"\n1\t"b.com"\n1\t"😀"\n',
      stderr: "",
    });
  });

  it("answers with the JSON-text SELECT where DuckDB's reader and JSON.parse read a line otherwise", async () => {
    const misfit = '{"EdgeResponseStatus":"503","ClientRequestHost":"a.com"}';
    const lenient = [
      "not json",
      "[1]",
      '{"EdgeResponseStatus":503,"ClientRequestHost":"a.com",}',
      '{"EdgeResponseStatus":503,"ClientRequestHost":"a.com","BotTags":["x",]}',
      '{"EdgeResponseStatus":503,"ClientRequestHost":"a.com","BotScore":NaN}',
      '{"EdgeResponseStatus":-Infinity,"ClientRequestHost":"a.com"}',
    ];
    const files = lenient.map((_, index) => join(dir, `lenient-${index}.ndjson`));
    for (const [index, line] of lenient.entries()) await writeFile(files[index]!, `${misfit}\n${line}\n`);
    await writeFile(join(dir, "strict.ndjson.gz"), gzipSync(`${misfit}\n\n \r\n${misfit}`));
    const local = (path: string): Location => ({ kind: "local", paths: [path], gzip: path.endsWith(".gz") });
    const strict = async (file: string) =>
      (await readLocalFiles([local(file)], dir, { fields: [], typed: true, bytes: false })).strict;
    expect(await strict(join(dir, "strict.ndjson.gz"))).toBe(true);
    for (const file of files) expect([file, await strict(file)]).toEqual([file, false]);
    // DuckDB's reader fails on the first, takes the third: eval counts both as malformed, and keeps
    // the other line; no misfit is reported, as the SELECT answered.
    for (const file of [files[0], files[3]]) {
      const counted = await inDir(["query", "--expr", 'ClientRequestHost !eq "b"', file!, "--count"]);
      expect(counted).toEqual({ code: 0, stdout: "1\n", stderr: "" });
    }
  });

  it("refuses what it cannot do before starting DuckDB", async () => {
    const unknown = await inDir(["query", "--expr", "BotScore lt 30", "$DIR/a.ndjson", "--group-by", "Nope"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr.split("\n")[0]).toBe(
      'filterc query: --group-by "Nope": http_requests has no such field',
    );
    const stdin = await inDir(["query", "--expr", "BotScore lt 30", "-"]);
    expect(stdin.code).toBe(2);
    const noCredentials = await inDir(["query", "--expr", "BotScore lt 30", "r2://logs/*.gz"]);
    expect(noCredentials).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "filterc query: reading r2:// buckets needs R2_ACCESS_KEY_ID or AWS_ACCESS_KEY_ID in the environment\n",
    });
    const filterErrors = await inDir(["query", "--expr", 'BotScore lt "x"', "$DIR/a.ndjson"]);
    expect(filterErrors.code).toBe(1);
    expect(filterErrors.stdout).toBe("");
  });

  it("never prints a credential, also when DuckDB cannot reach the bucket", async () => {
    const env = {
      AWS_ACCESS_KEY_ID: "AKIAQUERYTESTKEY0001",
      AWS_SECRET_ACCESS_KEY: "query-secret-0123456789abcdef",
    };
    const remote = await inDir(
      ["query", "--expr", "BotScore lt 30", "s3://logs/http/*.gz", "--count"],
      "",
      env,
    );
    expect(remote.code).toBe(1);
    expect(remote.stderr).toMatch(
      /^filterc query: DuckDB reads s3:\/\/, r2:\/\/ and https:\/\/ through its httpfs extension/,
    );
    for (const secret of Object.values(env))
      expect(remote.stdout + remote.stderr).not.toContain(secret.slice(0, 8));
    const control = await inDir(["query", "--expr", "BotScore lt 30", "s3://logs/x.gz"], "", {
      ...env,
      AWS_SECRET_ACCESS_KEY: "abc\ndef",
    });
    expect(control).toEqual({
      code: 1,
      stdout: "",
      stderr: "filterc query: AWS_SECRET_ACCESS_KEY holds a control character\n",
    });
  });

  it("masks a credential also as a statement quotes it, which DuckDB may echo", () => {
    const access = remoteAccess([{ kind: "s3", bucket: "logs", key: "x.gz" }], {
      AWS_ACCESS_KEY_ID: "AKIAQUERYTESTKEY0001",
      AWS_SECRET_ACCESS_KEY: "it's-a-secret",
    });
    const error = new Error("Parser Error: near SECRET 'it''s-a-secret'");
    expect(duckdbFailure(error, access.secrets).message).toBe("DuckDB: Parser Error: near SECRET '****'");
  });

  it("says how to install DuckDB when the optional package is missing", async () => {
    const alone = await mkdtemp(join(tmpdir(), "filterc-no-duckdb-"));
    try {
      const dist = join(builtCli(), "..");
      // The CLI's files (its entry, query's bundle, the chunks it shares and the catalogs), away
      // from node_modules.
      for (const file of await readdir(dist))
        if (file.endsWith(".cjs")) await copyFile(join(dist, file), join(alone, file));
      await cp(join(dist, "catalogs"), join(alone, "catalogs"), { recursive: true });
      const { spawnSync } = await import("node:child_process");
      const run = spawnSync(
        process.execPath,
        [join(alone, "cli.cjs"), "query", "--expr", "BotScore lt 30", join(dir, "a.ndjson")],
        {
          encoding: "utf8",
        },
      );
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(
        /^filterc query: embedded DuckDB, the optional package @duckdb\/node-api, is not installed beside filterc \(Cannot find module '@duckdb\/node-api'\); install it with: npm install --prefix \S+ @duckdb\/node-api@\^1\.5\.6-r\.1\n$/,
      );
    } finally {
      await rm(alone, { recursive: true, force: true });
    }
  });
});
