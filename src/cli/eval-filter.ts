import { type Catalog, DEFAULT_DATASET, getCatalog } from "../catalog/index.js";
import { check, type Meaning, toNegationNormalForm } from "../check/index.js";
import { decompile } from "../decompile/index.js";
import { hasErrors } from "../diagnostics/index.js";
import { withoutByteOrderMark } from "../syntax/index.js";
import { compilerOptionsFrom, withFolderDefaults } from "./compiler-options.js";
import { reportDiagnostics } from "./diagnostics-output.js";
import { type CliIO, readSource } from "./io.js";

export interface EvalFilterFlags {
  filter?: string | undefined;
  expr?: string | undefined;
  dataset?: string | undefined;
  catalog?: string | undefined;
}

/** A filter's text and the name diagnostics give it. */
export interface FilterInput {
  text: string;
  name: string;
}

/**
 * The filter of `eval` (also `sql` and `query`, named by `command`) as its meaning, `not`s pushed
 * down as its JSON has them: null for the empty filter (every record passes), undefined when it
 * has errors (reported on stderr).
 * Text whose first non-blank character is `{` or `"` holds Logpush filter JSON (or a job record);
 * anything else is filter source.
 */
export async function loadEvalFilter(
  flags: EvalFilterFlags,
  io: CliIO,
  command = "eval",
): Promise<{ condition: Meaning | null; input: FilterInput; catalog: Catalog | undefined } | undefined> {
  const flagged = await compilerOptionsFrom({ dataset: flags.dataset, catalog: flags.catalog });
  const file = flags.expr !== undefined ? undefined : flags.filter;
  const input =
    flags.expr !== undefined
      ? { text: withoutByteOrderMark(flags.expr), name: "<expr>" }
      : await readSource(io, file);
  const options = await withFolderDefaults(io, flagged, file);
  const result = /^\s*["{]/.test(input.text) ? decompile(input.text, options) : check(input.text, options);
  reportDiagnostics(io, result.diagnostics, input.text, input.name);
  if (hasErrors(result.diagnostics)) return undefined;
  // An empty filter selects every line: most likely an empty file or a mistyped --expr, so say so.
  if (result.condition === null)
    io.stderr(`filterc ${command}: the filter ${input.name} is empty: every line is selected\n`);
  // The catalog, for commands that name fields themselves: a source's has its `# dataset:` applied.
  const catalog =
    "catalog" in result
      ? result.catalog
      : (options.catalog ?? getCatalog(options.dataset ?? options.defaultDataset ?? DEFAULT_DATASET));
  return { condition: result.condition && toNegationNormalForm(result.condition), input, catalog };
}
