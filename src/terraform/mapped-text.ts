import type { Site, SourceFile } from "./source-file.js";

/**
 * How a character of a value is written: as it is (a heredoc, a JSON file), inside a quoted HCL
 * string (where `"` and `\` are escaped), or made from HCL syntax (the JSON `jsonencode` writes for
 * an HCL object: its quotes, colons and commas stand for identifiers, `=` and newlines).
 */
export type Written = "raw" | "quoted" | "syntax";

/**
 * Text with the place each of its characters is written: a string's value read through its
 * escapes and heredoc indentation, or the JSON `jsonencode` makes of an HCL value. A range of the
 * text maps back to the file (or files) it came from, so that a problem found in the text is
 * reported where the user wrote it.
 */
export class MappedText {
  text = "";
  private readonly files: SourceFile[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly written: Written[] = [];

  constructor(
    /** Where an empty range at the end of the text stands (the closing quote, the end of the call). */
    private end: Site,
  ) {}

  /** Appends `text`, each of its characters written at `site` (one escape, one identifier, one bracket). */
  append(text: string, site: Site, written: Written): this {
    for (let i = 0; i < text.length; i++) {
      this.files.push(site.file);
      this.starts.push(site.start);
      this.ends.push(site.end);
      this.written.push(written);
    }
    this.text += text;
    return this;
  }

  /** Appends a part of another mapped text, each character keeping its place. */
  appendMapped(other: MappedText, from = 0, to = other.text.length): this {
    this.text += other.text.slice(from, to);
    for (let i = from; i < to; i++) {
      this.files.push(other.files[i]!);
      this.starts.push(other.starts[i]!);
      this.ends.push(other.ends[i]!);
      this.written.push(other.written[i]!);
    }
    return this;
  }

  /** Sets where an empty range at the end stands. */
  endAt(site: Site): this {
    this.end = site;
    return this;
  }

  /** A part of this text, keeping the places. */
  slice(from: number, to: number): MappedText {
    const end = to < this.text.length ? this.siteOf(to, to) : this.end;
    return new MappedText(end).appendMapped(this, from, to);
  }

  /**
   * Where the characters from `start` to `end` are written: from the first one's place to the last
   * one's end, in the first one's file (a range that runs into another file stops at its first character).
   */
  siteOf(start: number, end: number): Site {
    if (start >= this.text.length) return { ...this.end, start: this.end.start, end: this.end.start };
    const file = this.files[start]!;
    const from = this.starts[start]!;
    if (end <= start) return { file, start: from, end: from };
    const last = Math.min(end, this.text.length) - 1;
    const to = this.files[last] === file ? this.ends[last]! : this.ends[start]!;
    return { file, start: from, end: Math.max(from, to) };
  }

  /**
   * How the characters from `start` to `end` are written, when an edit may replace them as text:
   * all written alike, raw or in a quoted string (none made from syntax), in one file, one after
   * another (no heredoc indentation skipped between them). Undefined otherwise.
   */
  editableAs(start: number, end: number): "raw" | "quoted" | undefined {
    if (end <= start) {
      const at = start < this.text.length ? this.written[start] : this.written[start - 1];
      return at === "syntax" ? undefined : at;
    }
    const first = this.written[start];
    if (first === undefined || first === "syntax") return undefined;
    for (let i = start + 1; i < end; i++) {
      const follows = this.starts[i] === this.ends[i - 1];
      const sameSite = this.starts[i] === this.starts[i - 1] && this.ends[i] === this.ends[i - 1];
      if (this.written[i] !== first || this.files[i] !== this.files[start] || !(follows || sameSite))
        return undefined;
    }
    return first;
  }
}
