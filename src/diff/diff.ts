import {
  type Cond,
  DEFAULT_MAX_SEARCH_STEPS,
  findRecord,
  type Meaning,
  meaningOrNullArgument,
} from "../check/index.js";
import { expectArgument, isObject } from "../diagnostics/index.js";
import { compilePredicate, parseRecord } from "../eval/index.js";
import { recordJson } from "./record.js";

/** How the records two filters keep compare: A ⊂ B is `subset`. */
export type Relation = "equivalent" | "subset" | "superset" | "overlap" | "disjoint";

/** Options of `diffFilters`. */
export interface DiffOptions {
  /** Most search steps per question before the comparison gives up undecided (default 1,000,000). */
  maxSearchSteps?: number;
}

/**
 * What `diffFilters` returns: how the two filters' sets of records relate, with example records where they
 * differ, or `decided: false` when the search gave up.
 */
export type FilterDiff =
  | {
      decided: true;
      relation: Relation;
      /** A record A keeps and B drops (compact JSON), or null when there is none. */
      onlyA: string | null;
      /** A record B keeps and A drops, or null when there is none. */
      onlyB: string | null;
    }
  | { decided: false; steps: number };

/** Options left out, or an object whose step budget is a whole number of at least 1 (or Infinity). */
const isDiffOptions = (value: unknown): value is DiffOptions | undefined => {
  if (value === undefined) return true;
  if (!isObject(value)) return false;
  const steps = value["maxSearchSteps"];
  return (
    steps === undefined ||
    (typeof steps === "number" &&
      steps >= 1 &&
      (Number.isInteger(steps) || steps === Number.POSITIVE_INFINITY))
  );
};

/**
 * Decides whether two checked filters keep exactly the same records (null is the empty filter,
 * which keeps all), over the records the dataset can produce, and otherwise how they relate, with
 * a record for each direction that differs. Filters compare by what they mean, their `not`s pushed
 * down as their JSON has them (`not X lt 5` and `X geq 5` are equivalent). Every record is run
 * through the evaluator before it is returned, so a record shown always separates the filters.
 */
export function diffFilters(a: Cond | null, b: Cond | null, options: DiffOptions = {}): FilterDiff {
  const meaningA = meaningOrNullArgument(a, "diffFilters", "a");
  const meaningB = meaningOrNullArgument(b, "diffFilters", "b");
  expectArgument(
    options,
    isDiffOptions,
    "diffFilters",
    "options",
    "{maxSearchSteps?} (a whole number of at least 1)",
  );
  return diffMeanings(meaningA, meaningB, options.maxSearchSteps ?? DEFAULT_MAX_SEARCH_STEPS);
}

function diffMeanings(a: Meaning | null, b: Meaning | null, maxSteps: number): FilterDiff {
  const onlyA = findRecord(
    [
      { cond: a, negated: false },
      { cond: b, negated: true },
    ],
    maxSteps,
  );
  if (onlyA.status === "undecided") return { decided: false, steps: onlyA.steps };
  const onlyB = findRecord(
    [
      { cond: b, negated: false },
      { cond: a, negated: true },
    ],
    maxSteps,
  );
  if (onlyB.status === "undecided") return { decided: false, steps: onlyB.steps };
  const keeps = { a: predicateOf(a), b: predicateOf(b) };
  const recordA = onlyA.status === "found" ? verified(recordJson(onlyA.record), keeps.a, keeps.b) : null;
  const recordB = onlyB.status === "found" ? verified(recordJson(onlyB.record), keeps.b, keeps.a) : null;
  let relation: Relation;
  if (!recordA && !recordB) relation = "equivalent";
  else if (!recordA) relation = "subset";
  else if (!recordB) relation = "superset";
  else {
    const both = findRecord(
      [
        { cond: a, negated: false },
        { cond: b, negated: false },
      ],
      maxSteps,
    );
    if (both.status === "undecided") return { decided: false, steps: both.steps };
    relation = both.status === "found" ? "overlap" : "disjoint";
  }
  return { decided: true, relation, onlyA: recordA, onlyB: recordB };
}

type Keeps = (record: Record<string, unknown>) => boolean;

/** The analysis's records are those the service filters: a timestamp is an integer of nanoseconds. */
const predicateOf = (cond: Meaning | null): Keeps =>
  cond ? compilePredicate(cond, { timestamps: "unixnano" }) : () => true;

/** The record, once the evaluator confirms that `keeps` keeps it and `drops` does not. */
function verified(json: string, keeps: Keeps, drops: Keeps): string {
  const record = parseRecord(json);
  if (!record || !keeps(record) || drops(record)) {
    throw new Error(`the meaning analysis found ${json}, which the evaluator does not confirm`);
  }
  return json;
}
