import { element } from "../playground/dom.js";
import { renderResult } from "../playground/output.js";
import { type CustomFieldsConfig, namesByColumn } from "../src/api/custom-fields.js";
import type { JobScope } from "../src/api/index.js";
import {
  checkDestination,
  DEFAULT_TIMESTAMPS,
  type JobResult,
  type LogpushJob,
  needsOwnershipChallenge,
  type Problem,
  TIMESTAMP_FORMATS,
  ValidationError,
} from "../src/api/index.js";
import { buildCreateBody, type JobSettings } from "../src/api/jobs.js";
import { problem } from "../src/api/problems.js";
import {
  DEFAULT_DATASET,
  datasetNames,
  datasetScopes,
  getCatalog,
  type ScopeKind,
} from "../src/catalog/index.js";
import { decompile } from "../src/decompile/index.js";
import { terminalText } from "../src/diagnostics/terminal-text.js";
import { call, type Failure, scopeQuery } from "./api.js";
import { oneAtATime } from "./busy.js";
import { type Carried, setUpDataFields } from "./data-fields.js";
import { createFilterEditor } from "./filter/editor.js";
import { failureText, say, sayProblems, sentences } from "./messages.js";
import { renderReview } from "./review.js";

type ScopeIds = () => { zoneId: string; accountId: string };

/** Where each problem of a job's settings is said, by the path the checks name it with. */
const STEP_TWO_PLACES = [
  ["destination_conf", "destination-problem"],
  ["ownership_challenge", "ownership-problem"],
  ["output_options", "output-problem"],
] as const;

/**
 * A problem in the console's words where the client's name a command of the CLI: a destination
 * that needs its ownership challenge has the button beside it.
 */
function shownProblem(found: Problem): Problem {
  if (found.code !== "E0627") return found;
  return {
    ...found,
    message:
      "this destination takes the token of its ownership challenge: press Request ownership challenge, and give the token here",
  };
}

/** A notice of the client's in the console's words: a custom field is added in Custom Fields, not by a command. */
const shownNotice = (notice: string) =>
  notice.replace(/ \(add one with filterc fields add [^)]*\)$/, " (add one in Custom Fields)");

/** A scope as the client's checks take it, and the path of its jobs. */
function resolved(scope: JobScope) {
  return "zoneId" in scope
    ? { kind: "zone" as const, id: scope.zoneId, path: `/zones/${scope.zoneId}/logpush/jobs` }
    : { kind: "account" as const, id: scope.accountId, path: `/accounts/${scope.accountId}/logpush/jobs` };
}

/**
 * The Connect a service view: Scope and Dataset, the data fields, the Filter section, then (Next)
 * Destination, Ownership challenge, output options, what Create job will send, and Create job;
 * then the job made, and Create another. The same Filter section edits a listed job's filter
 * (`editFilter`). Before anything is sent, the settings are held to the checks the client itself
 * runs; what the API answers is shown at its place too.
 */
export function setUpConnect(ids: ScopeIds, jobsChanged: () => Promise<void>) {
  const scopeSelect = element<HTMLSelectElement>("scope");
  const datasetSelect = element<HTMLSelectElement>("dataset");
  const destination = element<HTMLInputElement>("destination");
  const challenge = element<HTMLInputElement>("ownership-challenge");
  const timestamps = element<HTMLSelectElement>("timestamps");
  const sampleRate = element<HTMLInputElement>("sample-rate");
  const jobName = element<HTMLInputElement>("job-name");
  const fields = setUpDataFields();
  const filter = createFilterEditor(
    { builder: element("builder"), editor: element("editor"), compiled: renderResult },
    DEFAULT_DATASET,
  );
  let editing: { job: LogpushJob; scope: JobScope } | undefined;

  for (const format of TIMESTAMP_FORMATS) timestamps.add(new Option(format, format));
  timestamps.value = DEFAULT_TIMESTAMPS;

  function scopeKind(): ScopeKind {
    return scopeSelect.value as ScopeKind;
  }

  /** The scope the view works in, or undefined (said at Scope) while its ID is not typed. */
  function currentScope(): JobScope | undefined {
    const { zoneId, accountId } = ids();
    const kind = scopeKind();
    const id = kind === "zone" ? zoneId : accountId;
    if (id === "") {
      say(
        "scope-problem",
        `Type the ${kind === "zone" ? "Zone" : "Account"} ID above: jobs live in a ${kind}.`,
      );
      return undefined;
    }
    say("scope-problem", "");
    return kind === "zone" ? { zoneId: id } : { accountId: id };
  }

  function fillDatasets(): void {
    const kind = scopeKind();
    const offered = datasetNames.filter((name) => datasetScopes(name)?.includes(kind));
    const keep = offered.includes(datasetSelect.value) ? datasetSelect.value : undefined;
    datasetSelect.replaceChildren(...offered.map((name) => new Option(name, name)));
    datasetSelect.value = keep ?? (offered.includes(DEFAULT_DATASET) ? DEFAULT_DATASET : offered[0]!);
  }

  async function describeCustomFields(): Promise<void> {
    const scope = currentScope();
    if (!scope || !("zoneId" in scope)) return fields.describe({});
    const answer = await call<{ config: CustomFieldsConfig }>(
      "GET",
      `/api/custom-fields?${scopeQuery(scope)}`,
    );
    if (!answer.ok) return fields.describe({});
    const carried: Carried = {};
    for (const [column, names] of Object.entries(namesByColumn(answer.config)))
      carried[column] =
        names.length > 0
          ? `carries the custom fields ${names.join(", ")}`
          : "no custom fields are configured: it will be empty";
    fields.describe(carried);
  }

  async function datasetChanged(): Promise<void> {
    fields.show(getCatalog(datasetSelect.value)!);
    filter.setDataset(datasetSelect.value);
    await describeCustomFields();
  }

  function showStep(step: 1 | 2 | 3): void {
    for (const shown of [1, 2, 3]) element(`step-${shown}`).hidden = step !== shown;
    if (step === 1) datasetSelect.focus();
    else if (step === 2) {
      updateReview();
      destination.focus();
    } else element("created-heading").focus();
  }

  /** The settings of the first step: dataset, fields in their order, and the filter's text. */
  function stepOne(): JobSettings {
    return { dataset: datasetSelect.value, fields: fields.picked(), filter: { source: filter.text() } };
  }

  function checkStepOne(): boolean {
    const none = fields.picked().length === 0 ? [problem("NoJobFields", "field_names", {})] : [];
    say("data-fields-problem", sentences(none.map((p) => p.message)));
    const result = filter.result();
    const errors = result.diagnostics.filter((d) => d.severity === "error").length;
    const unfinished = filter.unfinished();
    say(
      "step-1-problem",
      sentences([
        ...(errors > 0 ? [problem("InvalidFilter", "filter", { errors }).message] : []),
        ...(unfinished.length > 0
          ? [
              `${unfinished.length === 1 ? "comparison" : "comparisons"} ${unfinished.join(", ")} of the builder ${unfinished.length === 1 ? "is" : "are"} not finished (no field or no value), so ${unfinished.length === 1 ? "it is" : "they are"} not in the filter: finish or remove ${unfinished.length === 1 ? "it" : "them"}`,
            ]
          : []),
      ]),
    );
    return none.length === 0 && errors === 0 && unfinished.length === 0;
  }

  /** The sample rate as typed: a number when it reads as one, else the text (which the checks refuse by name). */
  function sampleRateValue(): number | undefined {
    const text = sampleRate.value.trim();
    if (text === "" || text === "1") return undefined;
    return /^(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : (text as unknown as number);
  }

  function stepTwo(): JobSettings {
    const settings: JobSettings = {
      ...stepOne(),
      destination: destination.value.trim(),
      timestamps: timestamps.value,
    };
    if (challenge.value.trim() !== "") settings.ownershipChallenge = challenge.value.trim();
    const rate = sampleRateValue();
    if (rate !== undefined) settings.outputOptions = { sample_rate: rate };
    if (jobName.value.trim() !== "") settings.name = jobName.value.trim();
    return settings;
  }

  /** The body Create job sends, by the client's own checks, or the refusal they give. */
  function built(scope: JobScope, settings: JobSettings): Record<string, unknown> | ValidationError {
    const { kind, id } = resolved(scope);
    try {
      return buildCreateBody(settings, "create job", { kind, id }).body;
    } catch (error) {
      if (error instanceof ValidationError) return error;
      throw error;
    }
  }

  /** What Create job will send, shown beside it as the settings change. */
  function updateReview(): void {
    const scope = currentScope();
    const settings = stepTwo();
    const body = scope ? built(scope, settings) : undefined;
    renderReview({
      request: scope ? `POST ${resolved(scope).path}` : "no scope yet",
      settings,
      filter: filter.result(),
      body: body instanceof ValidationError ? undefined : body,
    });
  }

  function sayFailure(failure: Failure, otherwise: string): void {
    if (failure.kind === "refused")
      sayProblems(failure.problems.map(shownProblem), STEP_TWO_PLACES, otherwise, failure.operation);
    else say(otherwise, failureText(failure));
  }

  async function createJob(): Promise<void> {
    const scope = currentScope();
    if (!scope) return;
    const settings = stepTwo();
    const body = built(scope, settings);
    if (body instanceof ValidationError)
      return sayFailure(
        {
          kind: "refused",
          operation: body.operation,
          problems: body.problems,
          diagnostics: [],
          filterSource: null,
        },
        "create-problem",
      );
    sayProblems([], STEP_TWO_PLACES, "create-problem", "");
    const answer = await call<JobResult>("POST", "/api/jobs", { scope, settings });
    if (!answer.ok) return sayFailure(answer.error, "create-problem");
    const { job } = answer;
    say("connect-status", sentences([`Created job ${job.id}.`, ...answer.notices.map(shownNotice)]));
    say(
      "created-text",
      `Job ${job.id}${job.name ? ` (${terminalText(job.name)})` : ""} pushes ${job.dataset ?? settings.dataset} to ${terminalText(job.destination_conf ?? "")}. It is listed below, under Logpush jobs.`,
    );
    showStep(3);
    await jobsChanged();
  }

  /** Back to the first step with nothing chosen but the scope and dataset: the next job starts anew. */
  function createAnother(): void {
    fields.reset();
    filter.setText("");
    for (const input of [destination, challenge, jobName]) input.value = "";
    sampleRate.value = "1";
    timestamps.value = DEFAULT_TIMESTAMPS;
    destination.removeAttribute("aria-invalid");
    for (const id of ["ownership-note", "connect-status", "data-fields-problem", "step-1-problem"])
      say(id, "");
    sayProblems([], STEP_TWO_PLACES, "create-problem", "");
    showStep(1);
  }

  async function requestChallenge(): Promise<void> {
    const scope = currentScope();
    if (!scope) return;
    const checked = checkDestination(destination.value.trim());
    say("destination-problem", sentences(checked.problems.map((p) => p.message)));
    if (checked.problems.length > 0) return destination.focus();
    say("ownership-note", "Asking for the ownership challenge…");
    const answer = await call<{ filename: string | null; token?: string; tokenProblem?: string }>(
      "POST",
      "/api/ownership",
      { scope, destination: destination.value.trim() },
    );
    if (!answer.ok) {
      say("ownership-note", "");
      return sayFailure(answer.error, "ownership-problem");
    }
    say("ownership-problem", "");
    const file = answer.filename ?? "a file";
    if (answer.token !== undefined) {
      challenge.value = answer.token;
      say("ownership-note", `The token was read from ${file}, which the sandbox wrote into the destination.`);
    } else
      say(
        "ownership-note",
        `The service wrote ${file} into the destination: open it and give its token here.${answer.tokenProblem ? ` (It could not be read here: ${answer.tokenProblem}.)` : ""}`,
      );
    updateReview();
  }

  function liveDestination(): void {
    const text = destination.value.trim();
    const checked = text === "" ? [] : checkDestination(text).problems;
    say("destination-problem", sentences(checked.map((p) => p.message)));
    destination.setAttribute("aria-invalid", String(checked.length > 0));
    if (checked.length === 0 && text !== "" && needsOwnershipChallenge(text) && challenge.value === "")
      say("ownership-note", "This destination takes the token of its ownership challenge.");
  }

  function setEditing(job: { job: LogpushJob; scope: JobScope } | undefined): void {
    editing = job;
    const on = job !== undefined;
    for (const id of ["data-fields", "next"]) element(id).hidden = on;
    for (const id of ["save-filter", "cancel-edit", "editing-job"]) element(id).hidden = !on;
    scopeSelect.disabled = on;
    datasetSelect.disabled = on;
    if (job)
      say(
        "editing-job",
        `Editing the filter of job ${job.job.id}${job.job.name ? ` (${terminalText(job.job.name)})` : ""}: Save filter sends the filter only.`,
      );
  }

  async function saveFilter(): Promise<void> {
    if (!editing) return;
    const unfinished = filter.unfinished();
    if (unfinished.length > 0) {
      checkStepOne();
      return;
    }
    const text = filter.text();
    const answer = await call<JobResult>("PUT", `/api/jobs/${encodeURIComponent(String(editing.job.id))}`, {
      scope: editing.scope,
      settings: { filter: text.trim() === "" ? null : { source: text } },
    });
    if (!answer.ok) return say("step-1-problem", failureText(answer.error));
    say("step-1-problem", "");
    say(
      "connect-status",
      answer.changes.length === 0
        ? `Job ${editing.job.id}: nothing to change.`
        : `Saved the filter of job ${editing.job.id}.`,
    );
    setEditing(undefined);
    await jobsChanged();
  }

  scopeSelect.addEventListener("change", async () => {
    fillDatasets();
    await datasetChanged();
    await jobsChanged();
  });
  datasetSelect.addEventListener("change", datasetChanged);
  element("skip-to-filter").addEventListener("click", (event) => {
    // The page's address names its view: the link moves the focus, not the address.
    event.preventDefault();
    element("filter-heading").focus();
  });
  element("next").addEventListener("click", () => {
    if (checkStepOne()) showStep(2);
  });
  element("back").addEventListener("click", () => showStep(1));
  const create = element<HTMLButtonElement>("create-job");
  create.addEventListener("click", oneAtATime(create, createJob));
  element("create-another").addEventListener("click", createAnother);
  const request = element("request-challenge");
  request.addEventListener("click", oneAtATime(request, requestChallenge));
  destination.addEventListener("input", liveDestination);
  element("step-2").addEventListener("input", updateReview);
  element("step-2").addEventListener("change", updateReview);
  const save = element("save-filter");
  save.addEventListener("click", oneAtATime(save, saveFilter));
  element("cancel-edit").addEventListener("click", () => {
    setEditing(undefined);
    filter.setText("");
  });

  fillDatasets();
  fields.show(getCatalog(datasetSelect.value)!);

  return {
    /** The scope this view lists jobs of. */
    currentScope,
    /** The levels of warnings and notes the console's session gives the filter. */
    setDiagnostics: filter.setDiagnostics,
    async load(): Promise<void> {
      await describeCustomFields();
    },
    /** Loads a listed job's filter into the Filter section, to change and save it alone. */
    editFilter(job: LogpushJob, scope: JobScope): string | undefined {
      const dataset = job.dataset ?? DEFAULT_DATASET;
      if (!getCatalog(dataset)) return `filterc does not know the dataset ${dataset}`;
      const read = decompile(job.filter ?? "", { dataset });
      if (!read.ok)
        return `the job's filter does not read back: ${read.diagnostics[0]?.message ?? "unknown error"}`;
      showStep(1);
      setEditing({ job, scope });
      scopeSelect.value = "zoneId" in scope ? "zone" : "account";
      fillDatasets();
      datasetSelect.value = dataset;
      fields.show(getCatalog(dataset)!);
      filter.setDataset(dataset);
      filter.setText(read.source ?? "");
      element("filter-heading").scrollIntoView();
      filter.view.focus();
      return undefined;
    },
  };
}

export type ConnectView = ReturnType<typeof setUpConnect>;
