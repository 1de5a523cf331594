import {
  CUSTOM_FIELD_LISTS,
  type CustomFieldsConfig,
  type JobScope,
  type JobSettings,
  type LogpushClient,
  type ZoneScope,
} from "../api/index.js";
import type { DiagnosticSettings } from "../diagnostics/index.js";
import { readChallengeToken } from "./challenge.js";

/** A call the page would never make: refused with `status` (400 unless said) and what is wrong with it. */
export class BadCall extends Error {
  override readonly name = "BadCall";
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

/** What the console tells the page about the API it drives. */
export interface ApiDescription {
  /** "embedded sandbox": started by the console; "api": the one given on its command line. */
  kind: "embedded sandbox" | "api";
  /** The API's base URL, without any credentials. */
  url: string;
  /** The embedded sandbox's data directory, as given. */
  dataDir?: string;
}

export interface ConsoleContext {
  client: LogpushClient;
  api: ApiDescription;
  zoneId: string | undefined;
  accountId: string | undefined;
  /** A filterc sandbox's data directory: ownership challenge files are read from it. */
  challengeFolder: string | undefined;
  /**
   * The levels of warnings and notes (the console's folder's filterc.json, under its flags): the
   * page's editor shows a job's filter at them, and a job whose filter they give an error is refused.
   */
  diagnostics?: DiagnosticSettings | undefined;
}

export interface Call {
  query: URLSearchParams;
  body: unknown;
  /** The ID a path holds where the call's path has `:id` (a job's, a Log Explorer dataset's). */
  id?: string;
}

export type Handler = (context: ConsoleContext, call: Call) => Promise<Record<string, unknown>>;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function objectBody(call: Call): Record<string, unknown> {
  if (!isObject(call.body)) throw new BadCall("the body is a JSON object");
  return call.body;
}

/** `{zoneId}` or `{accountId}`, from the query (GET, DELETE) or the body's `scope`. */
export function scopeOf(value: unknown, where: string): JobScope {
  const given = value instanceof URLSearchParams ? Object.fromEntries(value) : value;
  if (isObject(given)) {
    if (typeof given["zoneId"] === "string" && given["accountId"] === undefined)
      return { zoneId: given["zoneId"] };
    if (typeof given["accountId"] === "string" && given["zoneId"] === undefined)
      return { accountId: given["accountId"] };
  }
  throw new BadCall(`${where} names a zoneId or an accountId`);
}

function zoneOf(value: unknown, where: string): ZoneScope {
  const scope = scopeOf(value, where);
  if (!("zoneId" in scope)) throw new BadCall(`${where} names a zoneId: custom fields are a zone's`);
  return scope;
}

export const stringList = (value: unknown) =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

/** The custom-field lists of a body, by the client's names. */
function configOf(value: unknown): CustomFieldsConfig {
  if (!isObject(value)) throw new BadCall("config is an object of lists of names");
  const config: CustomFieldsConfig = {};
  for (const [list, names] of Object.entries(value)) {
    const known = CUSTOM_FIELD_LISTS.find((entry) => entry.list === list);
    if (!known || !stringList(names)) throw new BadCall(`config.${list} is not a list of custom field names`);
    config[known.list] = names as string[];
  }
  return config;
}

/** Each setting the page sends, with the type it must have. */
const settingTypes: Record<string, (value: unknown) => boolean> = {
  name: (value) => value === null || typeof value === "string",
  destination: (value) => typeof value === "string",
  dataset: (value) => typeof value === "string",
  fields: stringList,
  timestamps: (value) => typeof value === "string",
  outputOptions: isObject,
  ownershipChallenge: (value) => typeof value === "string",
  enabled: (value) => typeof value === "boolean",
  filter: (value) => value === null || (isObject(value) && typeof value["source"] === "string"),
};

/** The settings the page sent, with the console's levels of the filter's warnings. */
function jobSettingsOf(context: ConsoleContext, value: unknown): JobSettings {
  const settings = settingsOf(value);
  if (context.diagnostics !== undefined) settings.compileOptions = { diagnostics: context.diagnostics };
  return settings;
}

function settingsOf(value: unknown): JobSettings {
  if (!isObject(value)) throw new BadCall("settings is an object");
  for (const [name, setting] of Object.entries(value)) {
    const valid = settingTypes[name];
    if (!valid) throw new BadCall(`settings.${name} is not a setting the console sends`);
    if (!valid(setting)) throw new BadCall(`settings.${name} has the wrong type`);
  }
  const settings = value as JobSettings;
  // Only the source: the page never sends other fields of a filter.
  if (isObject(settings.filter)) settings.filter = { source: (settings.filter as { source: string }).source };
  return settings;
}

/**
 * A job call's answer as the page sees it: every destination's credentials masked, the job's, the
 * one the call sent, and both sides of a change of it (as `jobs update --json` shows them).
 */
function shownResult<T>(context: ConsoleContext, result: T, sent: string | undefined): T {
  return context.client.masked(result, { destinations: sent === undefined ? [] : [sent] });
}

const session: Handler = async (context) => ({
  api: context.api,
  zoneId: context.zoneId ?? null,
  accountId: context.accountId ?? null,
  challengeFromFile: context.challengeFolder !== undefined,
  ...(context.diagnostics !== undefined && { diagnostics: context.diagnostics }),
});

/** The zone's custom fields, and the limit the page counts them against (the client's). */
const getCustomFields: Handler = async ({ client }, call) => {
  const state = await client.getCustomFields(zoneOf(call.query, "the query"));
  return {
    rulesetId: state?.rulesetId ?? null,
    config: state?.config ?? {},
    limit: client.transport.customFieldsLimit,
  };
};

const changeCustomFields: Handler = async ({ client }, call) => {
  const body = objectBody(call);
  const merge = body["merge"];
  if (merge !== "add" && merge !== "remove") throw new BadCall('merge is "add" or "remove"');
  const result = await client.setCustomFields(zoneOf(body["scope"], "scope"), configOf(body["config"]), {
    merge,
  });
  return { ...result };
};

const listJobs: Handler = async ({ client }, call) => ({
  jobs: client.masked(await client.listJobs(scopeOf(call.query, "the query"))),
});

const createJob: Handler = async (context, call) => {
  const body = objectBody(call);
  const settings = jobSettingsOf(context, body["settings"]);
  const result = await context.client.createJob(scopeOf(body["scope"], "scope"), settings);
  return { ...shownResult(context, result, settings.destination) };
};

const updateJob: Handler = async (context, call) => {
  const body = objectBody(call);
  const settings = jobSettingsOf(context, body["settings"]);
  const result = await context.client.updateJob(scopeOf(body["scope"], "scope"), call.id!, settings);
  return { ...shownResult(context, result, settings.destination) };
};

const deleteJob: Handler = async ({ client }, call) =>
  client.deleteJob(scopeOf(call.query, "the query"), call.id!);

/**
 * Asks the API for an ownership challenge file; with a filterc sandbox whose data directory the
 * console knows, reads the token from that file, as a person would from the bucket.
 */
const requestOwnership: Handler = async ({ client, challengeFolder }, call) => {
  const body = objectBody(call);
  const destination = body["destination"];
  if (typeof destination !== "string") throw new BadCall("destination is a string");
  const answer = await client.requestOwnership(scopeOf(body["scope"], "scope"), destination);
  const filename = typeof answer.filename === "string" ? answer.filename : null;
  if (challengeFolder === undefined || filename === null) return { filename };
  const read = await readChallengeToken(challengeFolder, filename);
  return "token" in read ? { filename, token: read.token } : { filename, tokenProblem: read.problem };
};

/** The console's JSON API: method and path (`:id` a job ID) to what answers it. */
export const calls: ReadonlyArray<{ method: string; path: string; handle: Handler }> = [
  { method: "GET", path: "/api/session", handle: session },
  { method: "GET", path: "/api/custom-fields", handle: getCustomFields },
  { method: "POST", path: "/api/custom-fields", handle: changeCustomFields },
  { method: "GET", path: "/api/jobs", handle: listJobs },
  { method: "POST", path: "/api/jobs", handle: createJob },
  { method: "PUT", path: "/api/jobs/:id", handle: updateJob },
  { method: "DELETE", path: "/api/jobs/:id", handle: deleteJob },
  { method: "POST", path: "/api/ownership", handle: requestOwnership },
];
