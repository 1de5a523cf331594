import type { FieldValue, Witness } from "../check/index.js";

/** A field value as JSON text: numbers exactly as their decimal text, at any length. */
function valueJson(value: FieldValue): string {
  switch (value.type) {
    case "string":
      return JSON.stringify(value.value);
    case "int":
      return value.value.toString();
    case "float":
      return value.value;
    case "bool":
      return value.value ? "true" : "false";
    case "array":
      return `[${value.elements.map((element) => (typeof element === "bigint" ? element.toString() : JSON.stringify(element))).join(",")}]`;
  }
}

/** A record as one line of compact JSON, its fields in name order: a log line the evaluator reads as the analysis meant it. */
export function recordJson(record: Witness): string {
  const names = [...record.keys()].sort();
  return `{${names.map((name) => `${JSON.stringify(name)}:${valueJson(record.get(name)!)}`).join(",")}}`;
}
