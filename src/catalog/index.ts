export {
  type Catalog,
  createCatalog,
  type ElementType,
  type FieldInfo,
  type FieldSpec,
  type FieldType,
} from "./catalog.js";
export {
  DEFAULT_DATASET,
  datasetNames,
  datasetScopes,
  getCatalog,
  knownDatasets,
  SCOPES,
  type ScopeKind,
} from "./datasets.js";
export {
  type FieldUnit,
  holdsAddresses,
  insteadOfUnfilterable,
  type NamedNumbers,
  namedNumbersOf,
  unitOf,
  type ValueForm,
  valueFormOf,
} from "./field-facts.js";
export {
  DAYS_TO_EPOCH,
  isTimestampField,
  RFC3339_TEXT,
  rfc3339Nanoseconds,
  rfc3339TextOf,
} from "./timestamps.js";
