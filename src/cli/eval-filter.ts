import type { Catalog } from "../catalog/index.js";
import type { Meaning } from "../check/index.js";
import { loadFilter } from "../load/index.js";
import { withoutByteOrderMark } from "../syntax/index.js";
import { compilerOptionsFrom, withFolderDefaults } from "./compiler-options.js";
import { reportDiagnostics } from "./diagnostics-output.js";
import { type CliIO, readSource } from "./io.js";

interface EvalFilterFlags {
  filter?: string | undefined;
  expr?: string | undefined;
  dataset?: string | undefined;
  catalog?: string | undefined;
}

/** A filter's text and the name diagnostics give it. */
interface FilterInput {
  text: string;
  name: string;
}

/**
 * The filter of `eval` (also `sql` and `query`, named by `command`) as its meaning, `not`s pushed
 * down as its JSON has them: null for the empty filter (every record passes), undefined when it
 * has errors (reported on stderr). Source or Logpush filter JSON (or a job record), as the loader
 * tells them apart; a filter run here is never sent, so it is held to no Logpush limit.
 */
export async function loadEvalFilter(
  flags: EvalFilterFlags,
  io: CliIO,
  command = "eval",
): Promise<{ meaning: Meaning | null; input: FilterInput; catalog: Catalog | undefined } | undefined> {
  const flagged = await compilerOptionsFrom({ dataset: flags.dataset, catalog: flags.catalog });
  const file = flags.expr !== undefined ? undefined : flags.filter;
  const input =
    flags.expr !== undefined
      ? { text: withoutByteOrderMark(flags.expr), name: "<expr>" }
      : await readSource(io, file);
  const options = await withFolderDefaults(io, flagged, file);
  const loaded = loadFilter(input.text, {
    ...options,
    maxOperators: Number.POSITIVE_INFINITY,
    maxBytes: Number.POSITIVE_INFINITY,
  });
  reportDiagnostics(io, loaded.diagnostics, input.text, input.name);
  if (!loaded.ok) return undefined;
  // An empty filter selects every line: most likely an empty file or a mistyped --expr, so say so.
  if (loaded.meaning === null)
    io.stderr(`filterc ${command}: the filter ${input.name} is empty: every line is selected\n`);
  // The catalog, for commands that name fields themselves: the one the filter was checked against.
  return { meaning: loaded.meaning, input, catalog: loaded.catalog };
}
