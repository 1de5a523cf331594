import type { FieldInfo } from "../catalog/index.js";
import type { PositiveOperatorOn } from "../syntax/index.js";
import type { ColumnKind } from "./columns.js";

/**
 * One SQL engine, everything the translations need of it (wirefilter's `Compiler` trait is the
 * model): how it quotes, the column types of a typed table, the functions of the operators SQL has
 * no symbol for, reading a record held as JSON text, the table DDL and its reads of NDJSON. Each
 * engine is one module of `src/sql/engines/` implementing this interface whole, registered in
 * `src/sql/dialects.ts`; what all engines share (the structure of a filter, numbers, timestamps)
 * is written once in terms of it (translate.ts, typed.ts, numbers.ts, timestamps.ts). Every member
 * is required, so an engine that lacks one, or an operator or column kind added without it, is a
 * type error in the engine's module. Both engines read a record's text with their JSON functions,
 * never with inferred column types: DuckDB's and ClickHouse's NDJSON readers infer a column's type
 * from a sample, so `"0500"` stays text, a missing field becomes 0 or '' in ClickHouse, and a field
 * of mixed types loses values. Reading the text gives eval's answer whatever the other lines hold.
 */
export interface Dialect<Name extends string = string> {
  /** The name `toSql`'s `dialect` and `--dialect` take. */
  name: Name;
  /** The engine's name in messages ("DuckDB"). */
  title: string;

  // Quoting.
  /** A string literal; characters that would not show on a terminal are written as escapes. */
  string(text: string): string;
  identifier(name: string): string;

  // Types.
  /** The column type of each column kind in a typed table (columns.ts). */
  columnTypes: Readonly<Record<ColumnKind, string>>;
  /** Whether the engine's column names ignore case: then two fields' names may not differ in case alone. */
  caseInsensitiveColumns: boolean;
  /** An integer expression on 128 bits (a typed column's value, or a literal past 64 bits). */
  wide(value: string): string;
  /** Numeric text as an exact decimal of 38 digits, 18 after the point (NULL when it does not fit). */
  decimal(text: string): string;
  /** Numeric text as a double (NULL when it is none). */
  double(text: string): string;
  /** Text of an integer as one of 128 bits (NULL when it is none). */
  integer(text: string): string;

  // The operators: those SQL writes with a symbol (`=`, `IN`, `<` …) are the same in every engine.
  /** The text operators the engine writes with its own functions, each given the text and the literal. */
  textOperators: Readonly<Record<TextFunctionOperator, (text: string, literal: string) => string>>;
  /** Whether a typed array column holds the value (`contains`). */
  has(list: string, value: string): string;
  /** Whether a typed array column holds one of the values (`in`). */
  hasAny(list: string, values: readonly string[]): string;

  // Functions the shared translations are written with.
  /** Whether `text` matches the regular expression as a whole. */
  fullMatch(text: string, pattern: string): string;
  /** Whether some part of `text` matches the regular expression. */
  matches(text: string, pattern: string): string;
  /** `text` with each match of the regular expression replaced by `replacement` (an expression; `\\1` its first group). */
  replaceAll(text: string, pattern: string, replacement: string): string;
  /** What the first group of the regular expression captures in `text` (empty when it does not match). */
  firstGroup(text: string, pattern: string): string;
  /** Integer division, of numbers at least 0 (the engines round other quotients differently). */
  quotient(dividend: string, divisor: string): string;
  ifElse(condition: string, then: string, otherwise: string): string;
  /** A possibly NULL boolean as true or false: NULL (a missing value) is false. */
  orFalse(condition: string): string;

  // JSON access: a record held as JSON text.
  /** Whether the value is there and of this JSON type (false for a missing field or a column holding no object). */
  isKind(ref: JsonRef, kind: JsonKind): string;
  /** The value as text: a string's content, a number as written, `true`/`false`. */
  text(ref: JsonRef): string;
  /** Whether some element of the array field satisfies `test` (given the element's variable). */
  someElement(field: JsonRef & { kind: "field" }, test: (element: JsonRef) => string): string;
  /**
   * The whole test of a record held as JSON text in the expression `record`: whether it is a JSON
   * object as JSON.parse reads one (eval counts other lines as malformed and keeps none of them) and
   * then `condition` over its `fields` (the names the condition reads, in the order of their refs'
   * `index`); `otherwise` for any other text. `condition` null: every object passes.
   */
  recordTest(record: string, condition: string | null, fields: readonly string[], otherwise: string): string;

  // The table DDL and the reads of NDJSON.
  /** The `CREATE TABLE` statement of `table` with these column definitions, for records of `fields`. */
  createTable(table: string, columns: readonly string[], fields: readonly FieldInfo[]): string;
  /** A table of one row per line of NDJSON files (gzip or not), the line's text in `column`; or why the engine cannot read there. */
  lines(locations: readonly Location[]): { table: string; column: string } | { problem: string };
  /**
   * The typed read: a table of the NDJSON at `locations` with a column per field named, of the type
   * given, NULL where the field is missing or null, each line parsed once; or why it cannot read there.
   */
  fieldsRead(
    locations: readonly Location[],
    fields: readonly (readonly [name: string, type: string])[],
  ): { table: string } | { problem: string };
}

/** The text operators SQL has no symbol for: `eq` and `in` are `=` and `IN`. */
export type TextFunctionOperator = Exclude<PositiveOperatorOn<"string">, "eq" | "in">;

/**
 * A JSON value of one record: a top-level field of the record (`index`: its place among the fields
 * the filter names), or an array element bound by a lambda. The record's text is bound to a lambda's
 * variable by `recordTest`, so no expression inside names the column (a column of any name, such as
 * DuckDB's case-insensitive `F` or `V`, cannot be taken for a variable).
 */
export type JsonRef = { kind: "field"; name: string; index: number } | { kind: "element"; variable: string };

/** The JSON types a comparison tells apart. */
export type JsonKind = "string" | "number" | "bool" | "array" | "object" | "null";

/**
 * Where `--from` reads: local files (a path or glob the engine expands, or files named exactly, gzip
 * or not as their first bytes say), an S3 or R2 bucket, or an HTTPS URL.
 */
export type Location =
  | { kind: "file"; path: string }
  | { kind: "local"; paths: readonly string[]; gzip: boolean }
  | { kind: "s3" | "r2"; bucket: string; key: string }
  | { kind: "https"; url: string };
