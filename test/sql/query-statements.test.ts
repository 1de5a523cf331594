import { describe, expect, it } from "vitest";
import { compile } from "../../src/index.js";
import {
  countOf,
  createEvalKept,
  EVAL_KEPT,
  evalKeptGroups,
  groupsOf,
  groupValue,
  type Location,
  measureStatement,
  mergedGroups,
  r2Secret,
  s3Secret,
  secretValue,
  topGroups,
  toSql,
  typedRead,
  typedStatement,
  unreadableTimesSql,
} from "../../src/sql/index.js";

/*
 * The statements filterc query runs (src/sql/query-statements.ts), written out for small cases:
 * each is the SELECT filterc sql prints, or the typed read, inside the statement query sends.
 */

const from: Location[] = [{ kind: "file", path: "a.ndjson" }];
const meaningOf = (source: string) => compile(source).meaning!;

describe("query's statements", () => {
  it("counts the rows of a SELECT and groups by a field's JSON text", () => {
    expect(countOf("SELECT 1")).toBe("SELECT count(*) FROM (SELECT 1)");
    expect(groupValue("ClientRequestHost")).toBe(
      "NULLIF(json_extract(json, '/ClientRequestHost')::VARCHAR, 'null')",
    );
    // The JSON pointer escapes `~` and `/`; the literal doubles a quote.
    expect(groupValue("a/b~c'd")).toBe("NULLIF(json_extract(json, '/a~1b~0c''d')::VARCHAR, 'null')");
    expect(groupsOf("v", "SELECT json FROM t")).toBe(
      "SELECT count(*) AS n, v AS value, 0 AS unreadable, NULL AS example FROM (SELECT json FROM t) GROUP BY value",
    );
  });

  it("holds eval's lines for --group-by in a table of its own", () => {
    expect(EVAL_KEPT).toBe("filterc_eval_kept");
    expect(createEvalKept()).toBe("CREATE TEMP TABLE filterc_eval_kept (json JSON)");
    expect(evalKeptGroups("v")).toBe(
      "SELECT count(*) AS n, v AS value, 0 AS unreadable, NULL AS example FROM filterc_eval_kept GROUP BY value",
    );
  });

  it("adds up the groups of DuckDB's part and eval's, and ranks the top ones", () => {
    expect(mergedGroups(["A"])).toBe("A");
    expect(mergedGroups(["A", "B"])).toBe(
      "SELECT sum(n) AS n, value, sum(unreadable) AS unreadable, max(example) AS example FROM (A UNION ALL B) GROUP BY value",
    );
    expect(topGroups("G", 2)).toBe(
      "SELECT n, value, lines - sum(n) OVER () AS rest, groups, unreadable, example FROM (" +
        "SELECT n, value, row_number() OVER (ORDER BY n DESC, value NULLS LAST) AS place, " +
        "count(*) FILTER (WHERE n > 0) OVER () AS groups, sum(n) OVER () AS lines, " +
        "sum(unreadable) OVER () AS unreadable, first_value(example IGNORE NULLS) OVER (ORDER BY n DESC, value " +
        "NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS example FROM (G)" +
        ") WHERE place <= 2 AND (n > 0 OR place = 1) ORDER BY place",
    );
  });

  it("counts or groups a typed read, the direct one with no misfit", () => {
    const read = { table: "t", kept: "k", misfit: "m" };
    expect(typedStatement({ ...read, group: undefined })).toBe(
      "SELECT count(*) FILTER (WHERE kept), count(*) FILTER (WHERE misfit) FROM (SELECT k AS kept, m AS misfit FROM t)",
    );
    expect(typedStatement({ ...read, group: "g" })).toBe(
      "SELECT count(*) FILTER (WHERE kept) AS n, value, count(*) FILTER (WHERE misfit) AS unreadable, NULL AS example " +
        "FROM (SELECT k AS kept, m AS misfit, g AS value FROM t) WHERE kept OR misfit GROUP BY value",
    );
    const typed = typedRead(meaningOf("EdgeResponseStatus eq 503"), {
      from,
      timestamps: "auto",
      groupBy: "ClientRequestHost",
    })!;
    expect(typedStatement(typed.direct!)).toBe(
      'SELECT count(*) FILTER (WHERE kept) AS n, value, count(*) FILTER (WHERE misfit) AS unreadable, NULL AS example FROM (SELECT COALESCE("EdgeResponseStatus" = 503, false) AS kept, false AS misfit, ("ClientRequestHost"::VARCHAR) AS value FROM ' +
        "read_ndjson('a.ndjson', columns = {'EdgeResponseStatus': 'HUGEINT', 'ClientRequestHost': 'JSON'}, records = true, ignore_errors = false)) WHERE kept OR misfit GROUP BY value",
    );
  });

  it("measures --stats over the SELECT of every record, with the filter filterc sql writes", () => {
    const meaning = meaningOf("EdgeResponseStatus eq 503");
    const every = toSql(null, { dialect: "duckdb", from }).sql!;
    const kept = toSql(meaning, { dialect: "duckdb" }).sql!;
    const bytes = "strlen(json::VARCHAR) + 1";
    const measured =
      `SELECT count(*) FILTER (WHERE ${kept}), coalesce(sum(${bytes}) FILTER (WHERE ${kept}), 0), ` +
      `count(*), coalesce(sum(${bytes}), 0)`;
    expect(measureStatement(meaning, from, undefined, undefined)).toBe(`${measured} FROM (${every})`);
    expect(measureStatement(meaning, from, undefined, "x, y")).toBe(`${measured}, x, y FROM (${every})`);
    expect(every).toMatch(
      /^SELECT "json" FROM read_ndjson_objects\('a\.ndjson', ignore_errors = true\) WHERE /,
    );
  });

  it("counts the timestamps that are no time only for a filter naming a timestamp field", () => {
    expect(unreadableTimesSql(meaningOf("EdgeResponseStatus eq 503"), from, undefined)).toBeUndefined();
    const meaning = meaningOf("EdgeStartTimestamp gt 1672531200000000000");
    const filter = toSql(meaning, { dialect: "duckdb", timestamps: "unix" });
    if (!filter.ok) throw new Error("no SQL");
    const unreadable = filter.unreadableTimes!;
    const every = toSql(null, { dialect: "duckdb", from }).sql!;
    const records = `SELECT json, ${filter.sql} AS kept, ${unreadable} AS unreadable FROM (${every})`;
    const sql = unreadableTimesSql(meaning, from, "unix")!;
    expect({ ...sql, groups: sql.groups("v") }).toEqual({
      columns: `coalesce(sum(${unreadable}), 0), first(json) FILTER (WHERE ${unreadable} > 0)`,
      rows: `SELECT json, kept, unreadable FROM (${records}) WHERE kept OR unreadable > 0`,
      count: `SELECT count(*) FILTER (WHERE kept), coalesce(sum(unreadable), 0), first(json) FILTER (WHERE unreadable > 0) FROM (${records})`,
      groups:
        "SELECT count(*) FILTER (WHERE kept) AS n, v AS value, coalesce(sum(unreadable), 0) AS unreadable, " +
        `first(json) FILTER (WHERE unreadable > 0) AS example FROM (${records}) WHERE kept OR unreadable > 0 GROUP BY value`,
    });
  });

  it("writes the secrets for buckets with each credential quoted", () => {
    expect(secretValue("a'b")).toBe("'a''b'");
    expect(s3Secret({ keyId: "K", secret: "S'", token: undefined, region: "us-east-1" })).toBe(
      "CREATE SECRET filterc_s3 (TYPE s3, KEY_ID 'K', SECRET 'S''', REGION 'us-east-1')",
    );
    expect(s3Secret({ keyId: "K", secret: "S", token: "T", region: "eu-west-1" })).toBe(
      "CREATE SECRET filterc_s3 (TYPE s3, KEY_ID 'K', SECRET 'S', SESSION_TOKEN 'T', REGION 'eu-west-1')",
    );
    expect(r2Secret({ keyId: "K", secret: "S", account: "A" })).toBe(
      "CREATE SECRET filterc_r2 (TYPE r2, KEY_ID 'K', SECRET 'S', ACCOUNT_ID 'A')",
    );
  });
});
