/**
 * A text as a JSON string of at most `max` characters, cut with `…` when longer: what a message
 * shows of a path or a file's contents, escaped and short, so that it never carries a whole file.
 */
export function shortString(text: string, max: number): string {
  const quoted = JSON.stringify(text);
  if (quoted.length <= max) return quoted;
  // Whole characters and escapes only: the longest start that fits with the `…`.
  let end = Math.min(text.length, max);
  while (end > 0 && JSON.stringify(text.slice(0, end)).length > max - 1) end--;
  return `${JSON.stringify(text.slice(0, end)).slice(0, -1)}…"`;
}
