/** The cursor marker in test sources. */
export const CURSOR = "<|>";

/** Takes a source with the cursor marked as `<|>` and returns the clean text and the cursor's offset. */
export function withCursor(marked: string): { text: string; offset: number } {
  const { text, offset } = withMarks(marked);
  return { text, offset };
}

/**
 * Takes a source with the cursor marked as `<|>` and an expected range as `<|`…`|>` (the cursor may
 * stand inside it), and returns the clean text, the cursor's offset and the range's offsets, so a
 * test shows what it expects in the text rather than counting offsets.
 */
export function withMarks(marked: string): {
  text: string;
  offset: number;
  range: { start: number; end: number };
} {
  let text = "";
  let offset: number | undefined;
  let start: number | undefined;
  let end: number | undefined;
  const fail = () => {
    throw new Error(
      `mark the cursor once with <|> and a range at most once with <| … |>: ${JSON.stringify(marked)}`,
    );
  };
  for (let i = 0; i < marked.length; ) {
    if (marked.startsWith(CURSOR, i)) {
      if (offset !== undefined) fail();
      offset = text.length;
      i += CURSOR.length;
    } else if (marked.startsWith("<|", i)) {
      if (start !== undefined) fail();
      start = text.length;
      i += 2;
    } else if (marked.startsWith("|>", i)) {
      if (start === undefined || end !== undefined) fail();
      end = text.length;
      i += 2;
    } else text += marked[i++];
  }
  if (offset === undefined || (start !== undefined && end === undefined)) fail();
  return { text, offset: offset!, range: { start: start ?? offset!, end: end ?? offset! } };
}
