import type { Dialect } from "./dialect.js";
import { clickhouse } from "./engines/clickhouse.js";
import { duckdb } from "./engines/duckdb.js";

/** The SQL dialects `toSql` writes, one per engine. */
export type DialectName = "duckdb" | "clickhouse";

/**
 * Every engine under its name. A new engine is its module in `src/sql/engines/` (the whole
 * Dialect interface), its name here, and its conformance run (`test/sql/engines.ts`).
 */
export const dialects: { readonly [Name in DialectName]: Dialect<Name> } = { duckdb, clickhouse };
