import { expectArgument, isObject, isString } from "../diagnostics/index.js";

/** The type of a field as Logpush filters see it. */
export type FieldType = "string" | "int" | "float" | "bool" | "array" | "object";

/** The type of each element of an array field. */
export type ElementType = "string" | "int" | "object";

/** One field of a dataset: its name, type and whether a filter may use it. */
export interface FieldInfo {
  name: string;
  type: FieldType;
  /** For `array` fields: the element type (`array[int]` → `int`). */
  elementType?: ElementType;
  /** The type as the documentation writes it, e.g. `array[int]` or `int or string`. */
  docType: string;
  description: string;
  deprecated: boolean;
  /** False for objects, arrays of objects and fields a dataset excludes from filters. */
  filterable: boolean;
}

/** The raw shape of a dataset file, as the documentation-derived catalogs are written. */
export interface FieldSpec {
  name: string;
  type: FieldType;
  docType?: string;
  description?: string;
  deprecated?: boolean;
  filterable?: boolean;
}

/** The fields of one dataset, by name: what a filter is checked against (from `getCatalog` or `createCatalog`). */
export interface Catalog {
  dataset: string;
  fields: ReadonlyMap<string, FieldInfo>;
  /** Lower-cased name → field, for "did you mean" on wrong letter case. */
  byLowerName: ReadonlyMap<string, FieldInfo>;
}

function elementTypeOf(docType: string): ElementType | undefined {
  const match = /^array\[(\w+)\]$/.exec(docType);
  if (!match) return undefined;
  const element = match[1];
  return element === "int" || element === "object" ? element : "string";
}

function fieldInfo(spec: FieldSpec): FieldInfo {
  const docType = spec.docType ?? spec.type;
  const elementType = spec.type === "array" ? (elementTypeOf(docType) ?? "string") : undefined;
  const filterable = spec.filterable !== false && spec.type !== "object" && elementType !== "object";
  const info: FieldInfo = {
    name: spec.name,
    type: spec.type,
    docType,
    description: spec.description ?? "",
    deprecated: spec.deprecated === true,
    filterable,
  };
  if (elementType) info.elementType = elementType;
  return info;
}

const fieldTypes = new Set<unknown>(["string", "int", "float", "bool", "array", "object"]);

/** Field specs as `createCatalog` reads them: a name and a type each, the rest of the types given. */
const isFieldSpecs = (value: unknown): value is readonly FieldSpec[] =>
  Array.isArray(value) &&
  value.every(
    (spec) =>
      isObject(spec) &&
      isString(spec["name"]) &&
      fieldTypes.has(spec["type"]) &&
      (spec["docType"] === undefined || isString(spec["docType"])) &&
      (spec["description"] === undefined || isString(spec["description"])) &&
      (spec["deprecated"] === undefined || typeof spec["deprecated"] === "boolean") &&
      (spec["filterable"] === undefined || typeof spec["filterable"] === "boolean"),
  );

/** Builds a catalog from field specs: a shipped dataset, or one a user brings for a dataset filterc does not ship. */
export function createCatalog(dataset: string, specs: readonly FieldSpec[]): Catalog {
  expectArgument(dataset, isString, "createCatalog", "dataset", "the dataset's name (a string)");
  expectArgument(specs, isFieldSpecs, "createCatalog", "specs", "an array of field specs {name, type}");
  const fields = new Map<string, FieldInfo>();
  const byLowerName = new Map<string, FieldInfo>();
  for (const spec of specs) {
    const info = fieldInfo(spec);
    fields.set(info.name, info);
    byLowerName.set(info.name.toLowerCase(), info);
  }
  return { dataset, fields, byLowerName };
}
