import { resolve } from "node:path";
import { compileBlockFilter, compileLineFilter } from "../eval/index.js";
import {
  DEFAULT_MAX_LINE_BYTES,
  emptyCounts,
  evalLines,
  fileInput,
  InputDamage,
  UnreadableTimes,
  warningText,
} from "../logs/index.js";
import type { Location } from "../sql/index.js";

/** What query learns from its own read of the local files, beside DuckDB's. */
export interface LocalRead {
  /**
   * The damage eval would report in the gzip files (a member cut short or corrupt, bytes after the
   * last one), as eval words it: DuckDB reads a gzip file cut short up to the cut and says nothing.
   */
  damage: string[];
  /**
   * Whether every line is blank or a JSON object as JSON.parse reads one: eval's reading of the
   * lines, with no filter. DuckDB's JSON reader also takes a comma before `]` or `}` and the numbers
   * NaN and Infinity, which JSON.parse refuses: query's typed read holds only where this is true.
   * False also for a location that is not a local file, damage, or lines not asked to be checked.
   */
  strict: boolean;
}

/**
 * Reads the local files among `locations` once, inflating the gzip ones: for their damage, and,
 * with `checkLines`, to check every line (see LocalRead). Plain files are read only for the check.
 */
export async function readLocalFiles(
  locations: readonly Location[],
  cwd: string,
  checkLines: boolean,
): Promise<LocalRead> {
  const read: LocalRead = {
    damage: [],
    strict: checkLines && locations.every((location) => location.kind === "local"),
  };
  const noteDamage = (input: string, reason: string) =>
    read.damage.push(warningText({ kind: "damaged", input, reason, cutLine: undefined }));
  const filter = compileLineFilter(null);
  const blockFilter = compileBlockFilter(null, filter);
  for (const location of locations) {
    if (location.kind !== "local") continue;
    for (const path of location.paths) {
      if (!location.gzip && !read.strict) break;
      const input = await fileInput(resolve(cwd, path));
      if (!read.strict) {
        // Only the damage is asked for: inflated, the lines not read.
        try {
          for await (const _ of input.open(() => undefined));
        } catch (error) {
          if (!(error instanceof InputDamage)) throw error;
          noteDamage(path, error.message);
        }
        continue;
      }
      const counts = emptyCounts();
      const { completed } = await evalLines(input, {
        filter,
        blockFilter,
        invert: false,
        write: undefined,
        // A plain file's reading stops at the first malformed line; a gzip file's goes on, to its damage.
        strict: !location.gzip,
        maxLineBytes: DEFAULT_MAX_LINE_BYTES,
        counts,
        onRead: () => undefined,
        warn: (warning) => {
          if (warning.kind === "damaged") noteDamage(path, warning.reason);
        },
        times: new UnreadableTimes(),
      });
      if (!completed || counts.malformed > 0 || counts.damaged > 0) read.strict = false;
    }
  }
  return read;
}
