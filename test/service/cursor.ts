/** The cursor marker in test sources. */
export const CURSOR = "<|>";

/** Takes a source with the cursor marked as `<|>` and returns the clean text and the cursor's offset. */
export function withCursor(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf(CURSOR);
  if (offset < 0 || marked.indexOf(CURSOR, offset + 1) >= 0) {
    throw new Error(`mark the cursor exactly once with ${CURSOR}: ${JSON.stringify(marked)}`);
  }
  return { text: marked.slice(0, offset) + marked.slice(offset + CURSOR.length), offset };
}
