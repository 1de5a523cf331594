import {
  CUSTOM_FIELD_ACTION,
  CUSTOM_FIELDS_PHASE,
  HTTP_TOKEN,
  MAX_CUSTOM_FIELDS,
  UNSUPPORTED_REQUEST_HEADERS,
} from "../api/custom-fields.js";
import { invalidRulesetValue } from "./errors.js";
import type { Rule, Ruleset } from "./model.js";

export { CUSTOM_FIELDS_PHASE };

/** Most entries in one list (the documented limit per array). */
export const MAX_FIELDS_PER_LIST = 100;

const requestLists = ["request_fields", "transformed_request_fields"] as const;
const responseLists = ["response_fields", "raw_response_fields"] as const;
const lists = [...requestLists, ...responseLists, "cookie_fields"] as const;
type ListName = (typeof lists)[number];

const quoted = (value: unknown) => `'${typeof value === "string" ? value : JSON.stringify(value)}'`;

/**
 * Holds the rules of the custom fields phase to the seed's rules: (1) the action is
 * `log_custom_field` and the expression `true`; (2) header names are lower-case header tokens,
 * cookie names tokens kept exactly; (3) no name twice, and no header both raw and transformed;
 * (4) at least one list, at most 100 entries per list and 40 fields in total.
 */
export function checkCustomFieldRules(rules: readonly Rule[]): void {
  let total = 0;
  rules.forEach((rule, index) => {
    const at = `/rules/${index}`;
    if (rule.action !== CUSTOM_FIELD_ACTION)
      throw invalidRulesetValue(
        `${at}/action`,
        `${quoted(rule.action)} is not a valid value for action because the ${CUSTOM_FIELDS_PHASE} phase takes only 'log_custom_field'`,
      );
    if (rule.expression !== "true")
      throw invalidRulesetValue(
        `${at}/expression`,
        `${quoted(rule.expression)} is not a valid value for expression because custom log fields are set with the expression 'true'`,
      );
    total += checkActionParameters(rule.action_parameters, `${at}/action_parameters`);
    if (total > MAX_CUSTOM_FIELDS)
      throw invalidRulesetValue(
        `${at}/action_parameters`,
        `${total} fields is not a valid value for action_parameters because at most ${MAX_CUSTOM_FIELDS} custom fields are allowed in total`,
      );
  });
}

function checkActionParameters(parameters: unknown, at: string): number {
  if (typeof parameters !== "object" || parameters === null || Array.isArray(parameters))
    throw invalidRulesetValue(
      at,
      `action_parameters is required for 'log_custom_field' and must list at least one of ${lists.join(", ")}`,
    );
  const record = parameters as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (!(lists as readonly string[]).includes(key))
      throw invalidRulesetValue(
        `${at}/${key}`,
        `'${key}' is not a valid action parameter for 'log_custom_field'; use ${lists.join(", ")}`,
      );
  const present = lists.filter((list) => record[list] !== undefined);
  if (present.length === 0)
    throw invalidRulesetValue(at, `action_parameters must list at least one of ${lists.join(", ")}`);
  const seen = new Map<string, ListName>();
  let count = 0;
  for (const list of present) {
    const entries = record[list];
    if (!Array.isArray(entries) || entries.length === 0 || entries.length > MAX_FIELDS_PER_LIST)
      throw invalidRulesetValue(
        `${at}/${list}`,
        `${list} must be an array of 1 to ${MAX_FIELDS_PER_LIST} entries`,
      );
    entries.forEach((entry, index) => {
      checkEntry(entry, list, `${at}/${list}/${index}`, seen);
    });
    count += entries.length;
  }
  return count;
}

function checkEntry(entry: unknown, list: ListName, at: string, seen: Map<string, ListName>): void {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry))
    throw invalidRulesetValue(at, `each entry of ${list} must be an object with a name`);
  const { name, preserve_duplicates: preserve, ...rest } = entry as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined)
    throw invalidRulesetValue(`${at}/${extra}`, `'${extra}' is not a valid property of a ${list} entry`);
  if (preserve !== undefined && (typeof preserve !== "boolean" || !isResponseList(list)))
    throw invalidRulesetValue(
      `${at}/preserve_duplicates`,
      "preserve_duplicates is a boolean, allowed only on response_fields and raw_response_fields",
    );
  if (typeof name !== "string" || name === "")
    throw invalidRulesetValue(`${at}/name`, `each entry of ${list} needs a non-empty string name`);
  const isCookie = list === "cookie_fields";
  const what = isCookie ? "cookie" : "header";
  if (!HTTP_TOKEN.test(name))
    throw invalidRulesetValue(
      `${at}/name`,
      `${quoted(name)} is not a valid value for name because it is not a valid ${what} name`,
    );
  if (!isCookie && name !== name.toLowerCase())
    throw invalidRulesetValue(
      `${at}/name`,
      `${quoted(name)} is not a valid value for name because header names must be lower case; write '${name.toLowerCase()}'`,
    );
  if ((requestLists as readonly string[]).includes(list) && UNSUPPORTED_REQUEST_HEADERS.has(name))
    throw invalidRulesetValue(
      `${at}/name`,
      `'range' is not a valid value for name because the Range request header is not supported`,
    );
  const key = `${isCookie ? "cookie" : isResponseList(list) ? "response" : "request"}:${name}`;
  const earlier = seen.get(key);
  if (earlier !== undefined)
    throw invalidRulesetValue(
      `${at}/name`,
      earlier === list
        ? `${quoted(name)} is not a valid value for name because it is listed twice in ${list}`
        : `${quoted(name)} is not a valid value for name because a header is logged either raw or transformed, and it is already in ${earlier}`,
    );
  seen.set(key, list);
}

function isResponseList(list: ListName): boolean {
  return (responseLists as readonly string[]).includes(list);
}

/** The fields a zone logs, from its enabled custom fields rules. */
export interface CustomFields {
  requestHeaders: string[];
  responseHeaders: string[];
  cookies: string[];
}

export function customFieldsOf(rulesets: readonly Ruleset[]): CustomFields {
  const fields: CustomFields = { requestHeaders: [], responseHeaders: [], cookies: [] };
  const entrypoint = rulesets.find((r) => r.kind === "zone" && r.phase === CUSTOM_FIELDS_PHASE);
  for (const rule of entrypoint?.rules ?? []) {
    if (!rule.enabled) continue;
    const parameters = (rule.action_parameters ?? {}) as Partial<Record<ListName, unknown>>;
    // A saved ruleset is checked for its types only: a list that is no list of names adds none.
    const names = (list: ListName) => {
      const entries = parameters[list];
      if (!Array.isArray(entries)) return [];
      return entries.flatMap((entry: { name?: unknown } | null) =>
        typeof entry?.name === "string" ? [entry.name] : [],
      );
    };
    for (const list of requestLists) for (const name of names(list)) fields.requestHeaders.push(name);
    for (const list of responseLists) for (const name of names(list)) fields.responseHeaders.push(name);
    for (const name of names("cookie_fields")) fields.cookies.push(name);
  }
  return fields;
}
