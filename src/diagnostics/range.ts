/**
 * A place in the source. `offset` counts UTF-16 code units from the start (a JavaScript string
 * index); `line` and `column` are 1-based, `column` in UTF-16 code units like `offset`.
 */
export interface Position {
  offset: number;
  line: number;
  column: number;
}

/** A half-open span of source: `start` is the first character, `end` the one after the last. */
export interface Range {
  start: Position;
  end: Position;
}

export const startOfSource: Position = { offset: 0, line: 1, column: 1 };

export function emptyRangeAt(position: Position): Range {
  return { start: position, end: position };
}

/** Maps offsets to line/column positions for ranges the tokens do not already carry (end of input, spans). */
export class LineIndex {
  private readonly lineStarts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.lineStarts.push(i + 1);
      else if (c === 13 && text.charCodeAt(i + 1) !== 10) this.lineStarts.push(i + 1);
    }
  }

  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid]! <= clamped) low = mid;
      else high = mid - 1;
    }
    return { offset: clamped, line: low + 1, column: clamped - this.lineStarts[low]! + 1 };
  }

  rangeOf(startOffset: number, endOffset: number): Range {
    return { start: this.positionAt(startOffset), end: this.positionAt(endOffset) };
  }

  /** The offset where `line` (1-based) begins; the end of the text past the last line. */
  lineStart(line: number): number {
    return this.lineStarts[line - 1] ?? this.text.length;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  lineText(line: number): string {
    const start = this.lineStarts[line - 1] ?? this.text.length;
    const next = this.lineStarts[line];
    const end = next === undefined ? this.text.length : next;
    return this.text.slice(start, end).replace(/\r?\n$|\r$/, "");
  }
}
