// The module, not the stage's index: the CLI's entry loads this file to suggest a command.
import { closestMatch } from "../diagnostics/suggest.js";

/**
 * The name `word` most likely meant, as git and cargo suggest one for a mistyped command: the
 * closest by edit distance (closestMatch), else one it makes by swapping two letters next to each
 * other (`lsit`), else the only name it begins (`comp` for compile).
 */
export function nearestWord(word: string, names: readonly string[]): string | undefined {
  const closest = closestMatch(word, names);
  if (closest !== undefined) return closest;
  const lower = word.toLowerCase();
  const swapped = names.find((name) => isSwap(lower, name));
  if (swapped !== undefined) return swapped;
  const started = lower.length >= 2 ? names.filter((name) => name.startsWith(lower)) : [];
  return started.length === 1 ? started[0] : undefined;
}

/** Whether `b` is `a` with two letters next to each other swapped. */
function isSwap(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  const differ = [...a].flatMap((char, index) => (char === b[index] ? [] : [index]));
  return (
    differ.length === 2 &&
    differ[1] === differ[0]! + 1 &&
    a[differ[0]!] === b[differ[1]!] &&
    a[differ[1]!] === b[differ[0]!]
  );
}
