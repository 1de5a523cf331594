export { createTable, tableFields } from "./columns.js";
export { type DialectName, dialects, jsonPointer, type Location } from "./dialect.js";
export {
  COLUMNS_FORMS,
  type ColumnsForm,
  DEFAULT_COLUMN,
  parseLocation,
  type SqlOptions,
  type SqlResult,
  toSql,
} from "./to-sql.js";
export { type TypedRead, typedRead } from "./typed-read.js";
