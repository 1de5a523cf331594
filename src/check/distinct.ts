/**
 * Up to this many items, an equal one is found by comparing pairs: a comparison stops at the first
 * difference and builds nothing, which is cheaper than keys up to Logpush's own limit of 30
 * comparisons. Past it, items are keyed, which bounds the work on oversized inputs.
 */
const PAIRWISE_LIMIT = 32;

/**
 * The distinct items seen so far, under an equality that `keyOf` agrees with
 * (`same(a, b)` exactly when `keyOf(a) === keyOf(b)`).
 */
export class Distinct<T> {
  private readonly items: T[] = [];
  private keys: Set<string> | undefined;

  constructor(
    private readonly same: (a: T, b: T) => boolean,
    private readonly keyOf: (item: T) => string,
  ) {}

  /** Adds the item unless an equal one is here already; says whether it was added. */
  add(item: T): boolean {
    if (this.keys === undefined) {
      for (const other of this.items) if (this.same(other, item)) return false;
      this.items.push(item);
      if (this.items.length > PAIRWISE_LIMIT) this.keys = new Set(this.items.map(this.keyOf));
      return true;
    }
    const key = this.keyOf(item);
    if (this.keys.has(key)) return false;
    this.keys.add(key);
    return true;
  }
}

/**
 * Whether two of `items` are equal (`same`, or past PAIRWISE_LIMIT items equal keys): most lists
 * have none, which comparing pairs finds without building anything.
 */
export function hasDuplicate<T>(
  items: readonly T[],
  same: (a: T, b: T) => boolean,
  keyOf: (item: T) => string,
): boolean {
  if (items.length > PAIRWISE_LIMIT) return new Set(items.map(keyOf)).size < items.length;
  for (let i = 1; i < items.length; i++)
    for (let j = 0; j < i; j++) if (same(items[j]!, items[i]!)) return true;
  return false;
}

/**
 * Up to this many values, a membership test compares them one by one; past it, it looks them up
 * in a set, which bounds the work on long lists (compared element by element, it was quadratic).
 */
const SCAN_LIMIT = 16;

/** A test of whether a value is one of `values`, compared by `===` (strings and bigints). */
export function memberOf<T extends string | bigint>(values: readonly T[]): (value: T) => boolean {
  if (values.length <= SCAN_LIMIT) return (value) => values.includes(value);
  const set = new Set(values);
  return (value) => set.has(value);
}
