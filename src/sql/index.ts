export { tableFields } from "./columns.js";
export { createTable } from "./create-table.js";
export type { Location } from "./dialect.js";
export { type DialectName, dialects } from "./dialects.js";
export { readsNumberExactly } from "./numbers.js";
export {
  countOf,
  createEvalKept,
  EVAL_KEPT,
  evalKeptGroups,
  groupsOf,
  groupValue,
  measureStatement,
  mergedGroups,
  r2Secret,
  s3Secret,
  secretValue,
  topGroups,
  typedStatement,
  type UnreadableTimesSql,
  unreadableTimesSql,
} from "./query-statements.js";
export { jsonPointer } from "./record-text.js";
export {
  COLUMNS_FORMS,
  type ColumnsForm,
  DEFAULT_COLUMN,
  parseLocation,
  type SqlOptions,
  type SqlResult,
  toSql,
} from "./to-sql.js";
export { readFields, type TypedRead, typedRead } from "./typed-read.js";
