import {
  type CustomFieldsLimit,
  checkCustomFieldRules,
  checkJobBody,
  JOB_BODY_FIELDS,
  type Problem,
} from "../api/index.js";
import { datasetScopes, getCatalog } from "../catalog/index.js";
import { type Diagnostic, diagnose } from "../diagnostics/index.js";
import { bodyValue, siteOfPointer, type UnreadSetting } from "./body-value.js";
import { filterBlockProblem } from "./filter-block.js";
import { checkFilter, type FileDiagnostic, type FilterCheckOptions } from "./filter-check.js";
import { attributeOf, type Block, blocksOf } from "./hcl-ast.js";
import { quotedHcl } from "./hcl-strings.js";
import { logpullSite } from "./logpull-sites.js";
import { jobFilterPlace } from "./loose-filters.js";
import type { MappedText } from "./mapped-text.js";
import { shortString } from "./short-string.js";
import { type Site, type SourceFile, siteRange } from "./source-file.js";
import { evaluate, type Scope, type Unread } from "./values.js";

/** A resource block and the file that holds it. */
export interface Resource {
  block: Block;
  file: SourceFile;
}

/** The dataset of a job that names none, as the provider leaves it to the service. */
const DEFAULT_DATASET = "http_requests";

/** The provider's names of output options that the API spells otherwise (v4, v5). */
const OUTPUT_OPTION_ALIASES: Record<string, string> = {
  cve20214428: "CVE-2021-44228",
  cve_2021_44228: "CVE-2021-44228",
};

/** A job's settings the API takes (the filter is read on its own, through its text). */
const jobShape = {
  read: new Set(JOB_BODY_FIELDS.filter((field) => field !== "filter")),
  listBlocks: new Set<string>(),
};
const rulesetShape = { read: new Set(["rules"]), listBlocks: new Set(["rules"]) };

const addressOf = (resource: Resource) =>
  `${resource.block.labels[0]?.value}.${resource.block.labels[1]?.value ?? ""}`;

/** Where a resource is named: its second label. */
const nameSite = (resource: Resource): Site => ({
  file: resource.file,
  ...(resource.block.labels[1]?.span ?? resource.block.typeSpan),
});

const settingNote = (resource: Resource, { setting, unread }: UnreadSetting) =>
  note(unread, `${setting} of ${addressOf(resource)}`);

const note = (unread: Unread, what: string): FileDiagnostic => ({
  file: unread.site.file,
  diagnostic: unread.outside
    ? diagnose("FileOutsideFolder", siteRange(unread.site), {
        path: shortString(unread.outside.path, 80),
        what,
        reason: unread.outside.reason,
      })
    : diagnose("NotReadStatically", siteRange(unread.site), {
        what,
        reason: `${unread.what}: ${unread.reason}`,
      }),
});

const placedProblem = (item: Problem, site: Site): FileDiagnostic => ({
  file: site.file,
  diagnostic: { code: item.code, severity: "error", message: item.message, range: siteRange(site) },
});

/**
 * Checks a `cloudflare_logpush_job`: its filter (decompiled against its dataset, with the limits),
 * its scope, and its settings with the rules `jobs create` holds a job body to.
 */
export async function checkLogpushJob(
  resource: Resource,
  scope: Scope,
  options: Omit<FilterCheckOptions, "dataset">,
  checkedFilters: Set<string>,
): Promise<FileDiagnostic[]> {
  const { block, file } = resource;
  const found: FileDiagnostic[] = [];
  const sites = new Map<string, Site>();
  const unread: UnreadSetting[] = [];
  const settings = await bodyValue(block.body, file, scope, jobShape, "", sites, unread);
  found.push(...unread.map((item) => settingNote(resource, item)));
  const dataset = typeof settings["dataset"] === "string" ? settings["dataset"] : DEFAULT_DATASET;

  const filter = attributeOf(block.body, "filter");
  if (filter) {
    // The jsonencode call it names (a local's too) is not checked again as a loose filter.
    const place = jobFilterPlace(filter.value, file, scope);
    if (place !== undefined) checkedFilters.add(place);
    const value = await evaluate(filter.value, file, scope);
    if (value.kind === "unread") found.push(note(value, `the filter of ${addressOf(resource)}`));
    else if (value.kind === "string") found.push(...checkFilter(value, { ...options, dataset }));
    else if (value.kind !== "null")
      found.push({
        file: value.site.file,
        diagnostic: diagnose("FilterNotString", siteRange(value.site), {
          found:
            value.kind === "object" ? "an object" : `a${value.kind === "array" ? "n" : ""} ${value.kind}`,
        }),
      });
  }

  for (const written of blocksOf(block.body, "filter")) found.push(filterBlockProblem(written, file));

  const zone = attributeOf(block.body, "zone_id");
  const account = attributeOf(block.body, "account_id");
  if (zone && account)
    found.push({
      file,
      diagnostic: diagnose("JobScope", file.rangeOf(account.start, account.nameSpan.end), {
        problem: "set zone_id or account_id, not both",
      }),
    });
  else if (!zone && !account)
    found.push({
      file,
      diagnostic: diagnose("JobScope", siteRange(nameSite(resource)), {
        problem: "set zone_id or account_id",
      }),
    });
  const jobScope = zone ? "zone" : account ? "account" : undefined;
  const scopes = datasetScopes(dataset);
  if (jobScope && scopes && !scopes.includes(jobScope)) {
    const site = sites.get("/dataset") ?? nameSite(resource);
    found.push({
      file: site.file,
      diagnostic: diagnose("DatasetNotInScope", siteRange(site), {
        dataset,
        scope: jobScope,
        scopes: scopes.join(" and "),
        flag: jobScope === "zone" ? "account_id instead of zone_id" : "zone_id instead of account_id",
      }),
    });
  }

  const body: Record<string, unknown> = { ...settings };
  const output = body["output_options"];
  if (output && typeof output === "object" && !Array.isArray(output)) {
    body["output_options"] = Object.fromEntries(
      Object.entries(output).map(([name, value]) => {
        const alias = OUTPUT_OPTION_ALIASES[name];
        const site = sites.get(`/output_options/${name}`);
        if (alias && site) sites.set(`/output_options/${alias}`, site);
        return [alias ?? name, value];
      }),
    );
  }
  const checked = checkJobBody(body, { mode: "create", dataset, catalog: getCatalog(dataset) });
  const logpull = await logpullText(resource, scope);
  let keyless = 0;
  for (const item of checked.problems) {
    // A problem in a logpull_options string is placed at its part; one with no key counts in order.
    const part =
      logpull && item.path.startsWith("logpull_options")
        ? logpullSite(logpull, item, item.path === "logpull_options" ? keyless++ : 0)
        : undefined;
    const pointer = `/${item.path.replaceAll(".", "/").replace(/\[(\d+)\]/g, "/$1")}`;
    found.push(placedProblem(item, part ?? siteOfPointer(sites, pointer) ?? nameSite(resource)));
  }
  for (const notice of checked.notices)
    found.push({ file, diagnostic: diagnose("JobNotice", siteRange(nameSite(resource)), { notice }) });
  return found;
}

/** A job's `logpull_options` as the string written, each character at its place; undefined when not one. */
async function logpullText(resource: Resource, scope: Scope): Promise<MappedText | undefined> {
  const attribute = attributeOf(resource.block.body, "logpull_options");
  const value = attribute && (await evaluate(attribute.value, resource.file, scope));
  return value?.kind === "string" ? value.value : undefined;
}

/** The lists of a custom-fields rule; v4 writes each as a list of names, v5 as a list of `{ name = … }`. */
const FIELD_LISTS = /^\/rules\/\d+\/action_parameters\/[a-z_]+_fields$/;

/**
 * Checks the `cloudflare_ruleset` resources of phase `http_log_custom_fields`, a zone's together:
 * one ruleset per zone, and its rules with the API module's rules (action, expression, lists,
 * lower-case header names, a header raw or transformed, and `limit`: by default 100 in each list).
 */
export async function checkCustomFieldRulesets(
  resources: readonly Resource[],
  scope: Scope,
  limit: CustomFieldsLimit | undefined,
): Promise<FileDiagnostic[]> {
  const found: FileDiagnostic[] = [];
  const zones = new Map<string, { first: Resource; rules: unknown[]; sites: Map<string, Site> }>();
  for (const resource of resources) {
    const phase = attributeOf(resource.block.body, "phase");
    const phaseValue = phase && (await evaluate(phase.value, resource.file, scope));
    if (phaseValue?.kind !== "string" || phaseValue.value.text !== "http_log_custom_fields") continue;
    const zoneAttribute = attributeOf(resource.block.body, "zone_id");
    const zone = zoneAttribute
      ? resource.file.text.slice(zoneAttribute.value.start, zoneAttribute.value.end)
      : "";
    const sites = new Map<string, Site>();
    const unread: UnreadSetting[] = [];
    const settings = await bodyValue(
      resource.block.body,
      resource.file,
      scope,
      rulesetShape,
      "",
      sites,
      unread,
    );
    found.push(...unread.map((item) => settingNote(resource, item)));
    const rules = Array.isArray(settings["rules"])
      ? settings["rules"].map((rule, index) => namedEntries(rule, `/rules/${index}`, sites))
      : [];
    const group = zones.get(zone);
    if (!group) {
      zones.set(zone, { first: resource, rules, sites });
      continue;
    }
    found.push({
      file: resource.file,
      diagnostic: diagnose("DuplicateCustomFieldsRuleset", siteRange(nameSite(resource)), {
        first: addressOf(group.first),
      }),
    });
    // The zone's fields are counted together: this resource's rules follow the first's.
    const offset = group.rules.length;
    for (const [pointer, site] of sites) {
      const moved = pointer.replace(
        /^\/rules\/(\d+)/,
        (_, index: string) => `/rules/${Number(index) + offset}`,
      );
      group.sites.set(moved, site);
    }
    group.rules.push(...rules);
  }
  for (const { rules, sites } of zones.values()) {
    if (rules.length === 0) continue;
    for (const item of checkCustomFieldRules(rules, limit === undefined ? {} : { limit })) {
      const site = siteOfPointer(sites, item.path);
      if (!site) continue;
      const placed = placedProblem(item, site);
      if (item.code === "E0630" && lowerCaseFix(placed.diagnostic, site)) placed.safeFix = true;
      found.push(placed);
    }
  }
  return found;
}

/** v4's lists of names as v5's lists of `{ name }`, each name keeping its place. */
function namedEntries(rule: unknown, at: string, sites: Map<string, Site>): unknown {
  if (!rule || typeof rule !== "object" || Array.isArray(rule)) return rule;
  const parameters = (rule as Record<string, unknown>)["action_parameters"];
  if (!parameters || typeof parameters !== "object" || Array.isArray(parameters)) return rule;
  const lists = Object.entries(parameters).map(([key, list]) => {
    const pointer = `${at}/action_parameters/${key}`;
    if (!FIELD_LISTS.test(pointer) || !Array.isArray(list)) return [key, list];
    return [
      key,
      list.map((entry, index) => {
        if (typeof entry !== "string") return entry;
        const site = sites.get(`${pointer}/${index}`);
        if (site) sites.set(`${pointer}/${index}/name`, site);
        return { name: entry };
      }),
    ];
  });
  return { ...rule, action_parameters: Object.fromEntries(lists) };
}

/** The fix of an upper-case header name written as a quoted string: the name in lower case. */
function lowerCaseFix(diagnostic: Diagnostic, site: Site): boolean {
  const written = site.file.text.slice(site.start, site.end);
  if (!/^"[^"\\$%]*"$/.test(written)) return false;
  diagnostic.suggestion = {
    message: "write it in lower case",
    range: siteRange(site),
    replacement: `"${quotedHcl(written.slice(1, -1).toLowerCase())}"`,
  };
  return true;
}
