import {
  CUSTOM_FIELD_LISTS,
  type CustomFieldList,
  type CustomFieldsCheck,
  type CustomFieldsConfig,
  configFromRules,
  customFieldsRule,
  mergeCustomFields,
  type RulesetRule,
} from "./custom-fields.js";
import { ApiError, type Problem } from "./errors.js";

/** What a write of the custom fields asks for, applied again to whatever the zone holds when it is retried. */
export type CustomFieldsChange =
  | { kind: "set"; config: CustomFieldsConfig }
  | { kind: "add"; config: CustomFieldsConfig }
  | { kind: "remove"; config: CustomFieldsConfig }
  | { kind: "clear" };

/** One custom field a write added or removed. */
export interface CustomFieldChange {
  /** The list it is in. */
  list: CustomFieldList;
  /** Its name, as sent (header names lower case). */
  name: string;
  /** Whether the write put it in or took it out. */
  change: "added" | "removed";
}

/** The configuration `change` makes of `held`. */
export function applyChange(held: CustomFieldsConfig, change: CustomFieldsChange): CustomFieldsConfig {
  switch (change.kind) {
    case "set":
      return change.config;
    case "clear":
      return {};
    default:
      return mergeCustomFields(held, change.config, change.kind);
  }
}

/** What turns `before` into `after`, field by field, in the order of the lists. */
export function customFieldChanges(
  before: CustomFieldsConfig,
  after: CustomFieldsConfig,
): CustomFieldChange[] {
  const changes: CustomFieldChange[] = [];
  for (const { list } of CUSTOM_FIELD_LISTS) {
    const old = before[list] ?? [];
    const next = after[list] ?? [];
    for (const name of old) if (!next.includes(name)) changes.push({ list, name, change: "removed" });
    for (const name of next) if (!old.includes(name)) changes.push({ list, name, change: "added" });
  }
  return changes;
}

/** Whether two configurations hold the same names in the same order in every list. */
function sameConfig(a: CustomFieldsConfig, b: CustomFieldsConfig): boolean {
  return CUSTOM_FIELD_LISTS.every(({ list }) => (a[list] ?? []).join("\n") === (b[list] ?? []).join("\n"));
}

/**
 * `known` with what another writer changed from `before` to `after`: the names it added are kept;
 * a name it removed is dropped only when it was in `start`, what this write first read. A write
 * from an older read drops what it never saw, which is no one's wish; its writer puts that back.
 */
function keepOthers(
  known: CustomFieldsConfig,
  before: CustomFieldsConfig,
  after: CustomFieldsConfig,
  start: CustomFieldsConfig,
): CustomFieldsConfig {
  const kept: CustomFieldsConfig = {};
  for (const { list } of CUSTOM_FIELD_LISTS) {
    const old = before[list] ?? [];
    const next = after[list] ?? [];
    const removed = old.filter((name) => !next.includes(name) && (start[list] ?? []).includes(name));
    const names = (known[list] ?? []).filter((name) => !removed.includes(name));
    for (const name of next) if (!old.includes(name) && !names.includes(name)) names.push(name);
    if (names.length > 0) kept[list] = names;
  }
  return kept;
}

/** A ruleset as a PUT or a version read answers it: the fields the write reads. */
export interface StoredRuleset {
  version?: unknown;
  rules?: RulesetRule[];
}

/** The requests a write of the custom fields makes, and its bounds. */
export interface RulesetWrites {
  operation: string;
  /** PUTs the ruleset's rules; the ruleset as the service stored it. */
  put(rules: unknown[]): Promise<StoredRuleset>;
  /** The ruleset as it was at `version`. */
  readVersion(version: number): Promise<StoredRuleset>;
  /** The ruleset as it is now. */
  read(): Promise<StoredRuleset>;
  /** Waits before the write is done again (the `attempt`th time). */
  pause(attempt: number): Promise<void>;
  /** Holds a configuration to the rules and the limit in force. */
  check(config: CustomFieldsConfig): CustomFieldsCheck;
  maxConflictRetries: number;
  /** A dry run: the PUT is only shown, so there is nothing to confirm. */
  dryRun: boolean;
}

/** What a write ends with: the zone's configuration, what this write changed in it, and its notices. */
export interface WrittenCustomFields {
  config: CustomFieldsConfig;
  changes: CustomFieldChange[];
  notices: string[];
}

/** The rules a configuration is sent as: its one rule, or none for no fields. */
const rulesOf = (checked: CustomFieldsCheck): unknown[] =>
  Object.keys(checked.config).length === 0 ? [] : [customFieldsRule(checked.actionParameters)];

/** A ruleset's version, a string of digits; the write cannot tell a lost update without it. */
function versionOf(ruleset: StoredRuleset, operation: string, what: string): number {
  const version = ruleset.version;
  if (typeof version === "string" && /^\d{1,15}$/.test(version)) return Number(version);
  throw new ApiError(
    operation,
    "response",
    200,
    [],
    `${what} has no version (a string of digits), so a change made at the same time could not be told: nothing more was written; check the fields with filterc fields get`,
  );
}

/**
 * Writes `change` onto a ruleset read at `version` holding `held`, so that no change of another
 * writer is lost, though the PUT of the Rulesets API is not conditional. Every PUT creates a
 * version: one answered with `version + 1` had nothing in between. A higher one replaced the
 * versions in between (others' writes since the read): each is read (`GET …/versions/{v}`), what
 * its writer added or removed is kept, and `change` is written again onto that, until a PUT has
 * nothing in between or `maxConflictRetries` is spent. Each answer must hold what was sent.
 * `held` is what `ruleset` holds, and `checked` is `held` with `change`, already checked.
 */
export async function writeCustomFields(
  writes: RulesetWrites,
  ruleset: StoredRuleset,
  held: CustomFieldsConfig,
  change: CustomFieldsChange,
  checked: CustomFieldsCheck,
): Promise<WrittenCustomFields> {
  const { operation } = writes;
  const notices: string[] = [];
  let wanted = checked;
  let known = held;
  // A dry run only shows the PUT, and the ruleset it would create has no version yet.
  let base = writes.dryRun ? 0 : versionOf(ruleset, operation, "the ruleset read");
  let baseConfig = held;
  // Problems of the change once others' changes are in: the write then puts theirs back, without it.
  let refused: Problem[] | undefined;
  for (let attempt = 0; ; attempt++) {
    const answer = await writes.put(rulesOf(wanted));
    if (writes.dryRun)
      return { config: wanted.config, changes: customFieldChanges(held, wanted.config), notices };
    const stored = configFromRules(answer.rules ?? []);
    if (!sameConfig(stored, wanted.config))
      throw new ApiError(
        operation,
        "response",
        200,
        [],
        "the service answered the PUT with other custom fields than were sent; check them with filterc fields get",
      );
    const written = versionOf(answer, operation, "the ruleset the PUT answered");
    if (written <= base)
      throw new ApiError(
        operation,
        "response",
        200,
        [],
        `the PUT answered version ${written} of the ruleset, not one after the version ${base} it was made from; check the fields with filterc fields get`,
      );
    if (written === base + 1) {
      if (attempt > 0) notices.push(othersKept(attempt));
      if (refused)
        throw new ApiError(
          operation,
          "conflict",
          200,
          [],
          `the custom fields changed while this was written, and with those changes it is refused: ${refused.map((p) => `${p.path}: ${p.message}`).join("; ")}; the ruleset holds the other changes, without this one`,
        );
      return { config: wanted.config, changes: customFieldChanges(known, wanted.config), notices };
    }
    if (attempt === writes.maxConflictRetries)
      throw new ApiError(
        operation,
        "conflict",
        200,
        [],
        `other writes kept landing between this one's read and its PUT (${attempt + 1} tries, maxConflictRetries ${writes.maxConflictRetries}); the ruleset is at version ${written} and holds this change and the others' read so far; check the fields with filterc fields get`,
        "maxConflictRetries",
      );
    let before = baseConfig;
    for (let other = base + 1; other < written; other++) {
      const them = await readOther(writes, other);
      known = keepOthers(known, before, them, held);
      before = them;
    }
    await writes.pause(attempt);
    // The next try starts from a fresh read, so that only a read–PUT round trip is left open to
    // others; what they wrote since this PUT (its net change) is kept as theirs.
    const fresh = await writes.read();
    known = keepOthers(known, wanted.config, configFromRules(fresh.rules ?? []), held);
    base = versionOf(fresh, operation, "the ruleset read again");
    baseConfig = configFromRules(fresh.rules ?? []);
    const next = writes.check(applyChange(known, change));
    // The ruleset already holds this change and every other one known: nothing more to write.
    if (next.ok && sameConfig(next.config, baseConfig)) {
      notices.push(othersKept(attempt + 1));
      return { config: next.config, changes: customFieldChanges(known, next.config), notices };
    }
    if (next.ok) {
      wanted = next;
      refused = undefined;
    } else {
      refused = next.problems;
      wanted = writes.check(known);
    }
  }
}

/** The notice of a write that others overtook, their changes kept. */
const othersKept = (retries: number) =>
  `other writes changed the custom fields while this one was made: their changes are kept${retries === 0 ? "" : ` (${retries} ${retries === 1 ? "retry" : "retries"})`}`;

/** Another writer's version, or the failure that says its changes may be lost. */
async function readOther(writes: RulesetWrites, version: number): Promise<CustomFieldsConfig> {
  try {
    return configFromRules((await writes.readVersion(version)).rules ?? []);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw new ApiError(
      writes.operation,
      "conflict",
      error.status,
      error.errors,
      `another write landed between this one's read and its PUT, and its version ${version} cannot be read (${error.message}): its changes may be lost; check the fields with filterc fields get`,
    );
  }
}
