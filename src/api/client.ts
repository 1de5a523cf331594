import { DEFAULT_DATASET } from "../catalog/index.js";
import { type Diagnostic, expectArgument, isOptions } from "../diagnostics/index.js";
import {
  EXPLORER_DATASET_REF,
  EXPLORER_FILTER_SETTINGS,
  INSTANT_LOGS_SETTINGS,
  isExplorerDatasetRef,
  isExplorerFilterSettings,
  isInstantLogsSettings,
} from "./argument-shapes.js";
import {
  CUSTOM_FIELD_COLUMNS,
  CUSTOM_FIELD_LISTS,
  CUSTOM_FIELDS_PHASE,
  type CustomFieldColumn,
  type CustomFieldsCheck,
  type CustomFieldsConfig,
  checkCustomFields,
  configFromRules,
  cookieCaseNotices,
  namesByColumn,
  type RulesetRule,
  rulesMatch,
  unconfiguredNames,
} from "./custom-fields.js";
import {
  applyChange,
  type CustomFieldChange,
  type CustomFieldsChange,
  type StoredRuleset,
  writeCustomFields,
} from "./custom-fields-write.js";
import { checkDestination } from "./destination.js";
import { ApiError, ValidationError } from "./errors.js";
import {
  type ExplorerDataset,
  type ExplorerDatasetRef,
  type ExplorerFilterResult,
  type ExplorerFilterSettings,
  explorerFilterOf,
  explorerFilterUpdate,
  explorerRequests,
  findExplorerDataset,
} from "./explorer.js";
import { type JobScope, jobId, type ResolvedScope, resolveScope, scopePath, type ZoneScope } from "./ids.js";
import {
  type InstantLogsResult,
  type InstantLogsSession,
  type InstantLogsSettings,
  instantLogsBody,
  instantLogsRequests,
  sessionAddress,
} from "./instant-logs.js";
import { datasetScopeProblem } from "./job-options.js";
import {
  buildCreateBody,
  buildUpdate,
  type JobChange,
  type JobSettings,
  jobFields,
  type LogpushJob,
} from "./jobs.js";
import { problem } from "./problems.js";
import { DryRunner, LiveRunner, type PlannedRequest, type Runner } from "./runner.js";
import { type ApiRequest, type ClientOptions, Transport } from "./transport.js";

/** A ruleset as the API returns it (the fields filterc reads). */
interface Ruleset {
  id: string;
  kind: string;
  phase: string;
  name?: string;
  version?: string;
  rules?: RulesetRule[];
}

/** A zone's custom fields as the API holds them: the ruleset and its configuration. */
export interface CustomFieldsState {
  rulesetId: string;
  config: CustomFieldsConfig;
}

/** What `LogpushClient.setCustomFields` returns: the new state, and whether it was created or changed. */
export interface SetCustomFieldsResult extends CustomFieldsState {
  /** Whether the zone's ruleset had to be created first. */
  created: boolean;
  /** False when the ruleset already held exactly this configuration (nothing was written). */
  changed: boolean;
  notices: string[];
  /** What the call added and removed, field by field (empty when nothing was written). */
  changes: CustomFieldChange[];
}

/** What `LogpushClient.clearCustomFields` returns. */
export interface ClearCustomFieldsResult {
  /** The zone's `http_log_custom_fields` ruleset, left with no rules; null when the zone has none. */
  rulesetId: string | null;
  /** False when there was nothing to clear (nothing was written). */
  changed: boolean;
  notices: string[];
  /** The fields the clear removed. */
  changes: CustomFieldChange[];
}

/** What a write of the custom fields did (a clear of a zone without the ruleset has no ruleset). */
type CustomFieldsWrite = Omit<SetCustomFieldsResult, "rulesetId"> & { rulesetId: string | null };

/** What `LogpushClient.createJob` and `updateJob` return: the job, its changes and the notices. */
export interface JobResult {
  /** The job as the service returned it (in a dry run: as it would be). */
  job: LogpushJob;
  notices: string[];
  /** The filter's warnings, with ranges in `filterSource`. */
  diagnostics: Diagnostic[];
  /** The filter's source (decompiled when it was given as JSON); undefined without a filter. */
  filterSource: string | undefined;
  /** What an update changed, field by field (empty on create, and when nothing needed to change). */
  changes: JobChange[];
}

/** What the destination checks answered. */
export interface DestinationAnswer {
  valid?: boolean;
  exists?: boolean;
  message?: string;
  filename?: string;
}

/** What a dry run did: the reads it sent and the writes it would send (credentials masked), and the call's result. */
export interface Plan<R> {
  requests: PlannedRequest[];
  result: R;
}

const RULESET_FOR_CUSTOM_FIELDS = {
  name: "Zone-level phase entry point",
  kind: "zone",
  description: "This ruleset configures custom log fields.",
  phase: CUSTOM_FIELDS_PHASE,
};

/** The notice of a PUT that replaced a ruleset's rules. */
function replacedRules(ruleset: Ruleset): string[] {
  const replaced = (ruleset.rules ?? []).length;
  return replaced === 0
    ? []
    : [`replaced the ruleset's ${replaced} rule${replaced === 1 ? "" : "s"} (a PUT replaces all rules)`];
}

/**
 * The longest cursor of a list followed: it goes into the next request's URL (which servers refuse
 * past about 8 KB), and every cursor is kept to tell a loop. The service's are about a hundred.
 */
const MAX_CURSOR_LENGTH = 2048;

const isCustomFieldsRuleset = (r: unknown) =>
  r !== null &&
  typeof r === "object" &&
  (r as Ruleset).kind === "zone" &&
  (r as Ruleset).phase === CUSTOM_FIELDS_PHASE;

/** A notice when the selection leaves the zone's custom fields out of the logs. */
function customFieldsNotSelected(known: boolean): string {
  const columns = CUSTOM_FIELD_COLUMNS.join(", ");
  return known
    ? `the zone has custom fields, but the job selects none of ${columns}: their values will not be in the logs`
    : `the job selects none of ${columns}: custom fields the zone has will not be in the logs`;
}

/** A notice when the job selects a field the zone logs no custom fields into. */
function customFieldsMissing(column: CustomFieldColumn): string {
  const noun = CUSTOM_FIELD_LISTS.find((list) => list.column === column)!.noun;
  return `the job selects ${column}, but the zone logs no ${noun} as a custom field: ${column} will be empty (add one with filterc fields add --${noun.replace(" ", "-")} NAME)`;
}

/**
 * The custom-fields and Logpush jobs API of one set of credentials. Each operation is written once,
 * here: what it checks before sending, the requests it makes, and its notices. `dryRun` runs the same
 * code with a runner that sends only the reads and shows the writes.
 */
export class LogpushClient {
  /** @internal The transport every request goes through (the CLI reads its settings). */
  readonly transport: Transport;
  private readonly runner: Runner;
  /** The last write of each zone's custom fields under way, by zone ID: the next waits for it. */
  private readonly customFieldWrites = new Map<string, Promise<void>>();

  constructor(options: ClientOptions | { transport: Transport; runner: Runner } = {}) {
    expectArgument(options, isOptions, "LogpushClient", "options", "an object");
    if ("runner" in options) {
      this.transport = options.transport;
      this.runner = options.runner;
    } else {
      this.transport = new Transport(options);
      this.runner = new LiveRunner(this.transport);
    }
  }

  /**
   * Runs `call` as a dry run: its reads are sent (they change nothing), its writes are only shown,
   * with credentials masked. The result is what the call would return.
   */
  async dryRun<R>(call: (client: LogpushClient) => Promise<R>): Promise<Plan<R>> {
    const runner = new DryRunner(this.transport);
    const result = await call(new LogpushClient({ transport: this.transport, runner }));
    return { requests: runner.requests, result };
  }

  /**
   * `answer`, what a call of this client returned, fit to show: the credentials masked wherever the
   * service echoes them, and, unless `showDestinations`, every destination's credentials (a job's
   * `destination_conf`, a change of it, and those of `destinations`, the ones the call sent) in
   * every form the client sent them. The answers themselves stay as the service gave them.
   */
  masked<T>(answer: T, options: { destinations?: readonly string[]; showDestinations?: boolean } = {}): T {
    return this.transport.masked(answer, options.destinations ?? [], options.showDestinations === true);
  }

  // Custom fields.

  /** The zone's custom fields, or null when it has no `http_log_custom_fields` ruleset. */
  async getCustomFields(zone: ZoneScope): Promise<CustomFieldsState | null> {
    const scope = resolveScope(zone, "get custom fields");
    const found = await this.findCustomFieldsRuleset(scope, "get custom fields");
    if (!found) return null;
    const ruleset = await this.readRuleset(scope, found.id);
    return { rulesetId: ruleset.id, config: configFromRules(ruleset.rules ?? []) };
  }

  /**
   * Sets the zone's custom fields in one call: checks the configuration, finds the zone's
   * `http_log_custom_fields` ruleset (creating it if missing) and PUTs its single rule. The PUT
   * replaces every rule of the ruleset. Nothing is written when the ruleset already matches.
   * `merge: "add" | "remove"` changes the current configuration by the lists given instead: a name
   * to remove must be configured, and removing the last ones clears the ruleset's rules. A change
   * another writer makes at the same time is kept (see `writeCustomFields`), and one client writes
   * a zone's custom fields one call at a time.
   */
  async setCustomFields(
    zone: ZoneScope,
    config: CustomFieldsConfig,
    options: { merge?: "add" | "remove" } = {},
  ): Promise<SetCustomFieldsResult> {
    const operation = options.merge ? `${options.merge} custom fields` : "set custom fields";
    const scope = resolveScope(zone, operation);
    let change: CustomFieldsChange;
    // What checking the names as given says (header names lower-cased): the write checks them normalized.
    const given: string[] = [];
    if (options.merge) change = { kind: options.merge, config };
    else {
      const checked = checkCustomFields(config, { limit: this.transport.customFieldsLimit });
      if (!checked.ok) throw new ValidationError(operation, checked.problems);
      given.push(...checked.notices);
      change = { kind: "set", config: checked.config };
    }
    const { rulesetId, notices, ...result } = await this.oneWriteAtATime(scope, () =>
      this.changeCustomFields(scope, operation, change),
    );
    // Only a clear finds no ruleset to write to.
    return { rulesetId: rulesetId!, notices: [...given, ...notices], ...result };
  }

  /**
   * Removes the zone's custom fields: PUTs the `http_log_custom_fields` ruleset with no rules (the
   * documented PUT that replaces every rule). The ruleset stays, empty, so a later set writes to it
   * again. Nothing is written when the zone has no such ruleset, or its rules are already gone.
   */
  async clearCustomFields(zone: ZoneScope): Promise<ClearCustomFieldsResult> {
    const operation = "clear custom fields";
    const scope = resolveScope(zone, operation);
    const { rulesetId, changed, notices, changes } = await this.oneWriteAtATime(scope, () =>
      this.changeCustomFields(scope, operation, { kind: "clear" }),
    );
    return { rulesetId, changed, notices, changes };
  }

  /** `write` once the writes of the zone's custom fields this client has under way are done. */
  private oneWriteAtATime<R>(scope: ResolvedScope, write: () => Promise<R>): Promise<R> {
    const before = this.customFieldWrites.get(scope.id) ?? Promise.resolve();
    const done = before.then(write);
    const settled = done.then(
      () => undefined,
      () => undefined,
    );
    this.customFieldWrites.set(scope.id, settled);
    void settled.then(() => {
      if (this.customFieldWrites.get(scope.id) === settled) this.customFieldWrites.delete(scope.id);
    });
    return done;
  }

  /** Holds what a write would leave to the rules; none at all is a clear (no rule), which they allow. */
  private checkCustomFields(config: CustomFieldsConfig): CustomFieldsCheck {
    if (CUSTOM_FIELD_LISTS.every(({ list }) => (config[list] ?? []).length === 0))
      return { ok: true, config: {}, actionParameters: {}, problems: [], notices: [] };
    return checkCustomFields(config, { limit: this.transport.customFieldsLimit });
  }

  /** Reads the zone's custom fields, and writes `change` onto them when it changes anything. */
  private async changeCustomFields(
    scope: ResolvedScope,
    operation: string,
    change: CustomFieldsChange,
  ): Promise<CustomFieldsWrite> {
    const found = await this.findCustomFieldsRuleset(scope, operation);
    const unchanged = { created: false, changed: false, changes: [] };
    if (!found && change.kind === "clear") return { rulesetId: null, config: {}, notices: [], ...unchanged };
    const current = found ? await this.readRuleset(scope, found.id) : undefined;
    const held = configFromRules(current?.rules ?? []);
    const notices: string[] = [];
    if (change.kind === "remove") {
      const unknown = unconfiguredNames(held, change.config);
      if (unknown.length > 0) throw new ValidationError(operation, unknown);
    }
    if (change.kind === "add") notices.push(...cookieCaseNotices(held, change.config));
    const checked = this.checkCustomFields(applyChange(held, change));
    if (!checked.ok) throw new ValidationError(operation, checked.problems);
    notices.push(...checked.notices);
    const empty = Object.keys(checked.config).length === 0;
    const rules = current?.rules ?? [];
    if (current && (empty ? rules.length === 0 : rulesMatch(rules, checked.actionParameters)))
      return { rulesetId: current.id, config: checked.config, notices, ...unchanged };
    let ruleset = current;
    if (!ruleset) {
      ruleset = await this.createCustomFieldsRuleset(scope);
      // Another writer created it first: start again from what it holds.
      if (ruleset === undefined) return this.changeCustomFields(scope, operation, change);
    }
    if (empty && change.kind === "remove")
      notices.push("no custom fields are left: the ruleset's rules are cleared");
    notices.push(...replacedRules(ruleset));
    const created = current === undefined;
    const id = ruleset.id;
    // A dry run that would create the ruleset shows the id it does not know yet as {ruleset_id}.
    const path = `${scopePath(scope)}/rulesets/${created && this.runner.dryRun ? id : encodeURIComponent(id)}`;
    const written = await writeCustomFields(
      {
        operation,
        put: (rules) =>
          this.runner.write<StoredRuleset>(
            { operation, method: "PUT", path, body: { rules }, expects: "object" },
            () => ({ ...RULESET_FOR_CUSTOM_FIELDS, id, rules: rules as RulesetRule[] }),
            "replaces all rules of the ruleset",
          ),
        readVersion: async (version) =>
          (
            await this.runner.read<StoredRuleset>({
              operation: "get ruleset version",
              method: "GET",
              path: `${path}/versions/${version}`,
              expects: "object",
            })
          ).result,
        read: () => this.readRuleset(scope, id),
        pause: (attempt) => this.transport.pauseAfterConflict(attempt),
        check: (config) => this.checkCustomFields(config),
        maxConflictRetries: this.transport.maxConflictRetries,
        dryRun: this.runner.dryRun,
      },
      ruleset,
      held,
      change,
      checked,
    );
    const removed = written.changes.filter((one) => one.change === "removed").length;
    if (change.kind === "set" && removed > 0)
      notices.push(
        `set replaces the whole configuration: ${removed} configured field${removed === 1 ? " is" : "s are"} removed (fields add keeps them)`,
      );
    return {
      rulesetId: id,
      config: written.config,
      created,
      changed: true,
      notices: [...notices, ...written.notices],
      changes: written.changes,
    };
  }

  /** Creates the zone's custom-fields ruleset; undefined when another writer created it first. */
  private async createCustomFieldsRuleset(scope: ResolvedScope): Promise<Ruleset | undefined> {
    const operation = "create custom fields ruleset";
    const request: ApiRequest = {
      operation,
      method: "POST",
      path: `${scopePath(scope)}/rulesets`,
      body: RULESET_FOR_CUSTOM_FIELDS,
      expects: "object",
    };
    try {
      return await this.runner.write<Ruleset>(request, () => ({
        ...RULESET_FOR_CUSTOM_FIELDS,
        id: "{ruleset_id}",
      }));
    } catch (error) {
      // The service allows one zone ruleset per phase: one made meanwhile is the one to write to.
      if (
        error instanceof ApiError &&
        error.failure === "http" &&
        (await this.findCustomFieldsRuleset(scope, operation))
      )
        return undefined;
      throw error;
    }
  }

  private async readRuleset(scope: ResolvedScope, id: string): Promise<Ruleset> {
    const request: ApiRequest = {
      operation: "get ruleset",
      method: "GET",
      path: `${scopePath(scope)}/rulesets/${encodeURIComponent(id)}`,
      expects: "object",
    };
    return (await this.runner.read<Ruleset>(request)).result;
  }

  private async findCustomFieldsRuleset(
    scope: ResolvedScope,
    operation: string,
  ): Promise<Ruleset | undefined> {
    // Every cursor handed out, by the page it led to: one given again means the list loops.
    const seen = new Map<string, number>();
    let cursor: string | undefined;
    for (let page = 1; ; page++) {
      const request: ApiRequest = {
        operation,
        method: "GET",
        path: `${scopePath(scope)}/rulesets`,
        expects: "array",
      };
      if (cursor !== undefined) request.query = { cursor };
      const answer = await this.runner.read<unknown[]>(request);
      const found = answer.result.find(isCustomFieldsRuleset) as Ruleset | undefined;
      if (found) return found;
      const next = answer.resultInfo?.["cursor"];
      // The list ends without a cursor, or with an empty page (as the official SDK reads it).
      if (typeof next !== "string" || next === "" || answer.result.length === 0) return undefined;
      if (next.length > MAX_CURSOR_LENGTH)
        throw new ApiError(
          operation,
          "response",
          200,
          [],
          `the list of rulesets gives a cursor of ${next.length} characters on page ${page}, more than the ${MAX_CURSOR_LENGTH} a cursor may have; stopped`,
        );
      const again = seen.get(next);
      if (again !== undefined)
        throw new ApiError(
          operation,
          "response",
          200,
          [],
          `the list of rulesets loops: page ${page} gives the cursor of page ${again} again; stopped`,
        );
      if (page === this.transport.maxPages)
        throw new ApiError(
          operation,
          "response",
          200,
          [],
          `the list of rulesets goes on past ${page} pages (maxPages); stopped`,
          "maxPages",
        );
      seen.set(next, page + 1);
      cursor = next;
    }
  }

  // Jobs.

  async listJobs(where: JobScope): Promise<LogpushJob[]> {
    const scope = resolveScope(where, "list jobs");
    const request: ApiRequest = {
      operation: "list jobs",
      method: "GET",
      path: `${scopePath(scope)}/logpush/jobs`,
      expects: "array",
    };
    const jobs = (await this.runner.read<unknown[]>(request)).result;
    return jobs.filter((job): job is LogpushJob => job !== null && typeof job === "object");
  }

  async getJob(where: JobScope, id: number | string | bigint): Promise<LogpushJob> {
    const operation = "get job";
    const scope = resolveScope(where, operation);
    const path = `${scopePath(scope)}/logpush/jobs/${jobId(id, operation)}`;
    return (await this.runner.read<LogpushJob>({ operation, method: "GET", path, expects: "object" })).result;
  }

  /**
   * Creates a job after checking every setting (the dataset against the scope, the ownership
   * challenge a destination needs) and compiling its filter with the dataset's catalog. For an
   * http_requests job of a zone the zone's custom fields are read: a notice says when the job
   * selects none of RequestHeaders/ResponseHeaders/Cookies while the zone has some, or selects one
   * the zone logs nothing into (turn off with `checkCustomFields: false`).
   */
  async createJob(
    where: JobScope,
    settings: JobSettings,
    options: { checkCustomFields?: boolean } = {},
  ): Promise<JobResult> {
    const operation = "create job";
    const scope = resolveScope(where, operation);
    const built = buildCreateBody(settings, operation, scope);
    const notices = [...built.notices];
    const dataset = settings.dataset ?? DEFAULT_DATASET;
    if (options.checkCustomFields !== false && scope.kind === "zone")
      notices.push(...(await this.customFieldsNotices(scope, dataset, jobFields(built.body as LogpushJob))));
    const request: ApiRequest = {
      operation,
      method: "POST",
      path: `${scopePath(scope)}/logpush/jobs`,
      body: built.body,
      expects: "object",
    };
    const { ownership_challenge: _challenge, ...created } = built.body;
    const job = await this.runner.write<LogpushJob>(request, () => ({ id: "{job_id}", ...created }));
    return { job, notices, diagnostics: built.diagnostics, filterSource: built.filterSource, changes: [] };
  }

  /**
   * Updates a job: reads it, applies the named settings and sends the complete `output_options`
   * (a PUT replaces it whole), so nothing the settings do not name changes; a job keeps its form
   * (`logpull_options` or `output_options`) unless `toOutputOptions` converts it. Fields and filter
   * are checked against the job's own dataset. Nothing is sent when the job already is as asked.
   * A new field selection gets the notices of `createJob` (turn off with `checkCustomFields: false`).
   */
  async updateJob(
    where: JobScope,
    id: number | string | bigint,
    settings: JobSettings,
    options: { checkCustomFields?: boolean } = {},
  ): Promise<JobResult> {
    const operation = "update job";
    const scope = resolveScope(where, operation);
    const path = `${scopePath(scope)}/logpush/jobs/${jobId(id, operation)}`;
    const current = await this.getJob(where, id);
    const update = buildUpdate(current, settings, operation, scope);
    const notices = [...update.notices];
    const dataset = current.dataset ?? DEFAULT_DATASET;
    const problem = datasetScopeProblem(dataset, scope.kind);
    if (problem) throw new ValidationError(operation, [problem]);
    const result = {
      diagnostics: update.diagnostics,
      filterSource: update.filterSource,
      changes: update.changes,
    };
    if (update.changes.length === 0)
      return {
        ...result,
        job: current,
        notices: [...notices, "nothing to change: the job already is as asked"],
      };
    const selects =
      settings.fields !== undefined ||
      settings.outputOptions?.field_names !== undefined ||
      settings.logpullOptions !== undefined;
    if (selects && options.checkCustomFields !== false)
      notices.push(
        ...(await this.customFieldsNotices(scope, dataset, jobFields({ ...current, ...update.body }))),
      );
    const request: ApiRequest = { operation, method: "PUT", path, body: update.body, expects: "object" };
    if (typeof current.destination_conf === "string") request.destinations = [current.destination_conf];
    const job = await this.runner.write<LogpushJob>(request, () => ({ ...current, ...update.body }));
    return { ...result, job, notices };
  }

  async deleteJob(where: JobScope, id: number | string | bigint): Promise<{ id: number | string }> {
    const operation = "delete job";
    const scope = resolveScope(where, operation);
    const numericId = jobId(id, operation);
    const request: ApiRequest = {
      operation,
      method: "DELETE",
      path: `${scopePath(scope)}/logpush/jobs/${numericId}`,
      expects: "object or null",
    };
    const result = await this.runner.write<{ id?: number | string } | null>(request, () => ({
      id: numericId,
    }));
    return { id: result?.id ?? numericId };
  }

  /** Asks the service to write an ownership challenge file into the destination; says the file's name. */
  requestOwnership(where: JobScope, destination: string): Promise<DestinationAnswer> {
    return this.destinationCall(where, "request ownership challenge", "ownership", {
      destination_conf: destination,
    });
  }

  /** Checks an ownership challenge token against the destination. */
  validateOwnership(where: JobScope, destination: string, challenge: string): Promise<DestinationAnswer> {
    return this.destinationCall(where, "validate ownership challenge", "ownership/validate", {
      destination_conf: destination,
      ownership_challenge: challenge,
    });
  }

  /** The service's own check of a destination (it writes a test file there). */
  validateDestination(where: JobScope, destination: string): Promise<DestinationAnswer> {
    return this.destinationCall(where, "validate destination", "validate/destination", {
      destination_conf: destination,
    });
  }

  /** Whether a job already pushes to the destination. */
  destinationExists(where: JobScope, destination: string): Promise<DestinationAnswer> {
    return this.destinationCall(where, "check destination exists", "validate/destination/exists", {
      destination_conf: destination,
    });
  }

  /** A POST about a destination: checked locally first; the service's answer, with `valid: false` kept as an answer. */
  private async destinationCall(
    where: JobScope,
    operation: string,
    route: string,
    body: Record<string, string>,
  ): Promise<DestinationAnswer> {
    const scope = resolveScope(where, operation);
    const checked = checkDestination(body["destination_conf"] ?? "", "destination_conf");
    if (checked.problems.length > 0) throw new ValidationError(operation, checked.problems);
    const request: ApiRequest = {
      operation,
      method: "POST",
      path: `${scopePath(scope)}/logpush/${route}`,
      body,
      expects: "object",
    };
    return this.runner.write<DestinationAnswer>(request, () => ({}));
  }

  // Instant Logs.

  /**
   * Creates an Instant Logs session of the zone: the fields checked against http_requests' catalog,
   * the sample, and the filter compiled with that catalog before anything is sent. Returns the
   * session and its WebSocket address, checked (`wss://`, or `ws://` on this machine); the records
   * arrive there as line-delimited JSON, to be read with any WebSocket client.
   */
  async createInstantLogsSession(
    zone: ZoneScope,
    settings: InstantLogsSettings = {},
  ): Promise<InstantLogsResult> {
    expectArgument(
      settings,
      isInstantLogsSettings,
      "createInstantLogsSession",
      "settings",
      INSTANT_LOGS_SETTINGS,
    );
    const operation = "create Instant Logs session";
    const scope = zoneOnly(resolveScope(zone, operation), operation);
    const built = instantLogsBody(settings, operation);
    const session = await this.runner.write<InstantLogsSession>(
      instantLogsRequests.create(scope, built.body, operation),
      () => ({ ...built.body, destination_conf: "wss://{session address}", session_id: "{session_id}" }),
      "opens a session: its records stream to the address the service answers with",
    );
    const address = this.runner.dryRun
      ? String(session.destination_conf)
      : sessionAddress(session, operation);
    return { session, address, diagnostics: built.diagnostics, filterSource: built.filterSource };
  }

  /** The zone's Instant Logs sessions. */
  async listInstantLogsSessions(zone: ZoneScope): Promise<InstantLogsSession[]> {
    const operation = "list Instant Logs sessions";
    const scope = zoneOnly(resolveScope(zone, operation), operation);
    const listed = (await this.runner.read<unknown[]>(instantLogsRequests.list(scope, operation))).result;
    return listed.filter((entry): entry is InstantLogsSession => entry !== null && typeof entry === "object");
  }

  // Log Explorer datasets.

  /** The Log Explorer datasets of a zone or an account (the list leaves out their fields and filter). */
  async listExplorerDatasets(where: JobScope): Promise<ExplorerDataset[]> {
    const operation = "list Log Explorer datasets";
    const scope = resolveScope(where, operation);
    const listed = (await this.runner.read<unknown[]>(explorerRequests.list(scope, operation))).result;
    return listed.filter((entry): entry is ExplorerDataset => entry !== null && typeof entry === "object");
  }

  /** One Log Explorer dataset, named by its ID or by its type (then found in the list first). */
  async getExplorerDataset(where: JobScope, ref: ExplorerDatasetRef): Promise<ExplorerDataset> {
    return this.readExplorerDataset(where, ref, "get Log Explorer dataset");
  }

  /**
   * Sets a Log Explorer dataset's ingestion filter: reads the dataset, compiles the filter with
   * the catalog of its type and PUTs it with the dataset's own `enabled` and `fields`, so nothing
   * else changes. Nothing is sent when the dataset already has exactly this filter. A `null` filter
   * clears it (the service's `""`).
   */
  async setExplorerFilter(
    where: JobScope,
    ref: ExplorerDatasetRef,
    settings: ExplorerFilterSettings,
  ): Promise<ExplorerFilterResult> {
    expectArgument(
      settings,
      isExplorerFilterSettings,
      "setExplorerFilter",
      "settings",
      EXPLORER_FILTER_SETTINGS,
    );
    const operation = settings.filter === null ? "clear Log Explorer filter" : "set Log Explorer filter";
    const scope = resolveScope(where, operation);
    const current = await this.readExplorerDataset(where, ref, operation);
    const update = explorerFilterUpdate(current, settings, operation);
    const before = explorerFilterOf(current);
    const result = {
      before,
      after: update.after,
      diagnostics: update.diagnostics,
      filterSource: update.filterSource,
    };
    const notices =
      current.enabled === true
        ? []
        : ["the dataset's ingest is disabled: the filter applies once it is enabled"];
    if (before === update.after)
      return {
        ...result,
        dataset: current,
        changed: false,
        notices: [...notices, "nothing to change: the dataset already has this filter"],
      };
    const request = explorerRequests.update(scope, current.dataset_id, update.body, operation);
    const { filter: _old, ...rest } = current;
    const dataset = await this.runner.write<ExplorerDataset>(
      request,
      () => (update.after === "" ? rest : { ...rest, filter: update.after }),
      "sends the dataset's own enabled and fields back: a PUT without fields would enable every field",
    );
    return { ...result, dataset, changed: true, notices };
  }

  /** Removes a Log Explorer dataset's ingestion filter (a PUT of `filter: ""`). */
  clearExplorerFilter(where: JobScope, ref: ExplorerDatasetRef): Promise<ExplorerFilterResult> {
    return this.setExplorerFilter(where, ref, { filter: null });
  }

  private async readExplorerDataset(
    where: JobScope,
    ref: ExplorerDatasetRef,
    operation: string,
  ): Promise<ExplorerDataset> {
    expectArgument(ref, isExplorerDatasetRef, "LogpushClient", "ref", EXPLORER_DATASET_REF);
    const scope = resolveScope(where, operation);
    let id: string;
    if ("datasetId" in ref) id = ref.datasetId;
    else {
      const listed = (await this.runner.read<unknown[]>(explorerRequests.list(scope, operation))).result;
      const entries = listed.filter(
        (entry): entry is ExplorerDataset => entry !== null && typeof entry === "object",
      );
      id = findExplorerDataset(entries, ref.dataset, scope, operation).dataset_id;
    }
    return (await this.runner.read<ExplorerDataset>(explorerRequests.get(scope, String(id), operation)))
      .result;
  }

  /**
   * Notices on a job's selection against the zone's custom fields: the zone has some but the job
   * selects none of RequestHeaders/ResponseHeaders/Cookies, or it selects one the zone logs nothing into.
   */
  private async customFieldsNotices(
    scope: ResolvedScope,
    dataset: string,
    fields: readonly string[],
  ): Promise<string[]> {
    if (scope.kind !== "zone" || dataset !== DEFAULT_DATASET) return [];
    const selected = CUSTOM_FIELD_COLUMNS.filter((column) => fields.includes(column));
    if (!this.runner.canRead) return selected.length === 0 ? [customFieldsNotSelected(false)] : [];
    try {
      const state = await this.getCustomFields({ zoneId: scope.id });
      const names = namesByColumn(state?.config ?? {});
      if (selected.length > 0)
        return selected.filter((column) => names[column].length === 0).map(customFieldsMissing);
      return Object.values(names).some((listed) => listed.length > 0) ? [customFieldsNotSelected(true)] : [];
    } catch (error) {
      if (error instanceof ApiError) return [`could not check the zone's custom fields (${error.message})`];
      throw error;
    }
  }
}

/** Instant Logs sessions belong to a zone: an account's scope is refused by name. */
function zoneOnly(scope: ResolvedScope, operation: string): ResolvedScope {
  if (scope.kind === "zone") return scope;
  throw new ValidationError(operation, [
    problem("InvalidIdentifier", "scope", {
      what: "scope",
      value: "an account",
      expected: "a zone ({ zoneId }): Instant Logs streams a zone's http_requests",
    }),
  ]);
}

/** A client for custom fields and Logpush jobs, over `fetch`. */
export function createClient(options: ClientOptions = {}): LogpushClient {
  expectArgument(options, isOptions, "createClient", "options", "an object");
  return new LogpushClient(options);
}
