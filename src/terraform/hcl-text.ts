import { quotedHcl } from "./hcl-strings.js";

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** A JSON value written as an HCL expression (`[200, 201]`, `{ key = "a" }`); undefined for text that is not JSON. */
export function hclOfJson(json: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  return hclOfValue(value);
}

function hclOfValue(value: unknown): string {
  if (typeof value === "string") return `"${quotedHcl(value)}"`;
  if (Array.isArray(value)) return `[${value.map(hclOfValue).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const items = Object.entries(value).map(
      ([key, item]) => `${IDENTIFIER.test(key) ? key : `"${quotedHcl(key)}"`} = ${hclOfValue(item)}`,
    );
    return items.length === 0 ? "{}" : `{ ${items.join(", ")} }`;
  }
  return JSON.stringify(value);
}
