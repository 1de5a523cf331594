import { DEFAULT_DATASET } from "../catalog/index.js";
import type { Diagnostic } from "../diagnostics/index.js";
import {
  type ActionParameters,
  CUSTOM_FIELDS_PHASE,
  type CustomFieldsConfig,
  checkCustomFields,
  configFromRules,
  customFieldsRule,
  type RulesetRule,
  rulesMatch,
} from "./custom-fields.js";
import { ApiError, ValidationError } from "./errors.js";
import { jobId, zonePath } from "./ids.js";
import {
  buildJobBody,
  CUSTOM_FIELD_COLUMNS,
  type JobSettings,
  type LogpushJob,
  selectsCustomFields,
} from "./jobs.js";
import { type ApiRequest, type ClientOptions, type ShownRequest, Transport } from "./transport.js";

/** A ruleset as the API returns it (the fields filterc reads). */
export interface Ruleset {
  id: string;
  kind: string;
  phase: string;
  name?: string;
  version?: string;
  rules?: RulesetRule[];
}

export interface CustomFieldsState {
  rulesetId: string;
  config: CustomFieldsConfig;
}

export interface SetCustomFieldsResult extends CustomFieldsState {
  /** Whether the zone's ruleset had to be created first. */
  created: boolean;
  /** False when the ruleset already held exactly this configuration (nothing was written). */
  changed: boolean;
  notices: string[];
}

export interface JobResult {
  job: LogpushJob;
  notices: string[];
  /** The filter's warnings, with ranges in `filterSource`. */
  diagnostics: Diagnostic[];
  /** The filter's source (decompiled when it was given as JSON); undefined without a filter. */
  filterSource: string | undefined;
}

/** The requests a call would send, shown with credentials masked; nothing is sent. */
export interface Plan {
  requests: Array<ShownRequest & { note?: string }>;
  notices: string[];
  diagnostics: Diagnostic[];
  filterSource?: string | undefined;
}

const RULESET_FOR_CUSTOM_FIELDS = {
  name: "Zone-level phase entry point",
  kind: "zone",
  description: "This ruleset configures custom log fields.",
  phase: CUSTOM_FIELDS_PHASE,
};

const isCustomFieldsRuleset = (r: Ruleset) => r.kind === "zone" && r.phase === CUSTOM_FIELDS_PHASE;

/** The custom-fields and jobs API of one account's credentials. */
export class LogpushClient {
  readonly transport: Transport;
  /** The same calls as dry runs: the requests they would send, nothing sent. */
  readonly plan: PlanBuilder;

  constructor(options: ClientOptions = {}) {
    this.transport = new Transport(options);
    this.plan = new PlanBuilder(this.transport);
  }

  private async call<T>(request: ApiRequest): Promise<T> {
    return (await this.transport.send<T>(request)).result;
  }

  // Custom fields.

  /** The zone's custom fields, or null when it has no `http_log_custom_fields` ruleset. */
  async getCustomFields(zone: string): Promise<CustomFieldsState | null> {
    const found = await this.findCustomFieldsRuleset(zone, "get custom fields");
    if (!found) return null;
    const ruleset = await this.call<Ruleset>(requests.getRuleset(zone, found.id));
    return { rulesetId: ruleset.id, config: configFromRules(ruleset.rules ?? []) };
  }

  /**
   * Sets the zone's custom fields in one call: checks the configuration, finds the zone's
   * `http_log_custom_fields` ruleset (creating it if missing) and PUTs its single rule. The PUT
   * replaces every rule of the ruleset. Nothing is written when the ruleset already matches.
   */
  async setCustomFields(zone: string, config: CustomFieldsConfig): Promise<SetCustomFieldsResult> {
    const operation = "set custom fields";
    const checked = checkCustomFields(config);
    if (!checked.ok) throw new ValidationError(operation, checked.problems);
    const notices = [...checked.notices];
    const found = await this.findCustomFieldsRuleset(zone, operation);
    let rulesetId: string;
    let created = false;
    if (found) {
      const current = await this.call<Ruleset>(requests.getRuleset(zone, found.id));
      if (rulesMatch(current.rules ?? [], checked.actionParameters))
        return { rulesetId: current.id, config: checked.config, created, changed: false, notices };
      const replaced = (current.rules ?? []).length;
      if (replaced > 0)
        notices.push(
          `replaced the ruleset's ${replaced} rule${replaced === 1 ? "" : "s"} (a PUT replaces all rules)`,
        );
      rulesetId = current.id;
    } else {
      rulesetId = (await this.call<Ruleset>(requests.createRuleset(zone))).id;
      created = true;
    }
    const updated = await this.call<Ruleset>(
      requests.putCustomFieldsRule(zone, rulesetId, checked.actionParameters),
    );
    return {
      rulesetId: updated.id,
      config: configFromRules(updated.rules ?? []),
      created,
      changed: true,
      notices,
    };
  }

  private async findCustomFieldsRuleset(zone: string, operation: string): Promise<Ruleset | undefined> {
    let cursor: string | undefined;
    do {
      const page = await this.transport.send<Ruleset[]>(requests.listRulesets(zone, operation, cursor));
      const found = (page.result ?? []).find(isCustomFieldsRuleset);
      if (found) return found;
      const next = page.resultInfo?.["cursor"];
      cursor = typeof next === "string" && next !== "" && next !== cursor ? next : undefined;
    } while (cursor !== undefined);
    return undefined;
  }

  // Jobs.

  async listJobs(zone: string): Promise<LogpushJob[]> {
    const jobs = await this.call<Array<LogpushJob | null>>(requests.listJobs(zone));
    return (jobs ?? []).filter((job): job is LogpushJob => job !== null);
  }

  async getJob(zone: string, id: number | string): Promise<LogpushJob> {
    return this.call<LogpushJob>(requests.getJob(zone, id));
  }

  /**
   * Creates a job after checking every setting and compiling its filter with the dataset's catalog.
   * When the job selects none of RequestHeaders/ResponseHeaders/Cookies, the zone's custom fields are
   * read, and a notice says if they are set (turn off with `checkCustomFields: false`).
   */
  async createJob(
    zone: string,
    settings: JobSettings,
    options: { checkCustomFields?: boolean } = {},
  ): Promise<JobResult> {
    const operation = "create job";
    zonePath(zone, operation);
    const built = buildJobBody(settings, "create", operation);
    const notices = [...built.notices];
    const dataset = settings.dataset ?? DEFAULT_DATASET;
    if (options.checkCustomFields !== false)
      notices.push(...(await this.customFieldsNotices(zone, dataset, settings.fields ?? [])));
    const job = await this.call<LogpushJob>(requests.createJob(zone, built.body));
    return { job, notices, diagnostics: built.diagnostics, filterSource: built.filterSource };
  }

  /**
   * Updates the given settings of a job. Fields and filter are checked against the job's dataset
   * (read from the job unless `settings.dataset` names it); `filter: null` removes the filter.
   */
  async updateJob(zone: string, id: number | string, settings: JobSettings): Promise<JobResult> {
    const operation = "update job";
    const numericId = jobId(id, operation);
    zonePath(zone, operation);
    let dataset = settings.dataset;
    if (dataset === undefined && (settings.fields !== undefined || settings.filter !== undefined))
      dataset = (await this.getJob(zone, numericId)).dataset ?? DEFAULT_DATASET;
    const built = buildJobBody(settings, "update", operation, dataset ?? DEFAULT_DATASET);
    const notices = [...built.notices];
    if (settings.fields !== undefined)
      notices.push(...(await this.customFieldsNotices(zone, dataset ?? DEFAULT_DATASET, settings.fields)));
    const job = await this.call<LogpushJob>(requests.updateJob(zone, numericId, built.body));
    return { job, notices, diagnostics: built.diagnostics, filterSource: built.filterSource };
  }

  async deleteJob(zone: string, id: number | string): Promise<{ id: number }> {
    const numericId = jobId(id, "delete job");
    const result = await this.call<{ id?: number } | null>(requests.deleteJob(zone, numericId));
    return { id: result?.id ?? numericId };
  }

  /** A notice when the zone has custom fields but the selection leaves them out of the logs. */
  private async customFieldsNotices(
    zone: string,
    dataset: string,
    fields: readonly string[],
  ): Promise<string[]> {
    if (dataset !== DEFAULT_DATASET || selectsCustomFields(fields)) return [];
    try {
      const state = await this.getCustomFields(zone);
      if (!state || !Object.values(state.config).some((names) => names.length > 0)) return [];
      return [customFieldsNotSelected(true)];
    } catch (error) {
      if (error instanceof ApiError) return [`could not check the zone's custom fields (${error.message})`];
      throw error;
    }
  }
}

function customFieldsNotSelected(known: boolean): string {
  const columns = CUSTOM_FIELD_COLUMNS.join(", ");
  return known
    ? `the zone has custom fields, but the job selects none of ${columns}: their values will not be in the logs`
    : `the job selects none of ${columns}: custom fields the zone has will not be in the logs`;
}

/** Dry runs of the client's calls. */
export class PlanBuilder {
  constructor(private readonly transport: Transport) {}

  private plan(
    entries: Array<{ request: ApiRequest; note?: string }>,
    notices: string[] = [],
    diagnostics: Diagnostic[] = [],
  ): Plan {
    const all = this.transport.hasCredentials
      ? notices
      : [
          ...notices,
          "no credentials set: a real call needs CLOUDFLARE_API_TOKEN, or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY",
        ];
    return {
      requests: entries.map(({ request, note }) => ({
        ...this.transport.show(request),
        ...(note ? { note } : {}),
      })),
      notices: all,
      diagnostics,
    };
  }

  getCustomFields(zone: string): Plan {
    return this.plan([
      { request: requests.listRulesets(zone, "get custom fields") },
      {
        request: requests.getRuleset(zone, "{ruleset_id}"),
        note: "the id of the zone's http_log_custom_fields ruleset",
      },
    ]);
  }

  /** The reads, then the writes that depend on what they find: a dry run cannot know whether the ruleset exists. */
  setCustomFields(zone: string, config: CustomFieldsConfig): Plan {
    const checked = checkCustomFields(config);
    if (!checked.ok) throw new ValidationError("set custom fields", checked.problems);
    return this.plan(
      [
        { request: requests.listRulesets(zone, "set custom fields") },
        {
          request: requests.getRuleset(zone, "{ruleset_id}"),
          note: "if the zone has an http_log_custom_fields ruleset: read its rule",
        },
        {
          request: requests.createRuleset(zone),
          note: "only if the zone has no http_log_custom_fields ruleset",
        },
        {
          request: requests.putCustomFieldsRule(zone, "{ruleset_id}", checked.actionParameters),
          note: "unless the ruleset already holds this rule; replaces all rules of the ruleset",
        },
      ],
      checked.notices,
    );
  }

  listJobs(zone: string): Plan {
    return this.plan([{ request: requests.listJobs(zone) }]);
  }

  getJob(zone: string, id: number | string): Plan {
    return this.plan([{ request: requests.getJob(zone, id) }]);
  }

  deleteJob(zone: string, id: number | string): Plan {
    return this.plan([{ request: requests.deleteJob(zone, jobId(id, "delete job")) }]);
  }

  createJob(zone: string, settings: JobSettings): Plan {
    zonePath(zone, "create job");
    const built = buildJobBody(settings, "create", "create job");
    const notices = [...built.notices];
    if (
      (settings.dataset ?? DEFAULT_DATASET) === DEFAULT_DATASET &&
      !selectsCustomFields(settings.fields ?? [])
    )
      notices.push(customFieldsNotSelected(false));
    return {
      ...this.plan([{ request: requests.createJob(zone, built.body) }], notices, built.diagnostics),
      filterSource: built.filterSource,
    };
  }

  updateJob(zone: string, id: number | string, settings: JobSettings): Plan {
    const numericId = jobId(id, "update job");
    zonePath(zone, "update job");
    const built = buildJobBody(settings, "update", "update job");
    const notices = [...built.notices];
    const checksDataset = settings.fields !== undefined || settings.filter !== undefined;
    if (settings.dataset === undefined && checksDataset)
      notices.push(
        `checked against ${DEFAULT_DATASET}; the real update checks against the job's own dataset`,
      );
    const entries = [{ request: requests.updateJob(zone, numericId, built.body) }];
    const planned = this.plan(
      settings.dataset === undefined && checksDataset
        ? [{ request: requests.getJob(zone, numericId), note: "reads the job's dataset" }, ...entries]
        : entries,
      notices,
      built.diagnostics,
    );
    return { ...planned, filterSource: built.filterSource };
  }
}

/** Every request the client sends. */
const requests = {
  listRulesets(zone: string, operation: string, cursor?: string): ApiRequest {
    const request: ApiRequest = { operation, method: "GET", path: `${zonePath(zone, operation)}/rulesets` };
    if (cursor !== undefined) request.query = { cursor };
    return request;
  },
  getRuleset(zone: string, id: string): ApiRequest {
    const operation = "get ruleset";
    return { operation, method: "GET", path: `${zonePath(zone, operation)}/rulesets/${encodeRulesetId(id)}` };
  },
  createRuleset(zone: string): ApiRequest {
    const operation = "create custom fields ruleset";
    return {
      operation,
      method: "POST",
      path: `${zonePath(zone, operation)}/rulesets`,
      body: RULESET_FOR_CUSTOM_FIELDS,
    };
  },
  putCustomFieldsRule(zone: string, id: string, actionParameters: ActionParameters): ApiRequest {
    const operation = "set custom fields";
    return {
      operation,
      method: "PUT",
      path: `${zonePath(zone, operation)}/rulesets/${encodeRulesetId(id)}`,
      body: { rules: [customFieldsRule(actionParameters)] },
    };
  },
  listJobs(zone: string): ApiRequest {
    const operation = "list jobs";
    return { operation, method: "GET", path: `${zonePath(zone, operation)}/logpush/jobs` };
  },
  getJob(zone: string, id: number | string): ApiRequest {
    const operation = "get job";
    return {
      operation,
      method: "GET",
      path: `${zonePath(zone, operation)}/logpush/jobs/${jobId(id, operation)}`,
    };
  },
  createJob(zone: string, body: Record<string, unknown>): ApiRequest {
    const operation = "create job";
    return { operation, method: "POST", path: `${zonePath(zone, operation)}/logpush/jobs`, body };
  },
  updateJob(zone: string, id: number, body: Record<string, unknown>): ApiRequest {
    const operation = "update job";
    return { operation, method: "PUT", path: `${zonePath(zone, operation)}/logpush/jobs/${id}`, body };
  },
  deleteJob(zone: string, id: number): ApiRequest {
    const operation = "delete job";
    return { operation, method: "DELETE", path: `${zonePath(zone, operation)}/logpush/jobs/${id}` };
  },
};

/** Ruleset IDs are hex; the dry run's `{ruleset_id}` placeholder is kept readable. */
function encodeRulesetId(id: string): string {
  return id === "{ruleset_id}" ? id : encodeURIComponent(id);
}

/** A client for custom fields and Logpush jobs, over `fetch`. */
export function createClient(options: ClientOptions = {}): LogpushClient {
  return new LogpushClient(options);
}
