import type { FieldInfo } from "../../catalog/index.js";
import { isNegativeOperator, negateOperator } from "../../syntax/index.js";
import { type Leaf, leafKey, type Meaning, withOperator } from "../ir.js";
import { choiceHolds, type FieldChoice, type Literal, solveField } from "./field.js";
import type { Witness } from "./value.js";

/**
 * A meaning as the search reads it, negated or not: each comparison a literal that also says
 * whether it holds when the field is missing (negating a whole filter turns `X lt 5` into "X geq 5,
 * or X missing", which no comparison says alone).
 */
type Formula =
  | { kind: "literal"; literal: Literal; key?: string }
  | { kind: "and" | "or"; operands: Formula[]; fields?: readonly string[] };

const TRUE: Formula = { kind: "and", operands: [] };

function literalFor(leaf: Leaf, negated: boolean): Literal {
  const present = negated ? withOperator(leaf, negateOperator(leaf.operator)) : leaf;
  // Missing, a comparison holds exactly when its operator is a `!` one; its negation the other way.
  return { present, holdsWhenMissing: isNegativeOperator(leaf.operator) !== negated };
}

function literalOf(leaf: Leaf, negated: boolean): Formula {
  return { kind: "literal", literal: literalFor(leaf, negated) };
}

/**
 * What tells a literal apart from others, made when first asked: only the full search asks, and
 * making the keys of every literal up front weighed on the greedy pass.
 */
function keyOf(formula: Formula & { kind: "literal" }): string {
  const { present, holdsWhenMissing } = formula.literal;
  formula.key ??= `${holdsWhenMissing ? "1" : "0"}${leafKey(present)}`;
  return formula.key;
}

function formulaOf(cond: Meaning, negated: boolean): Formula {
  switch (cond.kind) {
    case "leaf":
      return literalOf(cond, negated);
    case "and":
    case "or": {
      const kind = (cond.kind === "and") !== negated ? "and" : "or";
      return { kind, operands: cond.operands.map((operand) => formulaOf(operand, negated)) };
    }
  }
}

function negation(formula: Formula): Formula {
  if (formula.kind !== "literal") {
    return { kind: formula.kind === "and" ? "or" : "and", operands: formula.operands.map(negation) };
  }
  const { present, holdsWhenMissing } = formula.literal;
  const literal = {
    present: withOperator(present, negateOperator(present.operator)),
    holdsWhenMissing: !holdsWhenMissing,
  };
  return { kind: "literal", literal };
}

/** A filter's meaning and whether the question wants it to fail (`negated`): the conjuncts of one question to the search. */
interface Conjunct {
  /** Null for the empty filter, which every record passes. */
  cond: Meaning | null;
  negated: boolean;
}

/** The most branches and literals the search takes by default before it gives up (not in practice: see docs/diff.md). */
export const DEFAULT_MAX_SEARCH_STEPS = 1_000_000;

type SearchResult =
  | { status: "found"; record: Witness }
  | { status: "none" }
  | { status: "undecided"; steps: number };

/**
 * Finds a record (of the values the dataset can produce: any field missing, a present one of its
 * catalog type) for which every conjunct holds, or proves there is none. Exact: the fields are
 * independent, so the search branches over the `or`s, keeps per field the literals chosen, and
 * asks the field's solver (which decides each type exactly) whether they can all hold; `or`s over
 * disjoint fields are solved separately, and a branch that failed is assumed false in the next.
 */
export function findRecord(
  conjuncts: readonly Conjunct[],
  maxSteps = DEFAULT_MAX_SEARCH_STEPS,
): SearchResult {
  const search = new Search(maxSteps);
  try {
    const store = search.run(conjuncts);
    return store ? { status: "found", record: recordOf(store) } : { status: "none" };
  } catch (error) {
    if (error instanceof StepLimit) return { status: "undecided", steps: search.steps };
    throw error;
  }
}

/** Whether findRecord would answer "none", without making the record that the whole-filter warnings do not read. */
export function provedNoRecord(conjuncts: readonly Conjunct[], maxSteps: number): boolean {
  try {
    return new Search(maxSteps).run(conjuncts) === null;
  } catch (error) {
    if (error instanceof StepLimit) return false;
    throw error;
  }
}

/** The record a store gives: its present fields' values, by name. */
function recordOf(store: ReadonlyMap<unknown, Pick<FieldState, "field" | "choice">>): Witness {
  const record: Witness = new Map();
  for (const { field, choice } of store.values()) if (choice !== "missing") record.set(field.name, choice);
  return record;
}

class StepLimit extends Error {}

/** What a branch so far asks of one field, and a value that gives it. */
interface FieldState {
  field: FieldInfo;
  literals: Literal[];
  /** The literals' keys, so that an `or` whose literal the branch already holds needs no choice. */
  keys: Set<string>;
  choice: FieldChoice;
}

type Store = Map<string, FieldState>;

/**
 * The greedy pass's store: one, changed in place, that never asks whether it holds a literal;
 * keyed by the catalog's field object, cheaper to hash than its name.
 */
type GreedyStore = Map<FieldInfo, Omit<FieldState, "keys">>;

class Search {
  steps = 0;
  /** chooseInPlace's literals of one `or`. */
  private readonly literals: Literal[] = [];

  constructor(private readonly maxSteps: number) {}

  private step(): void {
    if (++this.steps > this.maxSteps) throw new StepLimit();
  }

  /** A store satisfying every conjunct: the greedy pass's, else the full search's; null when there is none. */
  run(conjuncts: readonly Conjunct[]): ReadonlyMap<unknown, Pick<FieldState, "field" | "choice">> | null {
    const greedy = this.greedy(conjuncts);
    if (greedy) return greedy;
    const formulas = conjuncts.map(({ cond, negated }) =>
      cond ? formulaOf(cond, negated) : negated ? negation(TRUE) : TRUE,
    );
    return this.solve(formulas, new Map());
  }

  /**
   * A store satisfying every conjunct found without going back: each `or` takes its first
   * comparison that the values chosen so far satisfy (or on a field not chosen yet), else its first
   * comparison that fits, else its first other operand. Null says nothing (the full search
   * decides); most questions that have an answer get it here, at a fraction of the cost. It walks the
   * meanings themselves, a negated conjunct flipping the sense, and makes a literal only for the
   * comparisons an `or` it reaches offers, instead of the full search's formulas, which is cheaper.
   */
  greedy(conjuncts: readonly Conjunct[]): GreedyStore | null {
    const store: GreedyStore = new Map();
    // The goals still to satisfy, as meanings and whether each is negated, taken last first.
    const goals: Meaning[] = [];
    const negations: boolean[] = [];
    for (const { cond, negated } of conjuncts) {
      // The empty filter: every record passes it, none fails it.
      if (!cond) {
        if (negated) return null;
        continue;
      }
      goals.push(cond);
      negations.push(negated);
    }
    while (goals.length > 0) {
      const goal = goals.pop()!;
      const negated = negations.pop()!;
      if (goal.kind === "leaf") {
        if (!this.addInPlace(store, literalFor(goal, negated), true)) return null;
      } else if ((goal.kind === "and") !== negated)
        for (const operand of goal.operands) {
          goals.push(operand);
          negations.push(negated);
        }
      else if (!this.chooseInPlace(store, goal.operands, negated, goals, negations)) return null;
    }
    return store;
  }

  /**
   * Satisfies one `or` of the greedy pass: by a comparison among its operands (one the store
   * satisfies, else one that fits), else by queueing its first other operand. False when none can.
   */
  private chooseInPlace(
    store: GreedyStore,
    operands: readonly Meaning[],
    negated: boolean,
    goals: Meaning[],
    negations: boolean[],
  ): boolean {
    // The literals made in the first pass, kept for the second: one array for the whole pass (an
    // `or` is chosen before the next is reached), its first `count` entries this `or`'s (setting
    // its length to clear it cost more than the rest of the pass).
    const literals = this.literals;
    let count = 0;
    let other: Meaning | undefined;
    for (const operand of operands) {
      if (operand.kind !== "leaf") {
        other ??= operand;
        continue;
      }
      const literal = literalFor(operand, negated);
      if (this.addInPlace(store, literal, false)) return true;
      literals[count++] = literal;
    }
    for (let i = 0; i < count; i++) if (this.addInPlace(store, literals[i]!, true)) return true;
    if (!other) return false;
    goals.push(other);
    negations.push(negated);
    return true;
  }

  /** A store satisfying every goal and the literals of `store`, or null when there is none. */
  solve(goals: readonly Formula[], base: Store): Store | null {
    const store = new Map(base);
    const ors: Formula[][] = [];
    const stack = [...goals];
    while (stack.length > 0) {
      const goal = stack.pop()!;
      if (goal.kind === "literal") {
        if (!this.add(store, goal)) return null;
      } else if (goal.kind === "and") for (const operand of goal.operands) stack.push(operand);
      else if (goal.operands.length === 0) return null;
      else ors.push(goal.operands);
    }
    const open = ors.filter((operands) => !operands.some((operand) => holdsSurely(store, operand)));
    if (open.length === 0) return store;
    for (const component of components(open)) {
      const solved = this.branch(component, store);
      if (!solved) return null;
      for (const [name, state] of solved) store.set(name, state);
    }
    return store;
  }

  /** Tries each operand of the narrowest `or` in turn, the others still to satisfy. */
  private branch(ors: Formula[][], store: Store): Store | null {
    let narrowest = 0;
    for (let i = 1; i < ors.length; i++) if (ors[i]!.length < ors[narrowest]!.length) narrowest = i;
    const rest = ors.filter((_, i) => i !== narrowest).map((operands): Formula => ({ kind: "or", operands }));
    const failed: Formula[] = [];
    for (const operand of ors[narrowest]!) {
      this.step();
      const solved = this.solve([...rest, ...failed, operand], store);
      if (solved) return solved;
      // No solution has this operand hold: the next branches may assume it does not.
      failed.push(negation(operand));
    }
    return null;
  }

  /**
   * Adds a literal to its field in the greedy pass's store, when the field's literals can then all
   * hold: at once when the value chosen satisfies it, else (with `resolve`, or for a field not chosen
   * yet) by solving the field again.
   */
  private addInPlace(store: GreedyStore, literal: Literal, resolve: boolean): boolean {
    const { field } = literal.present;
    const state = store.get(field);
    if (state && choiceHolds(literal, state.choice)) {
      this.step();
      state.literals.push(literal);
      return true;
    }
    // Without `resolve`, only a literal the chosen value satisfies, or of a field not chosen yet, is taken.
    if (state && !resolve) return false;
    this.step();
    const literals = state ? [...state.literals, literal] : [literal];
    const choice = solveField(field, literals);
    if (choice === undefined) return false;
    if (state) {
      state.literals = literals;
      state.choice = choice;
    } else store.set(field, { field, literals, choice });
    return true;
  }

  /**
   * Adds a literal to its field in the store, when the field's literals can then all hold. The
   * field's state is copied, since the stores of other branches share it.
   */
  private add(store: Store, goal: Formula & { kind: "literal" }): boolean {
    const { present } = goal.literal;
    const name = present.field.name;
    const state = store.get(name);
    if (state?.keys.has(keyOf(goal))) return true;
    this.step();
    // The value chosen so far often satisfies the new literal too: then nothing needs solving.
    if (state && choiceHolds(goal.literal, state.choice)) {
      store.set(name, extended(state, goal, state.choice));
      return true;
    }
    const literals = state ? [...state.literals, goal.literal] : [goal.literal];
    const choice = solveField(present.field, literals);
    if (choice === undefined) return false;
    store.set(
      name,
      state
        ? extended(state, goal, choice)
        : { field: present.field, literals, keys: new Set([keyOf(goal)]), choice },
    );
    return true;
  }
}

function extended(state: FieldState, goal: Formula & { kind: "literal" }, choice: FieldChoice): FieldState {
  const keys = new Set(state.keys);
  keys.add(keyOf(goal));
  return { field: state.field, literals: [...state.literals, goal.literal], keys, choice };
}

/** Whether the branch already holds this literal (so an `or` with it needs no choice). */
function holdsSurely(store: Store, formula: Formula): boolean {
  return (
    formula.kind === "literal" &&
    store.get(formula.literal.present.field.name)?.keys.has(keyOf(formula)) === true
  );
}

/** The fields a formula reads, kept on it once computed: the search asks again at every branch. */
function fieldsOf(formula: Formula): readonly string[] {
  if (formula.kind === "literal") return [formula.literal.present.field.name];
  formula.fields ??= [...new Set(formula.operands.flatMap((operand) => fieldsOf(operand)))];
  return formula.fields;
}

/** Groups the `or`s into sets that share no field: each set is solved on its own. */
function components(ors: Formula[][]): Formula[][][] {
  const groups: { fields: Set<string>; ors: Formula[][] }[] = [];
  for (const operands of ors) {
    const fields = new Set<string>();
    for (const operand of operands) for (const field of fieldsOf(operand)) fields.add(field);
    const merged = { fields, ors: [operands] };
    for (let i = groups.length - 1; i >= 0; i--) {
      const group = groups[i]!;
      if (![...group.fields].some((field) => fields.has(field))) continue;
      for (const field of group.fields) merged.fields.add(field);
      for (const or of group.ors) merged.ors.push(or);
      groups.splice(i, 1);
    }
    groups.push(merged);
  }
  return groups.map((group) => group.ors);
}
