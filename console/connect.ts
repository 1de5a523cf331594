import { element } from "../playground/dom.js";
import { CUSTOM_FIELD_COLUMNS, type CustomFieldsConfig, namesByColumn } from "../src/api/custom-fields.js";
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
import { call, type Failure, scopeQuery } from "./api.js";
import { createFilterEditor } from "./filter-editor.js";
import { failureText, say, sayProblems } from "./messages.js";

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

/**
 * The Connect a service view: Scope and Dataset, the data fields, the Filter section, then (Next)
 * Destination, Ownership challenge, output options and Create job. The same Filter section edits a
 * listed job's filter (`editFilter`). Before anything is sent, the settings are held to the checks
 * the client itself runs; what the API answers is shown at its place too.
 */
export function setUpConnect(ids: ScopeIds, jobsChanged: () => Promise<void>) {
  const scopeSelect = element<HTMLSelectElement>("scope");
  const datasetSelect = element<HTMLSelectElement>("dataset");
  const fieldList = element("data-field-list");
  const destination = element<HTMLInputElement>("destination");
  const challenge = element<HTMLInputElement>("ownership-challenge");
  const timestamps = element<HTMLSelectElement>("timestamps");
  const sampleRate = element<HTMLInputElement>("sample-rate");
  const jobName = element<HTMLInputElement>("job-name");
  const filter = createFilterEditor(DEFAULT_DATASET);
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

  function selectedFields(): string[] {
    return Array.from(fieldList.querySelectorAll<HTMLInputElement>("input:checked"), (box) => box.value);
  }

  function countFields(): void {
    const boxes = fieldList.querySelectorAll("input").length;
    say("data-fields-count", `${selectedFields().length} of ${boxes} selected`);
  }

  /** One checkbox a field, labelled with its name; RequestHeaders, ResponseHeaders and Cookies say what they carry. */
  function renderFields(): void {
    const catalog = getCatalog(datasetSelect.value)!;
    const kept = new Set(selectedFields());
    fieldList.replaceChildren(
      ...[...catalog.fields.values()].map((field) => {
        const box = document.createElement("input");
        box.type = "checkbox";
        box.id = `data-field-${field.name}`;
        box.value = field.name;
        box.checked = kept.has(field.name);
        box.addEventListener("change", countFields);
        const label = document.createElement("label");
        label.htmlFor = box.id;
        label.textContent = field.name;
        const item = document.createElement("div");
        item.className = "checkbox";
        item.append(box, label);
        if ((CUSTOM_FIELD_COLUMNS as readonly string[]).includes(field.name)) {
          const carries = document.createElement("span");
          carries.className = "carries";
          carries.id = `carries-${field.name}`;
          carries.dataset["column"] = field.name;
          box.setAttribute("aria-describedby", carries.id);
          item.append(carries);
        }
        return item;
      }),
    );
    countFields();
  }

  async function describeCustomFields(): Promise<void> {
    const places = fieldList.querySelectorAll<HTMLElement>("[data-column]");
    if (places.length === 0) return;
    const scope = currentScope();
    if (!scope || !("zoneId" in scope)) {
      places.forEach((place) => {
        place.textContent = "";
      });
      return;
    }
    const answer = await call<{ config: CustomFieldsConfig }>(
      "GET",
      `/api/custom-fields?${scopeQuery(scope)}`,
    );
    const names = answer.ok ? namesByColumn(answer.config) : undefined;
    places.forEach((place) => {
      const carried = names?.[place.dataset["column"] as keyof typeof names];
      place.textContent =
        carried === undefined
          ? ""
          : carried.length > 0
            ? `carries the custom fields ${carried.join(", ")}`
            : "no custom fields are configured: it will be empty";
    });
  }

  async function datasetChanged(): Promise<void> {
    renderFields();
    filter.setDataset(datasetSelect.value);
    await describeCustomFields();
  }

  function showStep(step: 1 | 2): void {
    element("step-1").hidden = step !== 1;
    element("step-2").hidden = step !== 2;
    (step === 1 ? datasetSelect : destination).focus();
  }

  /** The settings of the first step: dataset, fields and the filter's text. */
  function stepOne(): JobSettings {
    return { dataset: datasetSelect.value, fields: selectedFields(), filter: { source: filter.text() } };
  }

  function checkStepOne(): boolean {
    const fields = selectedFields().length === 0 ? [problem("NoJobFields", "field_names", {})] : [];
    say("data-fields-problem", fields.map((p) => p.message).join(" "));
    const result = filter.result();
    const errors = result.diagnostics.filter((d) => d.severity === "error").length;
    say("step-1-problem", errors > 0 ? problem("InvalidFilter", "filter", { errors }).message : "");
    return fields.length === 0 && errors === 0;
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

  function sayFailure(failure: Failure, otherwise: string): void {
    if (failure.kind === "refused")
      sayProblems(failure.problems.map(shownProblem), STEP_TWO_PLACES, otherwise, failure.operation);
    else say(otherwise, failureText(failure));
  }

  async function createJob(): Promise<void> {
    const scope = currentScope();
    if (!scope) return;
    const settings = stepTwo();
    const place =
      "zoneId" in scope
        ? { kind: "zone" as const, id: scope.zoneId }
        : { kind: "account" as const, id: scope.accountId };
    try {
      buildCreateBody(settings, "create job", place);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      sayFailure(
        {
          kind: "refused",
          operation: error.operation,
          problems: error.problems,
          diagnostics: [],
          filterSource: null,
        },
        "create-problem",
      );
      return;
    }
    sayProblems([], STEP_TWO_PLACES, "create-problem", "");
    const answer = await call<JobResult>("POST", "/api/jobs", { scope, settings });
    if (!answer.ok) return sayFailure(answer.error, "create-problem");
    say("connect-status", [`Created job ${answer.job.id}.`, ...answer.notices].join(" "));
    for (const input of [destination, challenge, jobName]) input.value = "";
    say("ownership-note", "");
    showStep(1);
    await jobsChanged();
  }

  async function requestChallenge(): Promise<void> {
    const scope = currentScope();
    if (!scope) return;
    const checked = checkDestination(destination.value.trim());
    say("destination-problem", checked.problems.map((p) => p.message).join(" "));
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
  }

  function liveDestination(): void {
    const text = destination.value.trim();
    const checked = text === "" ? [] : checkDestination(text).problems;
    say("destination-problem", checked.map((p) => p.message).join(" "));
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
        `Editing the filter of job ${job.job.id}${job.job.name ? ` (${job.job.name})` : ""}: Save filter sends the filter only.`,
      );
  }

  async function saveFilter(): Promise<void> {
    if (!editing) return;
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
  element("select-all-fields").addEventListener("click", () => {
    fieldList.querySelectorAll<HTMLInputElement>("input").forEach((box) => {
      box.checked = true;
    });
    countFields();
  });
  element("select-no-fields").addEventListener("click", () => {
    fieldList.querySelectorAll<HTMLInputElement>("input").forEach((box) => {
      box.checked = false;
    });
    countFields();
  });
  element("next").addEventListener("click", () => {
    if (checkStepOne()) showStep(2);
  });
  element("back").addEventListener("click", () => showStep(1));
  element("create-job").addEventListener("click", createJob);
  element("request-challenge").addEventListener("click", requestChallenge);
  destination.addEventListener("input", liveDestination);
  element("save-filter").addEventListener("click", saveFilter);
  element("cancel-edit").addEventListener("click", () => {
    setEditing(undefined);
    filter.setText("");
  });

  fillDatasets();
  renderFields();

  return {
    /** The scope this view lists jobs of. */
    currentScope,
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
      renderFields();
      filter.setDataset(dataset);
      filter.setText(read.source ?? "");
      element("filter-heading").scrollIntoView();
      filter.view.focus();
      return undefined;
    },
  };
}

export type ConnectView = ReturnType<typeof setUpConnect>;
