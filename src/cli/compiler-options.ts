import { dirname, relative, resolve } from "node:path";
import { type ParseError, parse } from "jsonc-parser";
import { createCatalog, type FieldSpec, getCatalog, knownDatasets } from "../catalog/index.js";
import type { CompileOptions } from "../compile.js";
import { mergeSettings } from "../diagnostics/index.js";
import { ConfigError, ConfigLookup, type ConfigSettings } from "../files/index.js";
import { withoutByteOrderMark } from "../syntax/index.js";
import { DATASETS_HELP, parseCount } from "./args.js";
import { type CliIO, decodeText, readFileUpTo, UsageError, UserError } from "./io.js";
import { CLI_OPTION_LABELS } from "./option-labels.js";
import { type TuningFlagValues, tuningFromFlags } from "./tuning-flags.js";

/** The flags every compiling command shares. */
export const compilerFlags = {
  dataset: { type: "string" },
  catalog: { type: "string" },
  "no-optimize": { type: "boolean" },
  "max-operators": { type: "string" },
  "max-bytes": { type: "string" },
} as const;

interface CompilerFlagValues extends TuningFlagValues {
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
        DATASETS_HELP,
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
  const diagnostics = tuningFromFlags(values);
  if (diagnostics !== undefined) options.diagnostics = diagnostics;
  return options;
}

/** The largest catalog file read: the shipped ones are under 20 KB; this takes thousands of fields. */
const MAX_CATALOG_FILE_BYTES = 16 * 1024 * 1024;

/** A catalog file: a JSON array of {name, type, docType?, deprecated?, filterable?}, as the shipped datasets are written. */
async function readCatalogFile(path: string, dataset: string) {
  const bytes = await readFileUpTo(path, MAX_CATALOG_FILE_BYTES, "more than a field catalog needs", "stream");
  const text = withoutByteOrderMark(decodeText(bytes, path));
  let specs: unknown;
  try {
    specs = JSON.parse(text);
  } catch {
    // JSON.parse's message quotes the text it stopped at: the place alone, never the file's bytes.
    throw new UserError(`catalog ${path} is not JSON (${jsonErrorPlace(text)})`);
  }
  const types = new Set(["string", "int", "float", "bool", "array", "object"]);
  if (!Array.isArray(specs) || !specs.every((s) => typeof s?.name === "string" && types.has(s?.type))) {
    throw new UserError(
      `catalog ${path} must be a JSON array of {"name": string, "type": "string"|"int"|"float"|"bool"|"array"|"object"}`,
    );
  }
  return createCatalog(dataset, specs as FieldSpec[]);
}

/** Where strict JSON first goes wrong in a text, as `line L, column C`. */
function jsonErrorPlace(text: string): string {
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const offset = errors[0]?.offset ?? 0;
  const before = text.slice(0, offset).split("\n");
  return `line ${before.length}, column ${before.at(-1)!.length + 1}`;
}

/** A lookup of filterc.json files for one command, naming them relative to the current folder. */
export function configLookup(io: CliIO): ConfigLookup {
  return new ConfigLookup((path) => relative(io.cwd, path) || path);
}

/**
 * The defaults for a filter read from `file`: those of the filterc.json nearest its folder, or the
 * current folder's for standard input (`-`, or no file) and `--expr`. A filterc.json that cannot
 * be used is an error naming each problem's place.
 */
export async function folderDefaults(
  io: CliIO,
  file: string | undefined,
  lookup = configLookup(io),
): Promise<ConfigSettings> {
  const folder = file === undefined || file === "-" ? io.cwd : dirname(resolve(io.cwd, file));
  try {
    return (await lookup.forFolder(folder)).defaults;
  } catch (error) {
    throw error instanceof ConfigError ? new UserError(error.message) : error;
  }
}

/**
 * The options of a filter read from `file`: the flags' (`options`) first, then the nearest
 * filterc.json's (its dataset applies to a source that names none with `# dataset:`; its
 * `diagnostics` under the levels `--deny` and `--allow` give).
 */
export async function withFolderDefaults(
  io: CliIO,
  options: CompileOptions,
  file: string | undefined,
  lookup = configLookup(io),
): Promise<CompileOptions> {
  const { dataset, maxOperators, maxBytes, diagnostics } = await folderDefaults(io, file, lookup);
  const merged: CompileOptions = { ...options };
  if (dataset !== undefined) merged.defaultDataset = dataset;
  if (options.maxOperators === undefined && maxOperators !== undefined) merged.maxOperators = maxOperators;
  if (options.maxBytes === undefined && maxBytes !== undefined) merged.maxBytes = maxBytes;
  // A code the flags set wins over the file's level of it.
  if (diagnostics !== undefined) merged.diagnostics = mergeSettings(diagnostics, options.diagnostics);
  return merged;
}
