/**
 * What a filter keeps, as `eval --stats` and `query --stats` tell it: lines and bytes (uncompressed,
 * line ends included), with shares. Logpush bills by the volume delivered, so the byte share is what
 * a filter saves.
 */
export function keptStats(
  kept: { lines: number; bytes: number },
  of: { lines: number; bytes: number },
): string {
  const share = (part: number, whole: number) =>
    whole === 0 ? "-" : `${((100 * part) / whole).toFixed(1)}%`;
  return (
    `kept ${kept.lines} of ${of.lines} well-formed lines (${share(kept.lines, of.lines)}), ` +
    `${kept.bytes} of ${of.bytes} bytes (${share(kept.bytes, of.bytes)})`
  );
}
