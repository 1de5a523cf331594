import { compileLineFilter, type LineFilter, LineVerdict } from "../eval/index.js";
import type { Analysis } from "./analysis.js";

/*
 * The evaluation lens's judgement of sample log lines (Regal's "Evaluate", for filters): the
 * filter as `filterc eval` runs it, over lines an editor or a server hands it, and the lens's
 * title. Reading the samples (files, bounds on time and bytes) is the caller's.
 */

/** What the lens tells of the samples read so far. */
export interface SampleCounts {
  /** Lines read, blank ones left out, as `filterc eval` counts them. */
  lines: number;
  /** Lines the filter keeps: those a job with it would push. */
  kept: number;
  /** Lines that are no JSON record (or longer than the line limit): never kept. */
  malformed: number;
}

/** The test of one sample line, or why there is none (a filter with errors). */
export type SampleJudge = { judge: (line: string) => "kept" | "dropped" | "malformed" } | { problem: string };

/** The filter of the text as a test of log lines; the empty filter keeps every record. */
export function sampleJudge(analysis: Analysis): SampleJudge {
  const { compiled } = analysis;
  if (!compiled.ok) {
    const errors = compiled.diagnostics.filter((d) => d.severity === "error").length;
    return {
      problem: `the filter has ${errors === 1 ? "an error" : `${errors} errors`}: no sample is evaluated`,
    };
  }
  const filter: LineFilter = compileLineFilter(compiled.condition);
  return {
    judge: (line) => {
      const verdict = filter(line);
      return verdict === LineVerdict.match ? "kept" : verdict === LineVerdict.miss ? "dropped" : "malformed";
    },
  };
}

/** Where the lens stands: the line of the filter's first comparison, or the text's first line. */
export function sampleLensOffset(analysis: Analysis): number {
  return analysis.compiled.ast.expr?.range.start.offset ?? 0;
}

const plural = (count: number, word: string) =>
  `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;

/**
 * The lens's title: `▶ keeps 12 of 340 sample lines (logs/*.ndjson)`, with the malformed lines
 * and, when a bound stopped the reading, `of the first …` and why.
 */
export function sampleLensTitle(counts: SampleCounts, samples: string, stopped?: string): string {
  const first = stopped === undefined ? "" : "the first ";
  const malformed = counts.malformed === 0 ? "" : `, ${plural(counts.malformed, "malformed line")}`;
  const why = stopped === undefined ? "" : `; stopped: ${stopped}`;
  return `▶ keeps ${counts.kept.toLocaleString("en-US")} of ${first}${plural(counts.lines, "sample line")} (${samples}${malformed}${why})`;
}
