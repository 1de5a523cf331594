import { expectArgument, isObject } from "../diagnostics/index.js";
import { isStrings } from "./argument-shapes.js";
import type { Problem } from "./errors.js";
import { problem } from "./problems.js";

/** The zone's custom log fields, by list. Header names are lower case; cookie names keep their case. */
export interface CustomFieldsConfig {
  /** Raw request headers (`request_fields`). */
  requestHeaders?: string[];
  /** Request headers after Transform Rules (`transformed_request_fields`). */
  transformedRequestHeaders?: string[];
  /** Response headers after Transform Rules (`response_fields`). */
  responseHeaders?: string[];
  /** Response headers as the origin sent them (`raw_response_fields`). */
  rawResponseHeaders?: string[];
  /** Cookies (`cookie_fields`). */
  cookies?: string[];
}

export type CustomFieldList = keyof CustomFieldsConfig;

/** Each list and the `action_parameters` key it is sent as, in the order they are sent. */
export const CUSTOM_FIELD_LISTS: ReadonlyArray<{
  list: CustomFieldList;
  key: string;
  kind: "header" | "cookie";
}> = [
  { list: "requestHeaders", key: "request_fields", kind: "header" },
  { list: "transformedRequestHeaders", key: "transformed_request_fields", kind: "header" },
  { list: "responseHeaders", key: "response_fields", kind: "header" },
  { list: "rawResponseHeaders", key: "raw_response_fields", kind: "header" },
  { list: "cookies", key: "cookie_fields", kind: "cookie" },
];

/** Custom fields a zone may log, across all lists. */
export const MAX_CUSTOM_FIELDS = 40;
export const CUSTOM_FIELDS_PHASE = "http_log_custom_fields";
export const CUSTOM_FIELD_ACTION = "log_custom_field";
/** Request headers the service refuses to log. */
export const UNSUPPORTED_REQUEST_HEADERS: ReadonlySet<string> = new Set(["range"]);
/** An HTTP token (RFC 9110 `tchar`): header names and cookie names. */
export const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export type ActionParameters = Record<string, Array<{ name: string }>>;

export interface CustomFieldsCheck {
  ok: boolean;
  /** The configuration as it will be sent (header names lower-cased, empty lists dropped). */
  config: CustomFieldsConfig;
  actionParameters: ActionParameters;
  problems: Problem[];
  /** What was changed on the way (lower-cased header names). */
  notices: string[];
}

/** A configuration whose lists, each given or not, are arrays of names. */
const isConfig = (value: unknown): value is CustomFieldsConfig =>
  isObject(value) &&
  CUSTOM_FIELD_LISTS.every(({ list }) => value[list] === undefined || isStrings(value[list]));

/**
 * Checks a configuration against the service's rules before anything is sent: at least one list;
 * header names are valid tokens, lower-cased (with a notice); cookie names are valid tokens kept as
 * written; no name twice in a list; a header is raw or transformed, not both; `range` is refused;
 * at most 40 fields in all.
 */
export function checkCustomFields(config: CustomFieldsConfig): CustomFieldsCheck {
  expectArgument(
    config,
    isConfig,
    "checkCustomFields",
    "config",
    "an object of lists of names ({requestHeaders?: string[], …})",
  );
  const problems: Problem[] = [];
  const notices: string[] = [];
  const normalized: CustomFieldsConfig = {};
  const actionParameters: ActionParameters = {};
  let total = 0;
  for (const { list, key, kind } of CUSTOM_FIELD_LISTS) {
    const names = config[list];
    if (names === undefined || names.length === 0) continue;
    const seen = new Set<string>();
    const kept: string[] = [];
    names.forEach((written, index) => {
      const path = `${list}[${index}]`;
      total++;
      if (!HTTP_TOKEN.test(written)) {
        problems.push(
          problem(kind === "header" ? "InvalidHeaderName" : "InvalidCookieName", path, { name: written }),
        );
        return;
      }
      const name = kind === "header" ? written.toLowerCase() : written;
      if (name !== written)
        notices.push(
          `${path}: header name ${JSON.stringify(written)} sent as ${JSON.stringify(name)} (header names are lower case)`,
        );
      if (list === "requestHeaders" || list === "transformedRequestHeaders") {
        if (UNSUPPORTED_REQUEST_HEADERS.has(name)) {
          problems.push(problem("UnsupportedHeader", path, { name }));
          return;
        }
      }
      if (seen.has(name)) {
        problems.push(problem("DuplicateCustomField", path, { name, list }));
        return;
      }
      seen.add(name);
      kept.push(name);
    });
    normalized[list] = kept;
    if (kept.length > 0) actionParameters[key] = kept.map((name) => ({ name }));
  }
  for (const [raw, transformed] of [
    ["requestHeaders", "transformedRequestHeaders"],
    ["rawResponseHeaders", "responseHeaders"],
  ] as const) {
    const rawNames = new Set(normalized[raw] ?? []);
    (normalized[transformed] ?? []).forEach((name) => {
      if (rawNames.has(name)) {
        const index = (config[transformed] ?? []).findIndex((written) => written.toLowerCase() === name);
        problems.push(problem("RawAndTransformed", `${transformed}[${index}]`, { name, raw, transformed }));
      }
    });
  }
  if (total === 0) problems.push(problem("NoCustomFields", "config", {}));
  if (total > MAX_CUSTOM_FIELDS)
    problems.push(problem("TooManyCustomFields", "config", { count: total, limit: MAX_CUSTOM_FIELDS }));
  return { ok: problems.length === 0, config: normalized, actionParameters, problems, notices };
}

/** The single rule of the `http_log_custom_fields` ruleset. */
export function customFieldsRule(actionParameters: ActionParameters) {
  expectArgument(actionParameters, isObject, "customFieldsRule", "actionParameters", "an object");
  return {
    action: CUSTOM_FIELD_ACTION,
    expression: "true",
    description: "Set Logpush custom fields for HTTP requests",
    enabled: true,
    action_parameters: actionParameters,
  };
}

/** A rule as the API returns it (the fields this module reads). */
export interface RulesetRule {
  id?: string;
  action?: string;
  expression?: string;
  enabled?: boolean;
  action_parameters?: Record<string, unknown>;
}

/** The configuration a ruleset's rules carry (every `log_custom_field` rule, lists merged). */
export function configFromRules(rules: readonly RulesetRule[]): CustomFieldsConfig {
  const isRules = (value: unknown): value is RulesetRule[] => Array.isArray(value) && value.every(isObject);
  expectArgument(rules, isRules, "configFromRules", "rules", "a ruleset's rules (an array of objects)");
  const config: CustomFieldsConfig = {};
  for (const rule of rules) {
    if (rule.action !== CUSTOM_FIELD_ACTION) continue;
    for (const { list, key } of CUSTOM_FIELD_LISTS) {
      const items = rule.action_parameters?.[key];
      if (!Array.isArray(items)) continue;
      const names = items
        .map((item) => (item as { name?: unknown }).name)
        .filter((name): name is string => typeof name === "string");
      config[list] = [...(config[list] ?? []), ...names];
    }
  }
  return config;
}

/** Whether the ruleset already holds exactly the rule that would be sent. */
export function rulesMatch(rules: readonly RulesetRule[], actionParameters: ActionParameters): boolean {
  if (rules.length !== 1) return false;
  const rule = rules[0]!;
  if (rule.action !== CUSTOM_FIELD_ACTION || rule.expression !== "true" || rule.enabled === false)
    return false;
  const existing = rule.action_parameters ?? {};
  const keys = Object.keys(existing).filter(
    (key) => Array.isArray(existing[key]) && (existing[key] as unknown[]).length > 0,
  );
  if (keys.length !== Object.keys(actionParameters).length) return false;
  return keys.every((key) => {
    const wanted = actionParameters[key];
    const items = existing[key] as Array<{ name?: unknown; preserve_duplicates?: unknown }>;
    return (
      wanted !== undefined &&
      items.length === wanted.length &&
      items.every((item, i) => item.name === wanted[i]!.name && item.preserve_duplicates !== true)
    );
  });
}

/**
 * `current` with the lists of `change` added (new names appended, in order) or removed. Header names
 * compare without letter case, cookie names with it.
 */
export function mergeCustomFields(
  current: CustomFieldsConfig,
  change: CustomFieldsConfig,
  merge: "add" | "remove",
): CustomFieldsConfig {
  const merged: CustomFieldsConfig = {};
  for (const { list, kind } of CUSTOM_FIELD_LISTS) {
    const key = (name: string) => (kind === "header" ? name.toLowerCase() : name);
    const names = [...(current[list] ?? [])];
    const changed = new Set((change[list] ?? []).map(key));
    const kept =
      merge === "add"
        ? [...names, ...(change[list] ?? []).filter((name) => !names.some((n) => key(n) === key(name)))]
        : names.filter((name) => !changed.has(key(name)));
    if (kept.length > 0) merged[list] = kept;
  }
  return merged;
}
