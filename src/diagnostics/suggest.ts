/** Levenshtein distance with an early exit once every path exceeds `max`. */
export function editDistance(a: string, b: string, max = Number.POSITIVE_INFINITY): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = new Array<number>(b.length + 1);
  let current = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      current[j] = value;
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    [previous, current] = [current, previous];
  }
  return previous[b.length]!;
}

/**
 * The closest candidate to `word`: an exact match ignoring case wins, then the smallest edit
 * distance (case-insensitive) within a third of the word's length (at least 1, at most 3).
 */
export function closestMatch(word: string, candidates: Iterable<string>): string | undefined {
  const lower = word.toLowerCase();
  const max = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = max + 1;
  for (const candidate of candidates) {
    const candidateLower = candidate.toLowerCase();
    if (candidateLower === lower) return candidate;
    const distance = editDistance(lower, candidateLower, max);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
