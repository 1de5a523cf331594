export {
  type Catalog,
  createCatalog,
  type ElementType,
  type FieldInfo,
  type FieldSpec,
  type FieldType,
  fieldInfo,
} from "./catalog.js";
export {
  DEFAULT_DATASET,
  datasetNames,
  datasetScopes,
  getCatalog,
  knownDatasets,
  SCOPES,
  type Scope,
} from "./datasets.js";
