/** One line of log content: its 1-based number and its text, or no text when it is longer than the limit. */
export interface TextLine {
  number: number;
  text: string | undefined;
}

const NEWLINE = 0x0a;

/**
 * The lines of log content (see logContent), split on LF, holding at most `maxLineBytes` of one
 * line in memory: a longer line is yielded without its text and skipped to its end. For readers
 * that take a line at a time (the sandbox's ingest); eval tests blocks of lines (see evalLines).
 */
export async function* textLines(
  source: AsyncIterable<Buffer>,
  maxLineBytes: number,
): AsyncGenerator<TextLine> {
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  let number = 1;
  const finish = (): TextLine => {
    const text = tooLong
      ? undefined
      : (parts.length === 1 ? parts[0]! : Buffer.concat(parts)).toString("utf8");
    const line = { number, text };
    parts = [];
    size = 0;
    tooLong = false;
    number++;
    return line;
  };
  const add = (bytes: Buffer) => {
    if (tooLong || bytes.length === 0) return;
    size += bytes.length;
    if (size > maxLineBytes) {
      tooLong = true;
      parts = [];
    } else parts.push(bytes);
  };
  for await (const chunk of source) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      add(chunk.subarray(start, end));
      yield finish();
      start = end + 1;
    }
    add(chunk.subarray(start));
  }
  if (size > 0 || tooLong) yield finish();
}
