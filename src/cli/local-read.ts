import { resolve } from "node:path";
import { compileKindCheck, type KindedField } from "../eval/index.js";
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
  /** The lines where a field holds a value of another kind than its column's (see compileKindCheck). */
  misfits: number;
}

/**
 * Reads the local files among `locations` once, inflating the gzip ones: for their damage, and,
 * given the `fields` of a typed read, to check every line and the kinds of its values (see
 * LocalRead). Plain files are read only for the check.
 */
export async function readLocalFiles(
  locations: readonly Location[],
  cwd: string,
  fields: readonly KindedField[] | undefined,
): Promise<LocalRead> {
  const read: LocalRead = {
    damage: [],
    strict: fields !== undefined && locations.every((location) => location.kind === "local"),
    misfits: 0,
  };
  const noteDamage = (input: string, reason: string) =>
    read.damage.push(warningText({ kind: "damaged", input, reason, cutLine: undefined }));
  const check = compileKindCheck(fields ?? []);
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
        filter: check.line,
        blockFilter: undefined,
        byteFilter: check.bytes,
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
      read.misfits += counts.matched;
    }
  }
  return read;
}
