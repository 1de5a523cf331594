import { type FieldInfo, valueFormOf } from "../catalog/index.js";
import { expectArgument, isObject, isString } from "../diagnostics/index.js";

/** What `knownValues` reads of a field: its name and type. */
const isField = (value: unknown): value is FieldInfo =>
  isObject(value) && isString(value["name"]) && isString(value["type"]);

/** The values a string field is known to take in `dataset`, or none when the catalog does not say. */
export function knownValues(dataset: string, field: FieldInfo): readonly string[] {
  expectArgument(dataset, isString, "knownValues", "dataset", "a dataset name (a string)");
  expectArgument(field, isField, "knownValues", "field", "a field of a catalog");
  const takesStrings = field.type === "string" || (field.type === "array" && field.elementType === "string");
  if (!takesStrings) return [];
  return valueFormOf(dataset, field.name)?.values ?? [];
}
