import { type FieldInfo, isTimestampField } from "../../catalog/index.js";
import type { Dialect, JsonKind, JsonRef, Location } from "../dialect.js";
import { createStatement, ELEMENT, HIDDEN, LINE, readable } from "../record-text.js";

/** ClickHouse (`filterc sql --dialect clickhouse`; the tests run it embedded, as chdb). */

const kinds: Record<JsonKind, string> = {
  string: "= 'String'",
  number: "IN ('Int64', 'UInt64', 'Double')",
  bool: "= 'Bool'",
  array: "= 'Array'",
  object: "= 'Object'",
  null: "= 'Null'",
};

const args = (ref: JsonRef) =>
  ref.kind === "field" ? `${LINE}, ${clickhouse.string(ref.name)}` : ref.variable;

/** A hidden character as the `\xNN` escapes of its UTF-8 bytes. */
const utf8Escapes = (character: string) =>
  [...new TextEncoder().encode(character)]
    .map((byte) => `\\x${byte.toString(16).toUpperCase().padStart(2, "0")}`)
    .join("");

/** The timestamp field a table is ordered by: the request's start where there is one. */
const ORDER_KEYS = ["EdgeStartTimestamp", "Datetime", "Timestamp"];

function orderKey(fields: readonly FieldInfo[]): FieldInfo | undefined {
  const timestamps = fields.filter(isTimestampField);
  return (
    ORDER_KEYS.map((name) => timestamps.find((field) => field.name === name)).find(Boolean) ??
    timestamps.find((field) => field.name.includes("Start")) ??
    timestamps[0]
  );
}

/**
 * The table functions that read one location in `format` (`structure`: its columns, when the
 * format does not say them), or why one cannot be read.
 */
function tables(location: Location, format: string, structure: string): string[] | { problem: string } {
  const read = (call: string, url: string) =>
    `${call}(${clickhouse.string(url)}, ${clickhouse.string(format)}${structure ? `, ${clickhouse.string(structure)}` : ""})`;
  switch (location.kind) {
    case "file":
      return [read("file", location.path)];
    case "local": {
      // file() expands * ? { } in a name, with no escape for them.
      const globbing = location.paths.find((path) => /[*?{}]/.test(path));
      if (globbing !== undefined)
        return {
          problem: `ClickHouse's file() reads * ? { } in a file's name as a glob, with no escape: ${JSON.stringify(globbing)} cannot be named`,
        };
      const compression = clickhouse.string(location.gzip ? "gzip" : "none");
      const columns = clickhouse.string(structure || "line String");
      return location.paths.map(
        (path) =>
          `file(${clickhouse.string(path)}, ${clickhouse.string(format)}, ${columns}, ${compression})`,
      );
    }
    case "https":
      return [read("url", location.url)];
    case "s3":
      return [read("s3", `https://${location.bucket}.s3.amazonaws.com/${location.key}`)];
    case "r2":
      return {
        problem: `ClickHouse reads R2 through its S3 API: give the bucket's https URL instead (https://ACCOUNT_ID.r2.cloudflarestorage.com/${location.bucket}/${location.key})`,
      };
  }
}

/** One table of the reads of every location, `columns` of each joined; or why one cannot be read. */
function union(
  locations: readonly Location[],
  format: string,
  structure: string,
  columns: string,
): { table: string } | { problem: string } {
  const all: string[] = [];
  for (const location of locations) {
    const read = tables(location, format, structure);
    if (!Array.isArray(read)) return read;
    all.push(...read);
  }
  return {
    table:
      all.length === 1
        ? all[0]!
        : `(${all.map((one) => `SELECT ${columns} FROM ${one}`).join(" UNION ALL ")})`,
  };
}

export const clickhouse: Dialect<"clickhouse"> = {
  name: "clickhouse",
  title: "ClickHouse",
  // ClickHouse reads backslash escapes in every string literal.
  string: (text) => `'${text.replace(/[\\']/g, "\\$&").replace(HIDDEN, utf8Escapes)}'`,
  identifier: (name) => `\`${name.replace(/[\\`]/g, "\\$&")}\``,
  columnTypes: {
    string: "Nullable(String)",
    int: "Nullable(Int128)",
    timestamp: "Nullable(Int64)",
    float: "Nullable(Float64)",
    bool: "Nullable(Bool)",
    strings: "Array(Nullable(String))",
    ints: "Array(Nullable(Int128))",
    object: "Nullable(JSON)",
    objects: "Array(JSON)",
  },
  caseInsensitiveColumns: false,
  wide: (value) => `toInt128(${value})`,
  decimal: (text) => `toDecimal128OrNull(${text}, 18)`,
  double: (text) => `toFloat64OrNull(${text})`,
  integer: (text) => `toInt128OrNull(${text})`,
  textOperators: {
    startsWith: (text, prefix) => `startsWith(${text}, ${prefix})`,
    endsWith: (text, suffix) => `endsWith(${text}, ${suffix})`,
    contains: (text, part) => `position(${text}, ${part}) > 0`,
  },
  has: (list, value) => `has(${list}, ${value})`,
  hasAny: (list, values) => `hasAny(${list}, [${values.join(", ")}])`,
  fullMatch: (text, pattern) => `match(${text}, ${clickhouse.string(`^(?:${pattern})$`)})`,
  matches: (text, pattern) => `match(${text}, ${clickhouse.string(pattern)})`,
  replaceAll: (text, pattern, replacement) =>
    `replaceRegexpAll(${text}, ${clickhouse.string(pattern)}, ${replacement})`,
  firstGroup: (text, pattern) => `extract(${text}, ${clickhouse.string(pattern)})`,
  quotient: (dividend, divisor) => `intDiv(${dividend}, ${divisor})`,
  ifElse: (condition, then, otherwise) => `if(${condition}, ${then}, ${otherwise})`,
  orFalse: (condition) => `coalesce(${condition}, false)`,
  isKind: (ref, kind) => `JSONType(${args(ref)}) ${kinds[kind]}`,
  text: (ref) => `JSONExtractString(${args(ref)})`,
  someElement(field, test) {
    const elements = `JSONExtractArrayRaw(${args(field)})`;
    return `arrayExists(${ELEMENT} -> ${test({ kind: "element", variable: ELEMENT })}, ${elements})`;
  },
  // The JSON functions answer text that is not JSON with their defaults, never with an error.
  // ClickHouse's parser is stricter than DuckDB's, but reads a line starting with a byte order
  // mark, which JSON.parse does not.
  recordTest(record, condition, _fields, otherwise) {
    const text = readable(clickhouse, record);
    const object = `JSONType(${LINE}) = 'Object' AND NOT startsWith(${LINE}, ${clickhouse.string("\ufeff")})`;
    return `arrayMap(${LINE} -> if(${object}, ${condition ?? "true"}, ${otherwise}), [${text}])[1]`;
  },
  createTable(table, columns, fields) {
    const key = orderKey(fields);
    // The key may be missing from a record: a Nullable key needs the setting.
    const order = key
      ? `ORDER BY ${clickhouse.identifier(key.name)}\nSETTINGS allow_nullable_key = 1`
      : "ORDER BY tuple()";
    return `${createStatement(table, columns)}\nENGINE = MergeTree\n${order};\n`;
  },
  lines(locations) {
    const read = union(locations, "LineAsString", "", "line");
    return "problem" in read ? read : { table: read.table, column: "line" };
  },
  fieldsRead(locations, fields) {
    const structure = fields.map(([name, type]) => `${clickhouse.identifier(name)} ${type}`).join(", ");
    return union(
      locations,
      "JSONEachRow",
      structure,
      fields.map(([name]) => clickhouse.identifier(name)).join(", "),
    );
  },
};
