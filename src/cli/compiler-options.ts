import { createCatalog, type FieldSpec, getCatalog, knownDatasets } from "../catalog/index.js";
import type { CompileOptions } from "../compile.js";
import { withoutByteOrderMark } from "../syntax/index.js";
import { parseCount } from "./args.js";
import { decodeText, isUserError, readFileUpTo, UsageError, UserError } from "./io.js";
import { CLI_OPTION_LABELS } from "./option-labels.js";

/** The flags every compiling command shares. */
export const compilerFlags = {
  dataset: { type: "string" },
  catalog: { type: "string" },
  "no-optimize": { type: "boolean" },
  "max-operators": { type: "string" },
  "max-bytes": { type: "string" },
} as const;

export interface CompilerFlagValues {
  dataset?: string | undefined;
  catalog?: string | undefined;
  "no-optimize"?: boolean | undefined;
  "max-operators"?: string | undefined;
  "max-bytes"?: string | undefined;
}

export async function compilerOptionsFrom(values: CompilerFlagValues): Promise<CompileOptions> {
  const options: CompileOptions = { optionLabels: CLI_OPTION_LABELS };
  if (values.dataset !== undefined) {
    if (!getCatalog(values.dataset) && values.catalog === undefined) {
      throw new UsageError(
        `unknown dataset ${JSON.stringify(values.dataset)}; known datasets: ${knownDatasets(values.dataset)}`,
      );
    }
    options.dataset = values.dataset;
  }
  if (values.catalog !== undefined)
    options.catalog = await readCatalogFile(values.catalog, values.dataset ?? "custom");
  if (values["no-optimize"]) options.optimize = false;
  const maxOperators = parseCount(values["max-operators"], "--max-operators", 1);
  const maxBytes = parseCount(values["max-bytes"], "--max-bytes", 1);
  if (maxOperators !== undefined) options.maxOperators = maxOperators;
  if (maxBytes !== undefined) options.maxBytes = maxBytes;
  return options;
}

/** The largest catalog file read: the shipped ones are under 20 KB; this takes thousands of fields. */
const MAX_CATALOG_FILE_BYTES = 16 * 1024 * 1024;

/** A catalog file: a JSON array of {name, type, docType?, deprecated?, filterable?}, as the shipped datasets are written. */
async function readCatalogFile(path: string, dataset: string) {
  const bytes = await readFileUpTo(path, MAX_CATALOG_FILE_BYTES, "more than a field catalog needs");
  let specs: unknown;
  try {
    specs = JSON.parse(withoutByteOrderMark(decodeText(bytes, path)));
  } catch (error) {
    throw isUserError(error)
      ? error
      : new UserError(`catalog ${path} is not JSON: ${(error as Error).message}`);
  }
  const types = new Set(["string", "int", "float", "bool", "array", "object"]);
  if (!Array.isArray(specs) || !specs.every((s) => typeof s?.name === "string" && types.has(s?.type))) {
    throw new UserError(
      `catalog ${path} must be a JSON array of {"name": string, "type": "string"|"int"|"float"|"bool"|"array"|"object"}`,
    );
  }
  return createCatalog(dataset, specs as FieldSpec[]);
}
