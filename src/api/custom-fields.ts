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

/** One of the five lists of custom fields, by its name in a configuration (`requestHeaders`, …). */
export type CustomFieldList = keyof CustomFieldsConfig;

/** The http_requests fields a job selects to get the custom fields' values. */
export const CUSTOM_FIELD_COLUMNS = ["RequestHeaders", "ResponseHeaders", "Cookies"] as const;
export type CustomFieldColumn = (typeof CUSTOM_FIELD_COLUMNS)[number];

/**
 * Each list: the `action_parameters` key it is sent as (in the order they are sent and checked), what
 * it holds, and the field of the log its values land in (a header is logged raw or transformed in its
 * field, not both; `ResponseHeaders` entries may carry `preserve_duplicates`).
 */
export const CUSTOM_FIELD_LISTS: ReadonlyArray<{
  list: CustomFieldList;
  key: string;
  kind: "header" | "cookie";
  column: CustomFieldColumn;
  /** One name of the list, in words. */
  noun: string;
}> = [
  {
    list: "requestHeaders",
    key: "request_fields",
    kind: "header",
    column: "RequestHeaders",
    noun: "request header",
  },
  {
    list: "transformedRequestHeaders",
    key: "transformed_request_fields",
    kind: "header",
    column: "RequestHeaders",
    noun: "transformed request header",
  },
  {
    list: "responseHeaders",
    key: "response_fields",
    kind: "header",
    column: "ResponseHeaders",
    noun: "response header",
  },
  {
    list: "rawResponseHeaders",
    key: "raw_response_fields",
    kind: "header",
    column: "ResponseHeaders",
    noun: "raw response header",
  },
  { list: "cookies", key: "cookie_fields", kind: "cookie", column: "Cookies", noun: "cookie" },
];

/**
 * The limits a zone's custom fields can be held to, by name (option customFieldsLimit,
 * `--custom-fields-limit`). `service`, the default: Cloudflare's custom-fields page today, "100
 * headers per field type", each of the five lists counted on its own. `seed`: the older figure
 * filterc was first written against, 40 per zone across all lists.
 */
export const CUSTOM_FIELDS_LIMITS = {
  service: { most: 100, per: "list" },
  seed: { most: 40, per: "zone" },
} as const satisfies Record<CustomFieldsLimit, { most: number; per: "list" | "zone" }>;
/** A named custom-field limit: `service` (100 in each list) or `seed` (40 across all lists). */
export type CustomFieldsLimit = "service" | "seed";
/** The limit a zone's custom fields are held to unless another is named: the service's today. */
export const DEFAULT_CUSTOM_FIELDS_LIMIT: CustomFieldsLimit = "service";

export const isCustomFieldsLimit = (value: unknown): value is CustomFieldsLimit =>
  typeof value === "string" && Object.hasOwn(CUSTOM_FIELDS_LIMITS, value);

/** The limit in words: "at most 100 in each list" or "at most 40 across all lists". */
export function customFieldsLimitWords(limit: CustomFieldsLimit): string {
  const { most, per } = CUSTOM_FIELDS_LIMITS[limit];
  return per === "list" ? `at most ${most} in each list` : `at most ${most} across all lists`;
}

export const CUSTOM_FIELDS_PHASE = "http_log_custom_fields";
const CUSTOM_FIELD_ACTION = "log_custom_field";
/** Request headers the service refuses to log. */
const UNSUPPORTED_REQUEST_HEADERS: ReadonlySet<string> = new Set(["range"]);
/** An HTTP token (RFC 9110 `tchar`): header names and cookie names. */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * The `action_parameters` of a custom-fields rule: for each list (`request_fields`, `response_fields`,
 * `cookie_fields`), the names it logs.
 */
export type ActionParameters = Record<string, Array<{ name: string }>>;

/** What `checkCustomFieldRules` finds in a custom-fields ruleset: its problems, and the configuration it holds. */
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
 * Checks a configuration before anything is sent: header names are lower-cased first (with a
 * notice; cookie names are kept as written), then the rule that would be sent is held to the
 * custom-field rules (`checkCustomFieldRules`), every problem named by its list and index
 * (`requestHeaders[2]`).
 */
export function checkCustomFields(
  config: CustomFieldsConfig,
  options: { limit?: CustomFieldsLimit } = {},
): CustomFieldsCheck {
  expectArgument(
    config,
    isConfig,
    "checkCustomFields",
    "config",
    "an object of lists of names ({requestHeaders?: string[], …})",
  );
  expectArgument(options, isLimitOptions, "checkCustomFields", "options", LIMIT_OPTIONS);
  const notices: string[] = [];
  const normalized: CustomFieldsConfig = {};
  const actionParameters: ActionParameters = {};
  for (const { list, key, kind } of CUSTOM_FIELD_LISTS) {
    const names = config[list];
    if (names === undefined || names.length === 0) continue;
    normalized[list] = names.map((written, index) => {
      const name = kind === "header" && HTTP_TOKEN.test(written) ? written.toLowerCase() : written;
      if (name !== written)
        notices.push(
          `${list}[${index}]: header name ${JSON.stringify(written)} sent as ${JSON.stringify(name)} (header names are lower case)`,
        );
      return name;
    });
    actionParameters[key] = normalized[list].map((name) => ({ name }));
  }
  const problems = checkCustomFieldRules([customFieldsRule(actionParameters)], options).map((found) => ({
    ...found,
    path: configPath(found.path),
  }));
  return { ok: problems.length === 0, config: normalized, actionParameters, problems, notices };
}

/** A rule check's pointer as the configuration names it: `requestHeaders[2]`, a list, or `config` for the whole. */
function configPath(pointer: string): string {
  const entry = /^\/rules\/0\/action_parameters\/([a-z_]+)(?:\/(\d+)\/name)?$/.exec(pointer);
  const list = CUSTOM_FIELD_LISTS.find(({ key }) => key === entry?.[1])?.list;
  if (list !== undefined) return entry![2] === undefined ? list : `${list}[${entry![2]}]`;
  return pointer === "/rules/0/action_parameters" ? "config" : pointer;
}

const LIMIT_OPTIONS = '{limit?: "service" | "seed"}';
const isLimitOptions = (value: unknown): value is { limit?: CustomFieldsLimit } =>
  isObject(value) && (value["limit"] === undefined || isCustomFieldsLimit(value["limit"]));

/** A value found where another was due, for messages: text as JSON, anything else by its kind. */
function shown(value: unknown): string {
  if (value === undefined) return "missing";
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return "an array";
  return value === null ? "null" : typeof value === "object" ? "an object" : String(value);
}

/**
 * The rules of a zone's custom fields (the `http_log_custom_fields` phase), held by the client
 * before it sends and by the sandbox on what it receives, every problem at its JSON pointer
 * (`/rules/0/action_parameters/request_fields/2/name`):
 * (1) a rule is `action: "log_custom_field"`, `expression: "true"` and `action_parameters` of the
 * five lists, each a non-empty list of `{name}` entries (`preserve_duplicates` on response lists);
 * (2) header names are lower-case HTTP tokens and `range` is no request header to log; cookie names
 * are HTTP tokens, kept as written;
 * (3) a name once in a list, and a header raw or transformed (in its log field), not both;
 * (4) at least one field in a rule, and no more than `options.limit` allows (`CUSTOM_FIELDS_LIMITS`:
 * by default 100 in each list, counted across the rules; with `seed`, 40 in all).
 */
export function checkCustomFieldRules(
  rules: readonly unknown[],
  options: { limit?: CustomFieldsLimit } = {},
): Problem[] {
  expectArgument(rules, Array.isArray, "checkCustomFieldRules", "rules", "a ruleset's rules (an array)");
  expectArgument(options, isLimitOptions, "checkCustomFieldRules", "options", LIMIT_OPTIONS);
  const { most, per } = CUSTOM_FIELDS_LIMITS[options.limit ?? DEFAULT_CUSTOM_FIELDS_LIMIT];
  const problems: Problem[] = [];
  const counts = new Map<string, number>();
  let total = 0;
  let crossed: string | undefined;
  /** Where each list first went past the limit. */
  const listsCrossed = new Map<string, string>();
  rules.forEach((rule, index) => {
    const at = `/rules/${index}`;
    if (!isObject(rule)) {
      problems.push(problem("InvalidCustomFieldShape", at, { reason: "each rule is an object" }));
      return;
    }
    if (rule["action"] !== CUSTOM_FIELD_ACTION)
      problems.push(
        problem("InvalidCustomFieldRule", `${at}/action`, {
          member: "action",
          value: shown(rule["action"]),
          expected: JSON.stringify(CUSTOM_FIELD_ACTION),
        }),
      );
    if (rule["expression"] !== "true")
      problems.push(
        problem("InvalidCustomFieldRule", `${at}/expression`, {
          member: "expression",
          value: shown(rule["expression"]),
          expected: '"true", so that the fields are logged for every request',
        }),
      );
    const found = checkActionParameters(rule["action_parameters"], `${at}/action_parameters`, problems);
    for (const [key, count] of found) {
      total += count;
      counts.set(key, (counts.get(key) ?? 0) + count);
      if (per === "list" && counts.get(key)! > most && !listsCrossed.has(key))
        listsCrossed.set(key, `${at}/action_parameters/${key}`);
    }
    if (per === "zone" && total > most && crossed === undefined) crossed = `${at}/action_parameters`;
  });
  if (crossed !== undefined)
    problems.push(problem("TooManyCustomFields", crossed, { count: total, limit: most }));
  for (const { key, noun } of CUSTOM_FIELD_LISTS) {
    const place = listsCrossed.get(key);
    if (place !== undefined)
      problems.push(
        problem("TooManyInCustomFieldList", place, {
          count: counts.get(key)!,
          what: `${noun}s`,
          list: key,
          limit: most,
        }),
      );
  }
  return problems;
}

/** Checks one rule's lists and their entries; the number of entries of each list, counted toward the limit. */
function checkActionParameters(parameters: unknown, at: string, problems: Problem[]): Map<string, number> {
  const counts = new Map<string, number>();
  const keys = CUSTOM_FIELD_LISTS.map(({ key }) => key);
  if (parameters !== undefined && !isObject(parameters)) {
    problems.push(
      problem("InvalidCustomFieldShape", at, {
        reason: `action_parameters is an object of the lists ${keys.join(", ")}, not ${shown(parameters)}`,
      }),
    );
    return counts;
  }
  const given = parameters ?? {};
  for (const key of Object.keys(given))
    if (!keys.includes(key))
      problems.push(
        problem("InvalidCustomFieldShape", `${at}/${key}`, {
          reason: `${JSON.stringify(key)} is not a list of custom fields; use ${keys.join(", ")}`,
        }),
      );
  const present = CUSTOM_FIELD_LISTS.filter(({ key }) => given[key] !== undefined);
  if (present.length === 0) {
    problems.push(problem("NoCustomFields", at, {}));
    return counts;
  }
  const seen = new Map<string, string>();
  for (const { key, kind, column } of present) {
    const entries = given[key];
    if (!Array.isArray(entries) || entries.length === 0) {
      problems.push(
        problem("InvalidCustomFieldShape", `${at}/${key}`, {
          reason: Array.isArray(entries)
            ? `${key} is empty; leave it out, or list at least one name`
            : `${key} is a list of {"name": …} entries, not ${shown(entries)}`,
        }),
      );
      continue;
    }
    entries.forEach((entry, index) => {
      const found = checkEntry(entry, `${at}/${key}/${index}`, key, kind, column, seen);
      if (found) problems.push(found);
    });
    counts.set(key, entries.length);
  }
  return counts;
}

/** The first problem of one entry (at `at`), or none; `seen` holds the names met so far by log field. */
function checkEntry(
  entry: unknown,
  at: string,
  key: string,
  kind: "header" | "cookie",
  column: CustomFieldColumn,
  seen: Map<string, string>,
): Problem | undefined {
  const shape = (member: string, reason: string) =>
    problem("InvalidCustomFieldShape", `${at}${member}`, { reason });
  if (!isObject(entry)) return shape("", `each entry of ${key} is an object {"name": …}`);
  const { name, preserve_duplicates: preserve, ...rest } = entry;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined)
    return shape(
      `/${extra}`,
      `${JSON.stringify(extra)} is not a property of a custom field; an entry has name (and preserve_duplicates in response lists)`,
    );
  if (preserve !== undefined && (typeof preserve !== "boolean" || column !== "ResponseHeaders"))
    return shape(
      "/preserve_duplicates",
      "preserve_duplicates is true or false, and only response_fields and raw_response_fields take it",
    );
  if (typeof name !== "string") return shape("/name", `each entry of ${key} has a name, a string`);
  const named = `${at}/name`;
  if (!HTTP_TOKEN.test(name))
    return problem(kind === "header" ? "InvalidHeaderName" : "InvalidCookieName", named, { name });
  if (kind === "header" && name !== name.toLowerCase()) return problem("HeaderNotLowerCase", named, { name });
  if (column === "RequestHeaders" && UNSUPPORTED_REQUEST_HEADERS.has(name))
    return problem("UnsupportedHeader", named, { name });
  const earlier = seen.get(`${column}:${name}`);
  if (earlier === undefined) seen.set(`${column}:${name}`, key);
  if (earlier === key) return problem("DuplicateCustomField", named, { name });
  if (earlier !== undefined) return problem("RawAndTransformed", named, { name });
  return undefined;
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
        .map((item) => (item as { name?: unknown } | null)?.name)
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
    const names = current[list] ?? [];
    const given = change[list] ?? [];
    const held = (among: readonly string[], name: string) =>
      among.some((other) => sameName(kind, other, name));
    const kept =
      merge === "add"
        ? [...names, ...given.filter((name) => !held(names, name))]
        : names.filter((name) => !held(given, name));
    if (kept.length > 0) merged[list] = kept;
  }
  return merged;
}

/**
 * The names `change` would remove that `current` does not hold, each a problem that says where the
 * zone has it instead: a cookie spelled in another letter case, a header in another list.
 */
export function unconfiguredNames(current: CustomFieldsConfig, change: CustomFieldsConfig): Problem[] {
  const problems: Problem[] = [];
  for (const { list, kind, noun } of CUSTOM_FIELD_LISTS)
    (change[list] ?? []).forEach((name, index) => {
      if ((current[list] ?? []).some((held) => sameName(kind, held, name))) return;
      const configured = configuredElsewhere(current, list, name);
      problems.push(
        problem("CustomFieldNotConfigured", `${list}[${index}]`, {
          name,
          what: noun,
          ...(configured === undefined ? {} : { configured }),
        }),
      );
    });
  return problems;
}

/** Notices for cookies added beside a configured cookie of the same name in another letter case. */
export function cookieCaseNotices(current: CustomFieldsConfig, change: CustomFieldsConfig): string[] {
  return (change.cookies ?? []).flatMap((name, index) => {
    const other = (current.cookies ?? []).find((held) => held !== name && sameSpelling(held, name));
    return other === undefined || (current.cookies ?? []).includes(name)
      ? []
      : [
          `cookies[${index}]: ${JSON.stringify(name)} is added beside the configured ${JSON.stringify(other)} (cookie names are case-sensitive)`,
        ];
  });
}

/** Header names compare without letter case, cookie names with it. */
function sameName(kind: "header" | "cookie", a: string, b: string): boolean {
  return kind === "header" ? sameSpelling(a, b) : a === b;
}

function sameSpelling(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Where the zone holds a name that is not in `list`: its cookie spelled otherwise, or its header in another list. */
function configuredElsewhere(
  current: CustomFieldsConfig,
  list: CustomFieldList,
  name: string,
): string | undefined {
  if (list === "cookies") {
    const spelled = (current.cookies ?? []).find((held) => sameSpelling(held, name));
    return spelled === undefined ? undefined : `${JSON.stringify(spelled)} (cookie names are case-sensitive)`;
  }
  const other = CUSTOM_FIELD_LISTS.find(
    (candidate) =>
      candidate.kind === "header" &&
      candidate.list !== list &&
      (current[candidate.list] ?? []).some((held) => sameSpelling(held, name)),
  );
  return other === undefined ? undefined : `it as a ${other.noun}`;
}

/** The names configured for each log field (`RequestHeaders`: raw and transformed request headers). */
export function namesByColumn(config: CustomFieldsConfig): Record<CustomFieldColumn, string[]> {
  const names: Record<CustomFieldColumn, string[]> = { RequestHeaders: [], ResponseHeaders: [], Cookies: [] };
  for (const { list, column } of CUSTOM_FIELD_LISTS) names[column].push(...(config[list] ?? []));
  return names;
}
