/**
 * Hex text that compresses poorly, the same on every run (a linear congruential generator from
 * `seed`): for gzip inputs large enough to span many pieces.
 */
export function seededHex(seed: number): () => string {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state.toString(16).padStart(8, "0");
  };
}
