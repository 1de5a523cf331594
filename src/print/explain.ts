import { type Cond, type Leaf, type Meaning, meaningOrNullArgument, scalarSource } from "../check/index.js";
import { expectArgument, isObject } from "../diagnostics/index.js";
import type { FilterStats } from "../emit/index.js";
import { isNegativeOperator, OPERATORS } from "../syntax/index.js";

/** What `explain` reads of the stats emit and compile give. */
const isStats = (value: unknown): value is FilterStats =>
  isObject(value) &&
  ["operators", "bytes", "maxOperators", "maxBytes"].every((name) => typeof value[name] === "number");

/**
 * The filter in words, as an indented tree of what it means, as its JSON has it (`not` pushed
 * down): "a record is pushed when" and one line per group and per comparison, then what it uses
 * against the Logpush limits ("3 of 30 comparisons, 180 of 1000 bytes"). It starts with what a
 * record needs to be pushed because `and`s of `!` comparisons are easily read as exclusions.
 */
export function explain(condition: Cond | null, stats: FilterStats): string {
  const meaning = meaningOrNullArgument(condition, "explain", "condition");
  expectArgument(stats, isStats, "explain", "stats", "the stats of emit or compile");
  const lines: string[] = [];
  if (meaning) {
    tree(meaning, 0, lines);
    lines[0] = `a record is pushed when ${lines[0]}`;
  } else lines.push("no filter: every log line is pushed");
  lines.push(
    `${stats.operators} of ${stats.maxOperators} comparisons, ${stats.bytes} of ${stats.maxBytes} bytes`,
  );
  return `${lines.join("\n")}\n`;
}

/**
 * The same tree for one record: each line marked with whether that part holds for it (`✓` or
 * `✗`), as `held` says, so a reader sees which comparison decided the verdict.
 */
export function explainHeld(meaning: Meaning | null, held: (part: Meaning) => boolean): string {
  if (!meaning) return "no filter: every log line is pushed\n";
  const lines: string[] = [];
  tree(meaning, 0, lines, held);
  return `${lines.join("\n")}\n`;
}

function tree(cond: Meaning, depth: number, lines: string[], held?: (part: Meaning) => boolean): void {
  const indent = (held ? (held(cond) ? "✓ " : "✗ ") : "") + "  ".repeat(depth);
  if (cond.kind === "leaf") {
    lines.push(indent + sentence(cond));
    return;
  }
  lines.push(`${indent}${cond.kind === "and" ? "all of" : "any of"}:`);
  for (const operand of cond.operands) tree(operand, depth + 1, lines, held);
}

/** A comparison in words; a `!` one also holds for a record without the field, and says so. */
function sentence(leaf: Leaf): string {
  const phrase = OPERATORS[leaf.operator].reads;
  const onArray = leaf.field.type === "array" && phrase.array !== undefined;
  const verb = onArray ? phrase.array! : phrase.one;
  const value = Array.isArray(leaf.value)
    ? leaf.value.map(scalarSource).join(", ")
    : scalarSource(leaf.value);
  const missing = isNegativeOperator(leaf.operator) ? " (or is missing)" : "";
  return `${leaf.field.name} (${leaf.field.docType}) ${verb} ${value}${missing}`;
}
