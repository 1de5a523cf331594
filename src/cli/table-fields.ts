import { UsageError } from "./io.js";

/** `--fields A,B,…`: the names, in order; undefined when the flag is not given. */
export function parseFieldList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const names = value.split(",").map((name) => name.trim());
  if (names.some((name) => name === ""))
    throw new UsageError("--fields takes field names separated by commas, none of them empty");
  return names;
}
