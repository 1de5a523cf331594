import { check } from "../../src/check/index.js";
import { DEFAULT_MAX_LINE_BYTES, emptyCounts, evalLines, warningText } from "../../src/cli/eval-lines.js";
import { streamInput } from "../../src/cli/log-input.js";
import { compileBlockFilter, compileLineFilter } from "../../src/eval/index.js";

export interface RunLinesOptions {
  /** Test ASCII lines with the block filter, as the CLI does (default true). */
  block?: boolean;
  invert?: boolean;
  strict?: boolean;
  maxLineBytes?: number;
}

/** Runs evalLines with the filter of `source` over `chunks` as they come: how it ended, what it wrote, its counts and its warnings. */
export async function runLines(
  chunks: () => Iterable<Uint8Array>,
  source: string,
  options: RunLinesOptions = {},
) {
  const condition = check(source).normal;
  const filter = compileLineFilter(condition);
  const counts = emptyCounts();
  const written: Buffer[] = [];
  const warnings: string[] = [];
  const end = await evalLines(
    streamInput("<stdin>", async function* () {
      yield* chunks();
    }),
    {
      filter,
      blockFilter: options.block === false ? undefined : compileBlockFilter(condition, filter),
      invert: options.invert ?? false,
      strict: options.strict ?? false,
      maxLineBytes: options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
      write: async (bytes) => {
        written.push(Buffer.from(bytes));
      },
      counts,
      onRead: () => {},
      warn: (warning) => warnings.push(warningText(warning)),
    },
  );
  return { ...end, out: Buffer.concat(written).toString(), counts, warnings };
}
