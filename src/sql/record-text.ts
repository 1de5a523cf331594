import type { Dialect } from "./dialect.js";

/*
 * What every engine's reading of a record held as JSON text shares: the lambdas' variables, the
 * JSON pointer of a field, the characters a literal escapes, and the rewrite of lone surrogate
 * escapes that neither engine's JSON functions read.
 */

/** Characters written as escapes: controls (C0, DEL, C1), and invisible format characters (bidi, zero-width, BOM). */
export const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * The lambdas' variables: the record's text, an array element. Only the column is named outside
 * them, so no name of a column can capture one.
 */
export const LINE = "l";
export const ELEMENT = "v";

/**
 * The JSON Pointer (RFC 6901) of a top-level field: it names any key, also one that is empty or
 * holds `*`, quotes or control characters, which DuckDB's `$."name"` paths do not all reach.
 */
export const jsonPointer = (name: string) => `/${name.replaceAll("~", "~0").replaceAll("/", "~1")}`;

/**
 * The record's text with each escape of half a surrogate pair (`\ud800` alone) written as U+FFFD's:
 * JSON.parse reads such a string, and eval keeps its record, but neither engine's JSON functions
 * read it. No filter's string holds half a pair, so no comparison tells it from U+FFFD but one of a
 * string holding U+FFFD, which translate refuses. Escaped backslashes are set aside first (so `\\ud800`
 * stays text), then the whole pairs, with the character U+0001, which no JSON text holds raw (a
 * text holding it is left as it is, as is one holding no such escape).
 */
export function readable(dialect: Dialect, text: string): string {
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
  return dialect.ifElse(`${halfPair} AND NOT ${dialect.textOperators.contains(text, mark)}`, rewritten, text);
}

/** The `CREATE TABLE` of `table` (an identifier) with these column definitions, before any clause an engine adds. */
export const createStatement = (table: string, columns: readonly string[]) =>
  `CREATE TABLE ${table} (\n${columns.join(",\n")}\n)`;
