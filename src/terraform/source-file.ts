import { LineIndex, type Range } from "../diagnostics/index.js";

/** A file read for a Terraform check: its text and how offsets become lines and columns. */
export class SourceFile {
  readonly lines: LineIndex;

  constructor(
    /** The file as messages name it (relative to the current folder, as the user gave it). */
    readonly name: string,
    /** Its absolute path. */
    readonly path: string,
    readonly text: string,
  ) {
    this.lines = new LineIndex(text);
  }

  rangeOf(start: number, end: number): Range {
    return this.lines.rangeOf(start, end);
  }
}

/** A stretch of a file: where a value, a key or a whole expression is written. */
export interface Site {
  file: SourceFile;
  start: number;
  end: number;
}

export function siteRange(site: Site): Range {
  return site.file.rangeOf(site.start, site.end);
}
