/**
 * What differs between the SQL engines: how a literal and an identifier are written, and the JSON
 * functions that read one value of a record held as JSON text. Everything else is shared (see
 * translate.ts). Both engines read the record's text with their JSON functions, never with inferred
 * column types: DuckDB's and ClickHouse's NDJSON readers infer a column's type from a sample, so
 * `"0500"` stays text, a missing field becomes 0 or '' in ClickHouse, and a field of mixed types
 * loses values. Reading the text gives eval's answer whatever the other lines hold.
 */

/**
 * A JSON value of one record: a top-level field of the record column (`index`: its place among the
 * fields the filter names), or an array element bound by a lambda.
 */
export type JsonRef =
  | { kind: "field"; column: string; name: string; index: number }
  | { kind: "element"; variable: string };

/** The JSON types a comparison tells apart. */
export type JsonKind = "string" | "number" | "bool" | "array" | "object" | "null";

export type DialectName = "duckdb" | "clickhouse";

export interface Dialect {
  name: DialectName;
  /** A string literal; characters that would not show on a terminal are written as escapes. */
  string(text: string): string;
  identifier(name: string): string;
  /** Whether the value is there and of this JSON type (false for a missing field or a column holding no object). */
  isKind(ref: JsonRef, kind: JsonKind): string;
  /** The value as text: a string's content, a number as written, `true`/`false`. */
  text(ref: JsonRef): string;
  /** Whether `text` matches the regular expression as a whole. */
  fullMatch(text: string, pattern: string): string;
  startsWith(text: string, prefix: string): string;
  endsWith(text: string, suffix: string): string;
  contains(text: string, part: string): string;
  /** Numeric text as an exact decimal of 38 digits, 18 after the point (NULL when it does not fit). */
  decimal(text: string): string;
  /** Numeric text as a double (NULL when it is none). */
  double(text: string): string;
  /** Text of an integer as one of 128 bits (NULL when it is none). */
  integer(text: string): string;
  /** Integer division, of numbers at least 0 (the engines round other quotients differently). */
  quotient(dividend: string, divisor: string): string;
  /** What the first group of the regular expression captures in `text` (empty when it does not match). */
  firstGroup(text: string, pattern: string): string;
  ifElse(condition: string, then: string, otherwise: string): string;
  /** A possibly NULL boolean as true or false: NULL (a missing value) is false. */
  orFalse(condition: string): string;
  /** Whether some element of the array field satisfies `test` (given the element's variable). */
  someElement(field: JsonRef & { kind: "field" }, test: (element: JsonRef) => string): string;
  /**
   * The whole test of a row: whether the column holds a JSON object (eval counts other lines as
   * malformed and keeps none of them) and, when there is a filter, whether it passes; `fields` are
   * the names the condition reads, in the order of their refs' `index`.
   */
  record(column: string, condition: string | null, fields: readonly string[]): string;
  /** An integer expression over the fields of each row holding a JSON object (0 for any other row), as `record` binds them. */
  recordCount(column: string, expression: string, fields: readonly string[]): string;
  /** A table of one row per line of NDJSON files (gzip or not), the line's text in `column`; or why the engine cannot read there. */
  lines(locations: readonly Location[]): { table: string; column: string } | { problem: string };
}

/** Where `--from` reads: local files (a path or glob), an S3 or R2 bucket, or an HTTPS URL. */
export type Location =
  | { kind: "file"; path: string }
  | { kind: "s3" | "r2"; bucket: string; key: string }
  | { kind: "https"; url: string };

/** Characters written as escapes: controls (C0, DEL, C1), and invisible format characters (bidi, zero-width, BOM). */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/** The JSON path `$."name"` of a top-level field. */
const jsonPath = (name: string) => `$.${JSON.stringify(name)}`;

/** The element variable of a lambda: one no column is named. */
const variableFor = (column: string) => (column === "v" ? "w" : "v");
/** DuckDB's variable for the list of the record's fields (never v or w, so never an element's). */
const fieldsVariable = (column: string) => (column === "f" ? "g" : "f");

const duckdbKinds: Record<JsonKind, string> = {
  string: "= 'VARCHAR'",
  number: "IN ('BIGINT', 'UBIGINT', 'DOUBLE')",
  bool: "= 'BOOLEAN'",
  array: "= 'ARRAY'",
  object: "= 'OBJECT'",
  null: "= 'NULL'",
};

/**
 * DuckDB reads the JSON types and the texts of the fields a filter names in one pass each over the
 * record (`json_type` and `json_extract_string` with a list of paths, bound to a lambda's struct by
 * `record`): a JSON function over the whole record per comparison parsed the line each time
 * (bench/RESULTS.md, "eval on every core, against DuckDB").
 */
const duckdbKind = (ref: JsonRef) =>
  ref.kind === "field"
    ? `${fieldsVariable(ref.column)}.t[${ref.index + 1}]`
    : `json_type(${ref.variable}, '$')`;
const duckdbText = (ref: JsonRef) =>
  ref.kind === "field"
    ? `${fieldsVariable(ref.column)}.s[${ref.index + 1}]`
    : `json_extract_string(${ref.variable}, '$')`;

/** `expression` over the record's fields, read in one pass each and bound to a lambda's struct (see duckdbKind). */
function duckdbFields(column: string, expression: string, fields: readonly string[]): string {
  const record = duckdb.identifier(column);
  const paths = fields.map((name) => duckdb.string(jsonPath(name))).join(", ");
  const values = `{'t': json_type(${record}, [${paths}]), 's': json_extract_string(${record}, [${paths}])}`;
  return `list_transform([${values}], lambda ${fieldsVariable(column)}: ${expression})[1]`;
}

export const duckdb: Dialect = {
  name: "duckdb",
  string(text) {
    // Standard SQL: quotes doubled, backslashes plain; a hidden character joins as chr(code point).
    const parts: string[] = [];
    let last = 0;
    for (const match of text.matchAll(HIDDEN)) {
      if (match.index > last) parts.push(`'${text.slice(last, match.index).replaceAll("'", "''")}'`);
      parts.push(`chr(${match[0].codePointAt(0)})`);
      last = match.index + 1;
    }
    if (last < text.length || parts.length === 0) parts.push(`'${text.slice(last).replaceAll("'", "''")}'`);
    return parts.length === 1 ? parts[0]! : `(${parts.join(" || ")})`;
  },
  identifier: (name) => `"${name.replaceAll('"', '""')}"`,
  isKind: (ref, kind) => `${duckdbKind(ref)} ${duckdbKinds[kind]}`,
  text: duckdbText,
  fullMatch: (text, pattern) => `regexp_full_match(${text}, ${duckdb.string(pattern)})`,
  startsWith: (text, prefix) => `starts_with(${text}, ${prefix})`,
  endsWith: (text, suffix) => `ends_with(${text}, ${suffix})`,
  contains: (text, part) => `contains(${text}, ${part})`,
  decimal: (text) => `TRY_CAST(${text} AS DECIMAL(38, 18))`,
  double: (text) => `TRY_CAST(${text} AS DOUBLE)`,
  integer: (text) => `TRY_CAST(${text} AS HUGEINT)`,
  quotient: (dividend, divisor) => `((${dividend}) // ${divisor})`,
  firstGroup: (text, pattern) => `regexp_extract(${text}, ${duckdb.string(pattern)}, 1)`,
  ifElse: (condition, then, otherwise) => `CASE WHEN ${condition} THEN ${then} ELSE ${otherwise} END`,
  orFalse: (condition) => `COALESCE(${condition}, false)`,
  someElement(field, test) {
    const variable = variableFor(field.column);
    const elements = `json_extract(${duckdb.identifier(field.column)}, ${duckdb.string(`${jsonPath(field.name)}[*]`)})`;
    return `len(list_filter(${elements}, lambda ${variable}: ${test({ kind: "element", variable })})) > 0`;
  },
  // json_type and the extraction functions fail on text that is not JSON: such a row never reaches them.
  record: (column, condition, fields) => {
    const record = duckdb.identifier(column);
    const object = `json_type(${record}) = 'OBJECT'`;
    const test = condition === null ? object : `${object} AND ${duckdbFields(column, condition, fields)}`;
    return `CASE WHEN json_valid(${record}) THEN ${test} ELSE false END`;
  },
  recordCount: (column, expression, fields) => {
    const record = duckdb.identifier(column);
    const count = `CASE WHEN json_type(${record}) = 'OBJECT' THEN ${duckdbFields(column, expression, fields)} ELSE 0 END`;
    return `CASE WHEN json_valid(${record}) THEN ${count} ELSE 0 END`;
  },
  lines(locations) {
    const urls = locations.map((location) =>
      duckdb.string(
        location.kind === "file"
          ? location.path
          : location.kind === "https"
            ? location.url
            : `${location.kind}://${location.bucket}/${location.key}`,
      ),
    );
    const files = urls.length === 1 ? urls[0] : `[${urls.join(", ")}]`;
    // Malformed lines become NULL rows (counted by eval, kept by neither).
    return { table: `read_ndjson_objects(${files}, ignore_errors = true)`, column: "json" };
  },
};

const clickhouseKinds: Record<JsonKind, string> = {
  string: "= 'String'",
  number: "IN ('Int64', 'UInt64', 'Double')",
  bool: "= 'Bool'",
  array: "= 'Array'",
  object: "= 'Object'",
  null: "= 'Null'",
};

const clickhouseArgs = (ref: JsonRef) =>
  ref.kind === "field"
    ? `${clickhouse.identifier(ref.column)}, ${clickhouse.string(ref.name)}`
    : ref.variable;

/** A hidden character as the `\xNN` escapes of its UTF-8 bytes. */
const utf8Escapes = (character: string) =>
  [...new TextEncoder().encode(character)]
    .map((byte) => `\\x${byte.toString(16).toUpperCase().padStart(2, "0")}`)
    .join("");

export const clickhouse: Dialect = {
  name: "clickhouse",
  // ClickHouse reads backslash escapes in every string literal.
  string: (text) => `'${text.replace(/[\\']/g, "\\$&").replace(HIDDEN, utf8Escapes)}'`,
  identifier: (name) => `\`${name.replace(/[\\`]/g, "\\$&")}\``,
  isKind: (ref, kind) => `JSONType(${clickhouseArgs(ref)}) ${clickhouseKinds[kind]}`,
  text: (ref) => `JSONExtractString(${clickhouseArgs(ref)})`,
  fullMatch: (text, pattern) => `match(${text}, ${clickhouse.string(`^(?:${pattern})$`)})`,
  startsWith: (text, prefix) => `startsWith(${text}, ${prefix})`,
  endsWith: (text, suffix) => `endsWith(${text}, ${suffix})`,
  contains: (text, part) => `position(${text}, ${part}) > 0`,
  decimal: (text) => `toDecimal128OrNull(${text}, 18)`,
  double: (text) => `toFloat64OrNull(${text})`,
  integer: (text) => `toInt128OrNull(${text})`,
  quotient: (dividend, divisor) => `intDiv(${dividend}, ${divisor})`,
  firstGroup: (text, pattern) => `extract(${text}, ${clickhouse.string(pattern)})`,
  ifElse: (condition, then, otherwise) => `if(${condition}, ${then}, ${otherwise})`,
  orFalse: (condition) => `coalesce(${condition}, false)`,
  someElement(field, test) {
    const variable = variableFor(field.column);
    const elements = `JSONExtractArrayRaw(${clickhouseArgs(field)})`;
    return `arrayExists(${variable} -> ${test({ kind: "element", variable })}, ${elements})`;
  },
  // The JSON functions answer text that is not JSON with their defaults, never with an error.
  record: (column, condition) => {
    const object = `JSONType(${clickhouse.identifier(column)}) = 'Object'`;
    return condition === null ? object : `${object} AND (${condition})`;
  },
  recordCount: (column, expression) =>
    `if(JSONType(${clickhouse.identifier(column)}) = 'Object', ${expression}, 0)`,
  lines(locations) {
    const tables: string[] = [];
    for (const location of locations) {
      const table = clickhouseTable(location);
      if (typeof table !== "string") return table;
      tables.push(table);
    }
    const table =
      tables.length === 1
        ? tables[0]!
        : `(${tables.map((one) => `SELECT line FROM ${one}`).join(" UNION ALL ")})`;
    return { table, column: "line" };
  },
};

/** The table function that reads one location line by line. */
function clickhouseTable(location: Location): string | { problem: string } {
  const lines = (call: string, url: string) => `${call}(${clickhouse.string(url)}, 'LineAsString')`;
  switch (location.kind) {
    case "file":
      return lines("file", location.path);
    case "https":
      return lines("url", location.url);
    case "s3":
      return lines("s3", `https://${location.bucket}.s3.amazonaws.com/${location.key}`);
    case "r2":
      return {
        problem: `ClickHouse reads R2 through its S3 API: give the bucket's https URL instead (https://ACCOUNT_ID.r2.cloudflarestorage.com/${location.bucket}/${location.key})`,
      };
  }
}

export const dialects: Record<DialectName, Dialect> = { duckdb, clickhouse };
