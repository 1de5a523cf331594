import type { CustomFieldsLimit } from "../api/index.js";
import type { Reply, RequestContext } from "./context.js";
import { CUSTOM_FIELDS_PHASE, checkCustomFieldsPhase } from "./custom-fields.js";
import { ErrorCode, invalidRulesetValue, SandboxError } from "./errors.js";
import { editable, newId, type Rule, type Ruleset, timestamp, type ZoneState } from "./model.js";

/** The phases of the SDK's `Phase` type. */
const phases = new Set([
  "ddos_l4",
  "ddos_l7",
  "http_config_settings",
  "http_custom_errors",
  "http_log_custom_fields",
  "http_ratelimit",
  "http_request_cache_settings",
  "http_request_dynamic_redirect",
  "http_request_firewall_custom",
  "http_request_firewall_managed",
  "http_request_late_transform",
  "http_request_origin",
  "http_request_redirect",
  "http_request_sanitize",
  "http_request_sbfm",
  "http_request_transform",
  "http_response_cache_settings",
  "http_response_compression",
  "http_response_firewall_managed",
  "http_response_headers_transform",
  "magic_transit",
  "magic_transit_ids_managed",
  "magic_transit_managed",
  "magic_transit_ratelimit",
]);

/** Kinds a zone may create: its phase entry points and its own custom rulesets. */
const zoneKinds = new Set(["zone", "custom"]);

const describe = (value: unknown) => (typeof value === "string" ? `'${value}'` : JSON.stringify(value));

function summary(ruleset: Ruleset): Omit<Ruleset, "rules"> {
  const { rules: _rules, ...rest } = ruleset;
  return rest;
}

function findRuleset(zone: ZoneState, id: string): Ruleset {
  const ruleset = zone.rulesets.find((r) => r.id === id);
  if (!ruleset) throw new SandboxError(404, ErrorCode.rulesetNotFound, `could not find ruleset ${id}`);
  return ruleset;
}

function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw invalidRulesetValue(`/${key}`, `${key} must be a string`);
  return value;
}

function checkPhase(phase: unknown, pointer: string): string {
  if (typeof phase !== "string" || !phases.has(phase))
    throw invalidRulesetValue(pointer, `${describe(phase)} is not a valid value for phase`);
  return phase;
}

/**
 * Builds the rules of a PUT or create from the body: every rule replaces the ones before. A rule
 * sent with the `id` of an existing rule keeps it (and its version when nothing changed).
 */
function buildRules(
  input: unknown,
  phase: string,
  previous: readonly Rule[],
  now: string,
  limit: CustomFieldsLimit,
): Rule[] {
  if (input === undefined || input === null) return [];
  if (!Array.isArray(input)) throw invalidRulesetValue("/rules", "rules must be an array");
  // The custom-field rules first, so that the answer is the one the client gives before it sends.
  if (phase === CUSTOM_FIELDS_PHASE) checkCustomFieldsPhase(input, limit);
  const rules = input.map((raw, index): Rule => {
    const at = `/rules/${index}`;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw))
      throw invalidRulesetValue(at, "each rule must be an object");
    const body = raw as Record<string, unknown>;
    for (const key of ["action", "expression"] as const)
      if (typeof body[key] !== "string" || body[key] === "")
        throw invalidRulesetValue(`${at}/${key}`, `${key} is required and must be a non-empty string`);
    if (body["enabled"] !== undefined && typeof body["enabled"] !== "boolean")
      throw invalidRulesetValue(`${at}/enabled`, "enabled must be a boolean");
    for (const key of ["description", "ref", "id"] as const)
      if (body[key] !== undefined && typeof body[key] !== "string")
        throw invalidRulesetValue(`${at}/${key}`, `${key} must be a string`);
    const parameters = body["action_parameters"];
    if (parameters !== undefined && (typeof parameters !== "object" || parameters === null))
      throw invalidRulesetValue(`${at}/action_parameters`, "action_parameters must be an object");
    const id = body["id"] as string | undefined;
    const earlier = id === undefined ? undefined : previous.find((rule) => rule.id === id);
    if (id !== undefined && !earlier)
      throw invalidRulesetValue(
        `${at}/id`,
        `${describe(id)} is not a valid value for id because no rule of the ruleset has it`,
      );
    const ruleId = earlier?.id ?? newId();
    const rule: Rule = {
      id: ruleId,
      version: "1",
      action: body["action"] as string,
      expression: body["expression"] as string,
      last_updated: now,
      ref: (body["ref"] as string | undefined) ?? earlier?.ref ?? ruleId,
      enabled: (body["enabled"] as boolean | undefined) ?? true,
    };
    if (parameters !== undefined) rule.action_parameters = parameters as Record<string, unknown>;
    if (body["description"] !== undefined) rule.description = body["description"] as string;
    if (earlier) {
      const same =
        JSON.stringify({ ...earlier, version: "", last_updated: "" }) ===
        JSON.stringify({ ...rule, version: "", last_updated: "" });
      rule.version = same ? earlier.version : String(Number(earlier.version) + 1);
      if (same) rule.last_updated = earlier.last_updated;
    }
    return rule;
  });
  const ids = new Set<string>();
  rules.forEach((rule, index) => {
    if (ids.has(rule.id))
      throw invalidRulesetValue(
        `/rules/${index}/id`,
        `'${rule.id}' is not a valid value for id because it is used twice`,
      );
    ids.add(rule.id);
  });
  return rules;
}

function createIn(zone: ZoneState, body: Record<string, unknown>, limit: CustomFieldsLimit): Ruleset {
  const name = body["name"];
  if (typeof name !== "string" || name === "")
    throw invalidRulesetValue("/name", "name is required and must be a non-empty string");
  const kind = body["kind"];
  if (typeof kind !== "string" || !zoneKinds.has(kind))
    throw invalidRulesetValue(
      "/kind",
      `${describe(kind)} is not a valid value for kind because a zone creates 'zone' or 'custom' rulesets`,
    );
  const phase = checkPhase(body["phase"], "/phase");
  if (kind === "zone" && zone.rulesets.some((r) => r.kind === "zone" && r.phase === phase))
    throw new SandboxError(
      400,
      ErrorCode.phaseRulesetExists,
      `'zone' is not a valid value for kind because exceeded maximum number of zone rulesets for phase ${phase}`,
      "/kind",
    );
  const now = timestamp();
  const ruleset: Ruleset = {
    id: newId(),
    name,
    description: optionalString(body, "description") ?? "",
    kind,
    phase,
    version: "1",
    last_updated: now,
    rules: buildRules(body["rules"], phase, [], now, limit),
  };
  zone.rulesets.push(ruleset);
  return ruleset;
}

function updateIn(ruleset: Ruleset, body: Record<string, unknown>, limit: CustomFieldsLimit): Ruleset {
  for (const key of ["kind", "phase"] as const)
    if (body[key] !== undefined && body[key] !== ruleset[key])
      throw invalidRulesetValue(
        `/${key}`,
        `${describe(body[key])} is not a valid value for ${key} because the ruleset's ${key} is '${ruleset[key]}' and cannot change`,
      );
  const now = timestamp();
  const name = optionalString(body, "name");
  const description = optionalString(body, "description");
  if (name !== undefined) ruleset.name = name;
  if (description !== undefined) ruleset.description = description;
  if (body["rules"] !== undefined)
    ruleset.rules = buildRules(body["rules"], ruleset.phase, ruleset.rules, now, limit);
  ruleset.version = String(Number(ruleset.version) + 1);
  ruleset.last_updated = now;
  return ruleset;
}

/** `?dry_run=true` validates and answers `result: null` without changing anything. */
function write<T>(context: RequestContext, change: (zone: ZoneState) => T): Promise<T | null> {
  if (context.query.get("dry_run") === "true")
    return context.store.preview(context.stateKey, change).then(() => null);
  return context.store.update(context.stateKey, change);
}

/** A write that makes a version of a ruleset: the version is kept once acknowledged. */
async function writeVersion(
  context: RequestContext,
  change: (zone: ZoneState) => Ruleset,
): Promise<Ruleset | null> {
  const ruleset = await write(context, change);
  if (ruleset) context.rulesetVersions.record(context.stateKey, ruleset);
  return ruleset;
}

export async function listRulesets(context: RequestContext): Promise<Reply> {
  const rulesets = context.store.zone(context.stateKey).rulesets.map(summary);
  return { status: 200, result: rulesets, resultInfo: { count: rulesets.length, per_page: rulesets.length } };
}

export async function createRuleset(context: RequestContext): Promise<Reply> {
  return {
    status: 200,
    result: await writeVersion(context, (zone) => createIn(zone, context.body, context.customFieldsLimit)),
  };
}

export async function getRuleset(context: RequestContext): Promise<Reply> {
  return { status: 200, result: findRuleset(context.store.zone(context.stateKey), context.params["id"]!) };
}

/** `GET …/rulesets/{id}/versions/{version}`: the ruleset as that write left it. */
export async function getRulesetVersion(context: RequestContext): Promise<Reply> {
  const id = context.params["id"]!;
  const version = Number(context.params["version"]);
  const current = findRuleset(context.store.zone(context.stateKey), id);
  const ruleset =
    Number(current.version) === version
      ? current
      : context.rulesetVersions.get(context.stateKey, id, version);
  if (!ruleset || version > Number(current.version))
    throw new SandboxError(
      404,
      ErrorCode.rulesetNotFound,
      `could not find version ${version} of ruleset ${id}`,
    );
  return { status: 200, result: ruleset };
}

export async function updateRuleset(context: RequestContext): Promise<Reply> {
  const id = context.params["id"]!;
  return {
    status: 200,
    result: await writeVersion(context, (zone) =>
      updateIn(editable(zone.rulesets, findRuleset(zone, id)), context.body, context.customFieldsLimit),
    ),
  };
}

export async function deleteRuleset(context: RequestContext): Promise<Reply> {
  const id = context.params["id"]!;
  await write(context, (zone) => {
    findRuleset(zone, id);
    zone.rulesets = zone.rulesets.filter((r) => r.id !== id);
  });
  context.rulesetVersions.forget(context.stateKey, id);
  return { status: 204 };
}

function entrypointOf(zone: ZoneState, phase: string): Ruleset | undefined {
  return zone.rulesets.find((r) => r.kind === "zone" && r.phase === phase);
}

export async function getEntrypoint(context: RequestContext): Promise<Reply> {
  const phase = checkPhase(context.params["phase"], "/phase");
  const ruleset = entrypointOf(context.store.zone(context.stateKey), phase);
  if (!ruleset)
    throw new SandboxError(
      404,
      ErrorCode.rulesetNotFound,
      `could not find entrypoint ruleset in the '${phase}' phase`,
    );
  return { status: 200, result: ruleset };
}

/** PUT on the entry point updates the phase's zone ruleset, creating it first when the zone has none. */
export async function updateEntrypoint(context: RequestContext): Promise<Reply> {
  const phase = checkPhase(context.params["phase"], "/phase");
  const limit = context.customFieldsLimit;
  const result = await writeVersion(context, (zone) => {
    const existing = entrypointOf(zone, phase);
    if (existing)
      return updateIn(
        editable(zone.rulesets, existing),
        { ...context.body, kind: undefined, phase: undefined },
        limit,
      );
    return createIn(zone, { name: "default", ...context.body, kind: "zone", phase }, limit);
  });
  return { status: 200, result };
}
