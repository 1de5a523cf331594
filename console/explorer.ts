import { element } from "../playground/dom.js";
import { ValidationError } from "../src/api/errors.js";
import {
  type ExplorerDataset,
  type ExplorerFilterResult,
  explorerFilterOf,
  explorerFilterUpdate,
} from "../src/api/explorer.js";
import { type JobScope, resolveScope, scopePath } from "../src/api/ids.js";
import { DEFAULT_DATASET, getCatalog } from "../src/catalog/index.js";
import { compile } from "../src/compile.js";
import { decompile } from "../src/decompile/index.js";
import type { DiagnosticSettings } from "../src/diagnostics/index.js";
import { call, scopeQuery } from "./api.js";
import { oneAtATime } from "./busy.js";
import { createFilterEditor } from "./filter/editor.js";
import { filterWords, showOutcome } from "./filter/outcome.js";
import { failureText, say, sentences } from "./messages.js";

type ScopeIds = () => { zoneId: string; accountId: string };

/** What a dataset's filter says when it has none. */
const NO_FILTER = "No filter: Log Explorer ingests every event.";

/** A filter the service holds, read: its source and its words; or why filterc cannot read it. */
function readFilter(json: string, dataset: string): { source: string; words: string } | { problem: string } {
  if (json === "") return { source: "", words: NO_FILTER };
  if (!getCatalog(dataset)) return { problem: `filterc does not know the dataset ${dataset}` };
  const read = decompile(json, { dataset });
  if (!read.ok || read.source === null)
    return {
      problem: `the filter does not read back: ${read.diagnostics[0]?.message ?? "unknown error"}`,
    };
  return { source: read.source, words: filterWords(compile(read.source, { dataset })) };
}

function fact(term: string, ...values: (Node | string)[]): HTMLElement[] {
  const dt = document.createElement("dt");
  dt.textContent = term;
  const dd = document.createElement("dd");
  dd.append(...values);
  return [dt, dd];
}

/** Text as code: inline, or a block of words (which break at their spaces). */
function code(text: string, block = false): HTMLElement {
  const node = document.createElement(block ? "pre" : "code");
  if (block) node.className = "code words";
  node.textContent = text;
  return node;
}

/**
 * The Log Explorer view: the datasets of the scope (the Zone or Account ID above), each with its
 * ingestion filter in words and as JSON, and Edit filter, which loads it into a Filter section of
 * the dataset's catalog. What Save filter sends is shown beside it before it is sent: the filter
 * now and as it will be, in words and JSON, and the request with its body, built by the client's
 * own checks (the dataset's own `enabled` and `fields` sent back); nothing is sent while they
 * refuse, nor when the filter is the dataset's already. Clear filter empties it, to send `""`.
 */
export function setUpExplorer(ids: ScopeIds, diagnostics: DiagnosticSettings | undefined) {
  const scopeSelect = element<HTMLSelectElement>("lx-scope");
  const list = element("lx-datasets");
  const panel = element("lx-edit");
  const outcome = showOutcome({
    status: element("lx-filter-status"),
    words: element("lx-explain"),
    json: element("lx-json"),
    diagnostics: element("lx-diagnostics"),
  });
  let editing: { dataset: ExplorerDataset; scope: JobScope } | undefined;
  const filter = createFilterEditor(
    {
      builder: element("lx-builder"),
      editor: element("lx-editor"),
      compiled: (view, result) => {
        outcome(view, result);
        updateReview();
      },
    },
    DEFAULT_DATASET,
  );
  if (diagnostics) filter.setDiagnostics(diagnostics);

  /** The scope the view lists, or undefined (said in place) while its ID is not typed. */
  function currentScope(): JobScope | undefined {
    const { zoneId, accountId } = ids();
    const kind = scopeSelect.value === "account" ? "account" : "zone";
    const id = kind === "zone" ? zoneId : accountId;
    say(
      "lx-problem",
      id === ""
        ? `Type the ${kind === "zone" ? "Zone" : "Account"} ID above: Log Explorer's datasets are a ${kind}'s.`
        : "",
    );
    if (id === "") return undefined;
    return kind === "zone" ? { zoneId: id } : { accountId: id };
  }

  /** The filter of the Filter section as the client takes it: null (none, which clears it) or its source. */
  const given = () => (filter.text().trim() === "" ? null : { source: filter.text() });

  /** What Save filter would send, by the client's own checks, or the refusal they give. */
  function built(dataset: ExplorerDataset): ReturnType<typeof explorerFilterUpdate> | ValidationError {
    try {
      return explorerFilterUpdate(
        dataset,
        { filter: given(), ...(diagnostics && { compileOptions: { diagnostics } }) },
        "set Log Explorer filter",
      );
    } catch (error) {
      if (error instanceof ValidationError) return error;
      throw error;
    }
  }

  function requestLine({ dataset, scope }: NonNullable<typeof editing>): string {
    const path = scopePath(resolveScope(scope, "set Log Explorer filter"));
    return `PUT ${path}/logs/explorer/datasets/${encodeURIComponent(dataset.dataset_id)}`;
  }

  /** What Save filter sends, kept up to date as the filter changes. */
  function updateReview(): void {
    if (!editing) return;
    const { dataset } = editing;
    const before = explorerFilterOf(dataset);
    const read = readFilter(before, dataset.dataset);
    const update = built(dataset);
    const result = filter.result();
    element("lx-review-facts").replaceChildren(
      ...fact("Dataset", code(dataset.dataset)),
      ...fact("Dataset ID", code(dataset.dataset_id)),
      ...fact(
        "Ingest",
        dataset.enabled === true ? "enabled" : "disabled: the filter applies once it is enabled",
      ),
    );
    element("lx-before-explain").textContent = "words" in read ? read.words : read.problem;
    element("lx-before-json").textContent = before === "" ? '"" (none)' : before;
    element("lx-after-explain").textContent =
      result.filter === null && result.ok ? NO_FILTER : filterWords(result);
    element("lx-after-json").textContent =
      update instanceof ValidationError
        ? "the filter has errors"
        : update.after === ""
          ? '"" (none)'
          : update.after;
    element("lx-request").textContent = requestLine(editing);
    element("lx-body").textContent =
      update instanceof ValidationError
        ? "Save filter sends nothing until the filter's errors are fixed."
        : update.after === before
          ? "Nothing to send: the dataset already has this filter."
          : JSON.stringify(update.body, null, 2);
  }

  function closeEditor(): void {
    editing = undefined;
    panel.hidden = true;
    say("lx-edit-problem", "");
  }

  function edit(dataset: ExplorerDataset, scope: JobScope): string | undefined {
    const read = readFilter(explorerFilterOf(dataset), dataset.dataset);
    if ("problem" in read) return `${read.problem}; it cannot be edited here`;
    editing = { dataset, scope };
    panel.hidden = false;
    say("lx-edit-heading", `The ingestion filter of ${dataset.dataset} (${dataset.dataset_id})`);
    say("lx-edit-problem", "");
    filter.setDataset(dataset.dataset);
    filter.setText(read.source);
    updateReview();
    element("lx-edit-heading").focus();
    return undefined;
  }

  async function save(): Promise<void> {
    if (!editing) return;
    const { dataset, scope } = editing;
    const unfinished = filter.unfinished();
    const update = built(dataset);
    if (unfinished.length > 0 || update instanceof ValidationError)
      return say(
        "lx-edit-problem",
        `set Log Explorer filter: nothing was sent. ${sentences([
          ...(update instanceof ValidationError ? update.problems.map((p) => p.message) : []),
          ...(unfinished.length > 0
            ? [
                `${unfinished.length === 1 ? "comparison" : "comparisons"} ${unfinished.join(", ")} of the builder ${unfinished.length === 1 ? "is" : "are"} not finished (no field or no value): finish or remove ${unfinished.length === 1 ? "it" : "them"}`,
              ]
            : []),
        ])}`,
      );
    if (update.after === explorerFilterOf(dataset)) {
      say("lx-status", `Nothing to change: ${dataset.dataset} already has this filter.`);
      closeEditor();
      return;
    }
    const answer = await call<ExplorerFilterResult>(
      "PUT",
      `/api/explorer/datasets/${encodeURIComponent(dataset.dataset_id)}`,
      { scope, filter: given() },
    );
    if (!answer.ok) return say("lx-edit-problem", failureText(answer.error));
    say(
      "lx-status",
      sentences([
        `${answer.after === "" ? "Cleared" : "Saved"} the ingestion filter of ${dataset.dataset} (${dataset.dataset_id})`,
        ...answer.notices,
      ]),
    );
    closeEditor();
    await load();
  }

  function card(dataset: ExplorerDataset, scope: JobScope): HTMLElement {
    const item = document.createElement("li");
    item.className = "job";
    const title = document.createElement("h3");
    title.id = `lx-dataset-${dataset.dataset_id}`;
    title.textContent = dataset.dataset;
    const json = explorerFilterOf(dataset);
    const read = readFilter(json, dataset.dataset);
    const facts = document.createElement("dl");
    facts.append(
      ...fact("Dataset ID", code(dataset.dataset_id)),
      ...fact("Ingest", dataset.enabled === true ? "enabled" : "disabled"),
      ...fact("Filter", code("words" in read ? read.words : read.problem, true)),
      ...fact("As JSON", code(json === "" ? "none" : json)),
    );
    const problem = document.createElement("p");
    problem.className = "problem";
    problem.setAttribute("role", "alert");
    problem.hidden = true;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Edit filter";
    button.setAttribute("aria-label", `Edit filter of ${dataset.dataset}`);
    button.addEventListener("click", () => {
      const why = edit(dataset, scope) ?? "";
      problem.textContent = why;
      problem.hidden = why === "";
    });
    const actions = document.createElement("div");
    actions.className = "actions";
    actions.append(button);
    item.setAttribute("aria-labelledby", title.id);
    item.append(title, facts, actions, problem);
    return item;
  }

  async function load(): Promise<void> {
    const scope = currentScope();
    if (!scope) {
      list.replaceChildren();
      say("lx-count", "");
      return;
    }
    const answer = await call<{ datasets: ExplorerDataset[]; more: number }>(
      "GET",
      `/api/explorer/datasets?${scopeQuery(scope)}`,
    );
    if (!answer.ok) {
      say("lx-problem", failureText(answer.error));
      return;
    }
    const count = answer.datasets.length + answer.more;
    say(
      "lx-count",
      `${count} dataset${count === 1 ? "" : "s"}${answer.more > 0 ? ` (the first ${answer.datasets.length} shown)` : ""}`,
    );
    if (answer.datasets.length === 0) {
      const none = document.createElement("li");
      none.className = "none";
      none.textContent = `No Log Explorer datasets in this ${"zoneId" in scope ? "zone" : "account"}.`;
      list.replaceChildren(none);
      return;
    }
    list.replaceChildren(...answer.datasets.map((dataset) => card(dataset, scope)));
  }

  const saveButton = element("lx-save");
  saveButton.addEventListener("click", oneAtATime(saveButton, save));
  element("lx-clear").addEventListener("click", () => {
    filter.setText("");
    say("lx-edit-problem", "");
    filter.view.focus();
  });
  element("lx-cancel").addEventListener("click", () => {
    closeEditor();
    filter.setText("");
  });
  scopeSelect.addEventListener("change", async () => {
    closeEditor();
    await load();
  });

  return { load };
}
