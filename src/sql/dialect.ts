/**
 * What differs between the SQL engines: how a literal and an identifier are written, and the JSON
 * functions that read one value of a record held as JSON text. Everything else is shared (see
 * translate.ts). Both engines read the record's text with their JSON functions, never with inferred
 * column types: DuckDB's and ClickHouse's NDJSON readers infer a column's type from a sample, so
 * `"0500"` stays text, a missing field becomes 0 or '' in ClickHouse, and a field of mixed types
 * loses values. Reading the text gives eval's answer whatever the other lines hold.
 */

/**
 * A JSON value of one record: a top-level field of the record (`index`: its place among the fields
 * the filter names), or an array element bound by a lambda. The record's text is bound to a lambda's
 * variable by `record`, so no expression inside names the column (a column of any name, such as
 * DuckDB's case-insensitive `F` or `V`, cannot be taken for a variable).
 */
export type JsonRef = { kind: "field"; name: string; index: number } | { kind: "element"; variable: string };

/** The JSON types a comparison tells apart. */
type JsonKind = "string" | "number" | "bool" | "array" | "object" | "null";

/** The SQL dialects `toSql` writes. */
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
  /** Whether some part of `text` matches the regular expression. */
  matches(text: string, pattern: string): string;
  /** `text` with each match of the regular expression replaced by `replacement` (an expression; `\\1` its first group). */
  replaceAll(text: string, pattern: string, replacement: string): string;
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
   * The whole test of a row: whether the column holds a JSON object as JSON.parse reads one (eval
   * counts other lines as malformed and keeps none of them) and, when there is a filter, whether it
   * passes; `fields` are the names the condition reads, in the order of their refs' `index`.
   */
  record(column: string, condition: string | null, fields: readonly string[]): string;
  /** An integer expression over the fields of each row holding a JSON object (0 for any other row), as `record` binds them. */
  recordCount(column: string, expression: string, fields: readonly string[]): string;
  /** A table of one row per line of NDJSON files (gzip or not), the line's text in `column`; or why the engine cannot read there. */
  lines(locations: readonly Location[]): { table: string; column: string } | { problem: string };
}

/**
 * Where `--from` reads: local files (a path or glob the engine expands, or files named exactly, gzip
 * or not as their first bytes say), an S3 or R2 bucket, or an HTTPS URL.
 */
export type Location =
  | { kind: "file"; path: string }
  | { kind: "local"; paths: readonly string[]; gzip: boolean }
  | { kind: "s3" | "r2"; bucket: string; key: string }
  | { kind: "https"; url: string };

/** Characters written as escapes: controls (C0, DEL, C1), and invisible format characters (bidi, zero-width, BOM). */
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * The lambdas' variables: the record's text, the struct of its fields' types and texts (DuckDB), an
 * array element. Only the column is named outside them, so no name of a column can capture one.
 */
const LINE = "l";
const FIELDS = "f";
const ELEMENT = "v";

/**
 * The JSON Pointer (RFC 6901) of a top-level field: it names any key, also one that is empty or
 * holds `*`, quotes or control characters, which DuckDB's `$."name"` paths do not all reach.
 */
export const jsonPointer = (name: string) => `/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`;

/** A JSON string in RE2 (both engines' regular expressions): any escape, as JSON.parse checks them after. */
const JSON_STRING = String.raw`"(?:[^"\\]|\\.)*"`;
/**
 * JSON text whose tokens JSON.parse accepts, given that the engine's parser read it: DuckDB's
 * `json_valid` also takes a comma before `]` or `}` and the numbers NaN and Infinity (any case, `inf`
 * and `nan` too), which this rules out. Outside strings only structure, numbers and the three
 * literals may stand, and a comma is followed by a value or a key.
 */
const STRICT_JSON_TOKENS = `(?:[-+0-9.eE \\t\\n\\r:\\[\\]{}]|${JSON_STRING}|true|false|null|,[ \\t\\n\\r]*(?:${JSON_STRING}|true|false|null|[-0-9\\[{]))*`;

/**
 * Where DuckDB's leniency may be: a comma before `]` or `}`, or a value starting as NaN or Infinity
 * do (also in a string, where it is none). Most lines show none, and skip STRICT_JSON_TOKENS.
 */
const LENIENT_JSON_HINT = String.raw`,[ \t\n\r]*[\]}]|[:,\[][ \t\n\r]*[-+]?(?:[nN][aA]|[iI][nN])`;

/**
 * The record's text with each escape of half a surrogate pair (`\ud800` alone) written as U+FFFD's:
 * JSON.parse reads such a string, and eval keeps its record, but neither engine's JSON functions
 * read it. No filter's string holds half a pair, so no comparison tells it from U+FFFD but one of a
 * string holding U+FFFD, which translate refuses. Escaped backslashes are set aside first (so `\\ud800`
 * stays text), then the whole pairs, with the character U+0001, which no JSON text holds raw (a
 * text holding it is left as it is, as is one holding no such escape).
 */
function readable(dialect: Dialect, text: string): string {
  const mark = dialect.string("\u0001");
  const replace = (of: string, pattern: string, by: string) => dialect.replaceAll(of, pattern, by);
  const hex = "[0-9a-fA-F]";
  let rewritten = replace(text, String.raw`\\\\`, `${mark} || ${mark}`);
  rewritten = replace(
    rewritten,
    String.raw`\\(u[dD][89abAB]${hex}{2})\\(u[dD][c-fC-F]${hex}{2})`,
    `${mark} || ${dialect.string(String.raw`\1`)} || ${mark} || ${dialect.string(String.raw`\2`)}`,
  );
  rewritten = replace(rewritten, String.raw`\\u[dD][89a-fA-F]${hex}{2}`, dialect.string(String.raw`\\ufffd`));
  // A class, not the character alone: ClickHouse takes a pattern of no special characters for
  // plain text, and its replacement then for plain text too.
  rewritten = replace(rewritten, "[\u0001]", dialect.string(String.raw`\\`));
  const halfPair = dialect.matches(text, String.raw`\\u[dD][89a-fA-F]`);
  return dialect.ifElse(`${halfPair} AND NOT ${dialect.contains(text, mark)}`, rewritten, text);
}

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
  ref.kind === "field" ? `${FIELDS}[1][${ref.index + 1}]` : `json_type(${ref.variable}, '$')`;
const duckdbText = (ref: JsonRef) =>
  ref.kind === "field" ? `${FIELDS}[2][${ref.index + 1}]` : `json_extract_string(${ref.variable}, '$')`;

/**
 * `expression` over the record's fields, read in one pass each and bound to a lambda's variable as
 * the list of their types and the list of their texts (see duckdbKind). Not a struct: DuckDB reads
 * `f.t` as the field t of a column named F, when there is one.
 */
function duckdbFields(expression: string, fields: readonly string[]): string {
  const paths = fields.map((name) => duckdb.string(jsonPointer(name))).join(", ");
  const values = `[json_type(${LINE}, [${paths}]), json_extract_string(${LINE}, [${paths}])]`;
  return `list_transform([${values}], lambda ${FIELDS}: ${expression})[1]`;
}

/**
 * `test` of the record's text (an expression) bound to LINE when it is a JSON object as JSON.parse
 * reads one, else `otherwise`. json_type and the extraction functions fail on text that is not JSON:
 * such a row never reaches them.
 */
function duckdbRecord(record: string, test: string, otherwise: string): string {
  const text = readable(duckdb, record);
  const strict = `(NOT ${duckdb.matches(LINE, LENIENT_JSON_HINT)} OR ${duckdb.fullMatch(LINE, STRICT_JSON_TOKENS)})`;
  const object = `json_valid(${LINE}) AND ${strict} AND json_type(${LINE}) = 'OBJECT'`;
  return `list_transform([${text}], lambda ${LINE}: CASE WHEN ${object} THEN ${test} ELSE ${otherwise} END)[1]`;
}

const duckdb: Dialect = {
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
  matches: (text, pattern) => `regexp_matches(${text}, ${duckdb.string(pattern)})`,
  replaceAll: (text, pattern, replacement) =>
    `regexp_replace(${text}, ${duckdb.string(pattern)}, ${replacement}, 'g')`,
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
    const array = `json_extract(${LINE}, ${duckdb.string(jsonPointer(field.name))})`;
    const elements = `json_extract(${array}, '$[*]')`;
    return `len(list_filter(${elements}, lambda ${ELEMENT}: ${test({ kind: "element", variable: ELEMENT })})) > 0`;
  },
  record: (column, condition, fields) =>
    duckdbRecord(
      duckdb.identifier(column),
      condition === null ? "true" : duckdbFields(condition, fields),
      "false",
    ),
  recordCount: (column, expression, fields) =>
    duckdbRecord(duckdb.identifier(column), duckdbFields(expression, fields), "0"),
  lines(locations) {
    // Malformed lines become NULL rows (counted by eval, kept by neither).
    const table = duckdbReads(
      locations,
      (files, compression) => `read_ndjson_objects(${files}, ignore_errors = true${compression})`,
      "json",
    );
    return { table, column: "json" };
  },
};

/**
 * One table of DuckDB's reads of `locations`, `read(files, compression option)` each, `columns` of
 * each joined: local files named exactly, one read per kind of compression, the others together.
 */
function duckdbReads(
  locations: readonly Location[],
  read: (files: string, compression: string) => string,
  columns: string,
): string {
  const readOf = (urls: string[], compression = "") =>
    read(urls.length === 1 ? urls[0]! : `[${urls.join(", ")}]`, compression);
  const reads: string[] = [];
  const others: string[] = [];
  for (const location of locations) {
    if (location.kind === "local") {
      // Each name matches only itself: DuckDB expands * ? [ in a name, and a class of one names it.
      const exact = location.paths.map((path) => duckdb.string(path.replace(/[*?[]/g, "[$&]")));
      reads.push(readOf(exact, `, compression = '${location.gzip ? "gzip" : "uncompressed"}'`));
    } else
      others.push(
        duckdb.string(
          location.kind === "file"
            ? location.path
            : location.kind === "https"
              ? location.url
              : `${location.kind}://${location.bucket}/${location.key}`,
        ),
      );
  }
  if (others.length > 0) reads.unshift(readOf(others));
  return reads.length === 1
    ? reads[0]!
    : `(${reads.map((one) => `SELECT ${columns} FROM ${one}`).join(" UNION ALL ")})`;
}

/**
 * DuckDB's read of the NDJSON at `locations` into a column per field named, of the type given (JSON:
 * the field's value as DuckDB writes it back), NULL where the field is missing or null, parsing
 * each line once. It fails on a line it cannot read (malformed, no object, a key twice, a value it
 * cannot convert), where `read_ndjson_objects` gives a row that no filter keeps.
 */
export function duckdbFieldsRead(
  locations: readonly Location[],
  fields: readonly (readonly [name: string, type: string])[],
): string {
  const types = fields.map(([name, type]) => `${duckdb.string(name)}: '${type}'`).join(", ");
  return duckdbReads(
    locations,
    (files, compression) =>
      `read_ndjson(${files}, columns = {${types}}, records = true, ignore_errors = false${compression})`,
    fields.map(([name]) => duckdb.identifier(name)).join(", "),
  );
}

/**
 * The test of a record held as JSON text in the expression `record` (not a column), as the JSON-text
 * SQL tests one: false for text that is no JSON object as JSON.parse reads one.
 */
export function duckdbRecordTest(record: string, condition: string, fields: readonly string[]): string {
  return duckdbRecord(record, duckdbFields(condition, fields), "false");
}

const clickhouseKinds: Record<JsonKind, string> = {
  string: "= 'String'",
  number: "IN ('Int64', 'UInt64', 'Double')",
  bool: "= 'Bool'",
  array: "= 'Array'",
  object: "= 'Object'",
  null: "= 'Null'",
};

const clickhouseArgs = (ref: JsonRef) =>
  ref.kind === "field" ? `${LINE}, ${clickhouse.string(ref.name)}` : ref.variable;

/**
 * `test` of the record's text bound to LINE when it is a JSON object as JSON.parse reads one, else
 * `otherwise`. ClickHouse's parser is stricter than DuckDB's, but reads a line starting with a byte
 * order mark, which JSON.parse does not.
 */
function clickhouseRecord(column: string, test: string, otherwise: string): string {
  const text = readable(clickhouse, clickhouse.identifier(column));
  const object = `JSONType(${LINE}) = 'Object' AND NOT startsWith(${LINE}, ${clickhouse.string("\ufeff")})`;
  return `arrayMap(${LINE} -> if(${object}, ${test}, ${otherwise}), [${text}])[1]`;
}

/** A hidden character as the `\xNN` escapes of its UTF-8 bytes. */
const utf8Escapes = (character: string) =>
  [...new TextEncoder().encode(character)]
    .map((byte) => `\\x${byte.toString(16).toUpperCase().padStart(2, "0")}`)
    .join("");

const clickhouse: Dialect = {
  name: "clickhouse",
  // ClickHouse reads backslash escapes in every string literal.
  string: (text) => `'${text.replace(/[\\']/g, "\\$&").replace(HIDDEN, utf8Escapes)}'`,
  identifier: (name) => `\`${name.replace(/[\\`]/g, "\\$&")}\``,
  isKind: (ref, kind) => `JSONType(${clickhouseArgs(ref)}) ${clickhouseKinds[kind]}`,
  text: (ref) => `JSONExtractString(${clickhouseArgs(ref)})`,
  fullMatch: (text, pattern) => `match(${text}, ${clickhouse.string(`^(?:${pattern})$`)})`,
  matches: (text, pattern) => `match(${text}, ${clickhouse.string(pattern)})`,
  replaceAll: (text, pattern, replacement) =>
    `replaceRegexpAll(${text}, ${clickhouse.string(pattern)}, ${replacement})`,
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
    const elements = `JSONExtractArrayRaw(${clickhouseArgs(field)})`;
    return `arrayExists(${ELEMENT} -> ${test({ kind: "element", variable: ELEMENT })}, ${elements})`;
  },
  // The JSON functions answer text that is not JSON with their defaults, never with an error.
  record: (column, condition) => clickhouseRecord(column, condition ?? "true", "false"),
  recordCount: (column, expression) => clickhouseRecord(column, expression, "0"),
  lines(locations) {
    const tables: string[] = [];
    for (const location of locations) {
      const table = clickhouseTables(location);
      if (!Array.isArray(table)) return table;
      tables.push(...table);
    }
    const table =
      tables.length === 1
        ? tables[0]!
        : `(${tables.map((one) => `SELECT line FROM ${one}`).join(" UNION ALL ")})`;
    return { table, column: "line" };
  },
};

/** The table functions that read one location line by line. */
function clickhouseTables(location: Location): string[] | { problem: string } {
  const lines = (call: string, url: string) => `${call}(${clickhouse.string(url)}, 'LineAsString')`;
  switch (location.kind) {
    case "file":
      return [lines("file", location.path)];
    case "local": {
      // file() expands * ? { } in a name, with no escape for them.
      const globbing = location.paths.find((path) => /[*?{}]/.test(path));
      if (globbing !== undefined)
        return {
          problem: `ClickHouse's file() reads * ? { } in a file's name as a glob, with no escape: ${JSON.stringify(globbing)} cannot be named`,
        };
      const compression = clickhouse.string(location.gzip ? "gzip" : "none");
      return location.paths.map(
        (path) => `file(${clickhouse.string(path)}, 'LineAsString', 'line String', ${compression})`,
      );
    }
    case "https":
      return [lines("url", location.url)];
    case "s3":
      return [lines("s3", `https://${location.bucket}.s3.amazonaws.com/${location.key}`)];
    case "r2":
      return {
        problem: `ClickHouse reads R2 through its S3 API: give the bucket's https URL instead (https://ACCOUNT_ID.r2.cloudflarestorage.com/${location.bucket}/${location.key})`,
      };
  }
}

export const dialects: Record<DialectName, Dialect> = { duckdb, clickhouse };
