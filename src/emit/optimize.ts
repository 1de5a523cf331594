import {
  Distinct,
  hasDuplicate,
  type Leaf,
  leafKey,
  type Meaning,
  type ScalarValue,
  sameScalar,
  scalarKey,
} from "../check/index.js";

/**
 * Rewrites a filter's meaning into a smaller one that keeps the same records:
 * duplicates dropped, `X eq a or X eq b` → `X in [a,b]`, `X !eq a and X !eq b` → `X !in [a,b]`,
 * and sibling lists on one field merged (`in` under `or`, `!in` under `and`). Order is kept:
 * a merged comparison stands where the first of its parts stood.
 */
export function optimize(cond: Meaning): Meaning {
  if (cond.kind !== "and" && cond.kind !== "or") return cond;
  let operands = cond.operands;
  let flatten = false;
  for (let i = 0; i < operands.length; i++) {
    const optimized = optimize(operands[i]!);
    // The array is copied only when an operand changed: most conditions are already optimal.
    if (optimized !== operands[i]) {
      if (operands === cond.operands) operands = operands.slice();
      operands[i] = optimized;
    }
  }
  operands = mergeLists(cond.kind, dedupe(operands));
  for (const operand of operands) if (operand.kind === cond.kind) flatten = true;
  if (operands.length === 1) return operands[0]!;
  if (operands === cond.operands && !flatten) return cond;
  const flat: Meaning[] = [];
  for (const operand of operands) {
    if (operand.kind === cond.kind) for (const inner of operand.operands) flat.push(inner);
    else flat.push(operand);
  }
  return flat.length === 1 ? flat[0]! : { kind: cond.kind, operands: flat, range: cond.range };
}

function condKey(cond: Meaning): string {
  switch (cond.kind) {
    case "leaf":
      return leafKey(cond);
    case "and":
    case "or":
      return `${cond.kind}(${cond.operands.map(condKey).join(",")})`;
  }
}

/** Structural equality of two conditions, ranges aside; stops at the first difference. */
function sameCond(a: Meaning, b: Meaning): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case "leaf": {
      const other = b as Leaf;
      return a.field === other.field && a.operator === other.operator && sameValue(a.value, other.value);
    }
    case "and":
    case "or": {
      const others = (b as typeof a).operands;
      if (a.operands.length !== others.length) return false;
      for (let i = 0; i < others.length; i++) if (!sameCond(a.operands[i]!, others[i]!)) return false;
      return true;
    }
  }
}

function sameValue(a: ScalarValue | ScalarValue[], b: ScalarValue | ScalarValue[]): boolean {
  if (!Array.isArray(a) || !Array.isArray(b))
    return !Array.isArray(a) && !Array.isArray(b) && sameScalar(a, b);
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!sameScalar(a[i]!, b[i]!)) return false;
  return true;
}

/** Drops repeated operands, keeping the first of each. */
function dedupe(operands: Meaning[]): Meaning[] {
  if (!hasDuplicate(operands, sameCond, condKey)) return operands;
  const distinct = new Distinct(sameCond, condKey);
  const kept = operands.filter((operand) => distinct.add(operand));
  return kept.length === operands.length ? operands : kept;
}

/** Under `or`, `eq`/`in` leaves of one field merge into `in`; under `and`, `!eq`/`!in` into `!in`. */
function mergeLists(kind: "and" | "or", operands: Meaning[]): Meaning[] {
  const single = kind === "or" ? "eq" : "!eq";
  const list = kind === "or" ? "in" : "!in";
  const mergeable = (cond: Meaning): cond is Leaf =>
    cond.kind === "leaf" &&
    (cond.operator === list ||
      (cond.operator === single && cond.field.type !== "bool" && cond.field.type !== "array"));
  let candidates = 0;
  for (const operand of operands) if (mergeable(operand)) candidates++;
  if (candidates < 2) return operands;
  const byField = new Map<string, Leaf[]>();
  for (const operand of operands) {
    if (!mergeable(operand)) continue;
    const leaves = byField.get(operand.field.name);
    if (leaves) leaves.push(operand);
    else byField.set(operand.field.name, [operand]);
  }
  const merged = new Map<Leaf, Leaf | null>();
  for (const leaves of byField.values()) {
    if (leaves.length < 2) continue;
    const first = leaves[0]!;
    const last = leaves[leaves.length - 1]!;
    merged.set(first, {
      kind: "leaf",
      field: first.field,
      operator: list,
      value: unionOf(leaves),
      range: { start: first.range.start, end: last.range.end },
    });
    for (const leaf of leaves.slice(1)) merged.set(leaf, null);
  }
  if (merged.size === 0) return operands;
  const result: Meaning[] = [];
  for (const operand of operands) {
    const replacement = operand.kind === "leaf" ? merged.get(operand) : undefined;
    if (replacement === undefined) result.push(operand);
    else if (replacement) result.push(replacement);
  }
  return result;
}

function unionOf(leaves: Leaf[]): ScalarValue[] {
  const distinct = new Distinct(sameScalar, scalarKey);
  const values: ScalarValue[] = [];
  for (const leaf of leaves) {
    for (const value of Array.isArray(leaf.value) ? leaf.value : [leaf.value]) {
      if (distinct.add(value)) values.push(value);
    }
  }
  return values;
}
