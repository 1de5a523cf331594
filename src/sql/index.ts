export { type DialectName, dialects, jsonPointer, type Location } from "./dialect.js";
export { DEFAULT_COLUMN, parseLocation, type SqlOptions, type SqlResult, toSql } from "./to-sql.js";
