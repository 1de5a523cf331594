import { type Cond, type Leaf, leafKey, type ScalarValue, scalarKey } from "../check/index.js";

/**
 * Rewrites a negation-normal condition into a smaller one with the same meaning:
 * duplicates dropped, `X eq a or X eq b` → `X in [a,b]`, `X !eq a and X !eq b` → `X !in [a,b]`,
 * and sibling lists on one field merged (`in` under `or`, `!in` under `and`). Order is kept:
 * a merged comparison stands where the first of its parts stood.
 */
export function optimize(cond: Cond): Cond {
  if (cond.kind !== "and" && cond.kind !== "or") return cond;
  const operands = mergeLists(cond.kind, dedupe(cond.operands.map(optimize)));
  const flat: Cond[] = [];
  for (const operand of operands) {
    if (operand.kind === cond.kind) flat.push(...operand.operands);
    else flat.push(operand);
  }
  return flat.length === 1 ? flat[0]! : { kind: cond.kind, operands: flat, range: cond.range };
}

function condKey(cond: Cond): string {
  switch (cond.kind) {
    case "leaf":
      return leafKey(cond);
    case "not":
      return `not(${condKey(cond.operand)})`;
    case "and":
    case "or":
      return `${cond.kind}(${cond.operands.map(condKey).join(",")})`;
  }
}

/** A cheap summary of an operand: equal operands have equal signatures. */
function signature(cond: Cond): string {
  switch (cond.kind) {
    case "leaf":
      return Array.isArray(cond.value)
        ? `${cond.field.name} ${cond.operator} [${cond.value.length}]`
        : `${cond.field.name} ${cond.operator} ${scalarKey(cond.value)}`;
    case "not":
      return `not ${signature(cond.operand)}`;
    case "and":
    case "or":
      return `${cond.kind}${cond.operands.length} ${signature(cond.operands[0]!)}`;
  }
}

/** Drops repeated operands. Full keys are built only for operands whose signatures collide. */
function dedupe(operands: Cond[]): Cond[] {
  const signatures = operands.map(signature);
  const counts = new Map<string, number>();
  let collides = false;
  for (const key of signatures) {
    const count = (counts.get(key) ?? 0) + 1;
    counts.set(key, count);
    if (count > 1) collides = true;
  }
  if (!collides) return operands;
  const seen = new Set<string>();
  return operands.filter((operand, index) => {
    if (counts.get(signatures[index]!)! < 2) return true;
    const key = condKey(operand);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Under `or`, `eq`/`in` leaves of one field merge into `in`; under `and`, `!eq`/`!in` into `!in`. */
function mergeLists(kind: "and" | "or", operands: Cond[]): Cond[] {
  const single = kind === "or" ? "eq" : "!eq";
  const list = kind === "or" ? "in" : "!in";
  const mergeable = (cond: Cond): cond is Leaf =>
    cond.kind === "leaf" &&
    (cond.operator === list ||
      (cond.operator === single && cond.field.type !== "bool" && cond.field.type !== "array"));
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
  const result: Cond[] = [];
  for (const operand of operands) {
    const replacement = operand.kind === "leaf" ? merged.get(operand) : undefined;
    if (replacement === undefined) result.push(operand);
    else if (replacement) result.push(replacement);
  }
  return result;
}

function unionOf(leaves: Leaf[]): ScalarValue[] {
  const seen = new Set<string>();
  const values: ScalarValue[] = [];
  for (const leaf of leaves) {
    for (const value of Array.isArray(leaf.value) ? leaf.value : [leaf.value]) {
      const key = scalarKey(value);
      if (seen.has(key)) continue;
      seen.add(key);
      values.push(value);
    }
  }
  return values;
}
