import { type DialectName, dialects } from "../sql/index.js";
import { UsageError } from "./io.js";

/** `--dialect D`, which `sql` and `schema` both require. */
export function parseDialect(value: string | undefined): DialectName {
  if (value === undefined) throw new UsageError("say which SQL: --dialect duckdb or --dialect clickhouse");
  if (!(value in dialects))
    throw new UsageError(`unknown dialect ${JSON.stringify(value)}; filterc writes duckdb and clickhouse`);
  return value as DialectName;
}

/** `--fields A,B,…`: the names, in order; undefined when the flag is not given. */
export function parseFieldList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value.split(",").map((name) => name.trim());
  if (names.some((name) => name === ""))
    throw new UsageError("--fields takes field names separated by commas, none of them empty");
  return names;
}
