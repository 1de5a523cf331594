import {
  CUSTOM_FIELDS_PHASE,
  type CustomFieldColumn,
  type CustomFieldsLimit,
  checkCustomFieldRules,
  configFromRules,
  namesByColumn,
} from "../api/custom-fields.js";
import { invalidRulesetValue } from "./errors.js";
import type { Ruleset } from "./model.js";

export { CUSTOM_FIELDS_PHASE };

/**
 * Holds the rules of the custom fields phase to the custom-field rules 1–4 under `limit`, with the
 * check the client runs before it sends: the first problem is the answer, its message and its pointer.
 */
export function checkCustomFieldsPhase(rules: readonly unknown[], limit: CustomFieldsLimit): void {
  const first = checkCustomFieldRules(rules, { limit })[0];
  if (first) throw invalidRulesetValue(first.path, first.message);
}

/** The names a zone logs in each field, from its enabled custom fields rules. */
export type CustomFields = Record<CustomFieldColumn, string[]>;

export function customFieldsOf(rulesets: readonly Ruleset[]): CustomFields {
  const entrypoint = rulesets.find((r) => r.kind === "zone" && r.phase === CUSTOM_FIELDS_PHASE);
  return namesByColumn(configFromRules((entrypoint?.rules ?? []).filter((rule) => rule.enabled)));
}
