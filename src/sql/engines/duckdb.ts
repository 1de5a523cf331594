import type { Dialect, JsonKind, JsonRef, Location } from "../dialect.js";
import { createStatement, ELEMENT, HIDDEN, jsonPointer, LINE, readable } from "../record-text.js";

/** DuckDB (embedded by `filterc query`, or any DuckDB a user runs `filterc sql`'s output in). */

/** The lambda's variable of the struct of a record's fields' types and texts (see duckdbKind). */
const FIELDS = "f";

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

const kinds: Record<JsonKind, string> = {
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
 * `recordTest`): a JSON function over the whole record per comparison parsed the line each time
 * (bench/RESULTS.md, "eval on every core, against DuckDB").
 */
const kindOf = (ref: JsonRef) =>
  ref.kind === "field" ? `${FIELDS}[1][${ref.index + 1}]` : `json_type(${ref.variable}, '$')`;
const textOf = (ref: JsonRef) =>
  ref.kind === "field" ? `${FIELDS}[2][${ref.index + 1}]` : `json_extract_string(${ref.variable}, '$')`;

/**
 * `expression` over the record's fields, read in one pass each and bound to a lambda's variable as
 * the list of their types and the list of their texts (see kindOf). Not a struct: DuckDB reads
 * `f.t` as the field t of a column named F, when there is one.
 */
function withFields(expression: string, fields: readonly string[]): string {
  const paths = fields.map((name) => duckdb.string(jsonPointer(name))).join(", ");
  const values = `[json_type(${LINE}, [${paths}]), json_extract_string(${LINE}, [${paths}])]`;
  return `list_transform([${values}], lambda ${FIELDS}: ${expression})[1]`;
}

/**
 * One table of DuckDB's reads of `locations`, `read(files, compression option)` each, `columns` of
 * each joined: local files named exactly, one read per kind of compression, the others together.
 */
function reads(
  locations: readonly Location[],
  read: (files: string, compression: string) => string,
  columns: string,
): string {
  const readOf = (urls: string[], compression = "") =>
    read(urls.length === 1 ? urls[0]! : `[${urls.join(", ")}]`, compression);
  const all: string[] = [];
  const others: string[] = [];
  for (const location of locations) {
    if (location.kind === "local") {
      // Each name matches only itself: DuckDB expands * ? [ in a name, and a class of one names it.
      const exact = location.paths.map((path) => duckdb.string(path.replace(/[*?[]/g, "[$&]")));
      all.push(readOf(exact, `, compression = '${location.gzip ? "gzip" : "uncompressed"}'`));
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
  if (others.length > 0) all.unshift(readOf(others));
  return all.length === 1
    ? all[0]!
    : `(${all.map((one) => `SELECT ${columns} FROM ${one}`).join(" UNION ALL ")})`;
}

export const duckdb: Dialect<"duckdb"> = {
  name: "duckdb",
  title: "DuckDB",
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
  columnTypes: {
    string: "VARCHAR",
    int: "HUGEINT",
    timestamp: "BIGINT",
    float: "DOUBLE",
    bool: "BOOLEAN",
    strings: "VARCHAR[]",
    ints: "HUGEINT[]",
    object: "JSON",
    objects: "JSON[]",
  },
  caseInsensitiveColumns: true,
  wide: (value) => `CAST(${value} AS HUGEINT)`,
  decimal: (text) => `TRY_CAST(${text} AS DECIMAL(38, 18))`,
  double: (text) => `TRY_CAST(${text} AS DOUBLE)`,
  integer: (text) => `TRY_CAST(${text} AS HUGEINT)`,
  textOperators: {
    startsWith: (text, prefix) => `starts_with(${text}, ${prefix})`,
    endsWith: (text, suffix) => `ends_with(${text}, ${suffix})`,
    contains: (text, part) => `contains(${text}, ${part})`,
  },
  has: (list, value) => `list_contains(${list}, ${value})`,
  hasAny: (list, values) => `list_has_any(${list}, [${values.join(", ")}])`,
  fullMatch: (text, pattern) => `regexp_full_match(${text}, ${duckdb.string(pattern)})`,
  matches: (text, pattern) => `regexp_matches(${text}, ${duckdb.string(pattern)})`,
  replaceAll: (text, pattern, replacement) =>
    `regexp_replace(${text}, ${duckdb.string(pattern)}, ${replacement}, 'g')`,
  firstGroup: (text, pattern) => `regexp_extract(${text}, ${duckdb.string(pattern)}, 1)`,
  quotient: (dividend, divisor) => `((${dividend}) // ${divisor})`,
  ifElse: (condition, then, otherwise) => `CASE WHEN ${condition} THEN ${then} ELSE ${otherwise} END`,
  orFalse: (condition) => `COALESCE(${condition}, false)`,
  isKind: (ref, kind) => `${kindOf(ref)} ${kinds[kind]}`,
  text: textOf,
  someElement(field, test) {
    const array = `json_extract(${LINE}, ${duckdb.string(jsonPointer(field.name))})`;
    const elements = `json_extract(${array}, '$[*]')`;
    return `len(list_filter(${elements}, lambda ${ELEMENT}: ${test({ kind: "element", variable: ELEMENT })})) > 0`;
  },
  // json_type and the extraction functions fail on text that is not JSON: such a row never reaches them.
  recordTest(record, condition, fields, otherwise) {
    const test = condition === null ? "true" : withFields(condition, fields);
    const text = readable(duckdb, record);
    const strict = `(NOT ${duckdb.matches(LINE, LENIENT_JSON_HINT)} OR ${duckdb.fullMatch(LINE, STRICT_JSON_TOKENS)})`;
    const object = `json_valid(${LINE}) AND ${strict} AND json_type(${LINE}) = 'OBJECT'`;
    return `list_transform([${text}], lambda ${LINE}: CASE WHEN ${object} THEN ${test} ELSE ${otherwise} END)[1]`;
  },
  createTable: (table, columns) => `${createStatement(table, columns)};\n`,
  lines(locations) {
    // Malformed lines become NULL rows (counted by eval, kept by neither).
    const table = reads(
      locations,
      (files, compression) => `read_ndjson_objects(${files}, ignore_errors = true${compression})`,
      "json",
    );
    return { table, column: "json" };
  },
  // It fails on a line it cannot read (malformed, no object, a key twice, a value it cannot
  // convert), where `read_ndjson_objects` gives a row that no filter keeps.
  fieldsRead(locations, fields) {
    const types = fields.map(([name, type]) => `${duckdb.string(name)}: '${type}'`).join(", ");
    const table = reads(
      locations,
      (files, compression) =>
        `read_ndjson(${files}, columns = {${types}}, records = true, ignore_errors = false${compression})`,
      fields.map(([name]) => duckdb.identifier(name)).join(", "),
    );
    return { table };
  },
};
