import { element } from "../playground/dom.js";
import type { JobScope } from "../src/api/index.js";
import { DEFAULT_DATASET, getCatalog } from "../src/catalog/index.js";
import { decompile } from "../src/decompile/index.js";
import { terminalText } from "../src/diagnostics/terminal-text.js";
import type { JobResult, LogpushJob } from "../src/index.js";
import { call, scopeQuery } from "./api.js";
import { oneAtATime } from "./busy.js";
import type { ConnectView } from "./connect.js";
import { failureText, say } from "./messages.js";

/** A job's filter as source, for the list: decompiled when filterc knows the dataset, else its JSON. */
function filterText(job: LogpushJob): string {
  if (!job.filter) return "(no filter)";
  const dataset = job.dataset ?? DEFAULT_DATASET;
  const read = getCatalog(dataset) ? decompile(job.filter, { dataset }) : undefined;
  return read?.ok ? (read.source ?? "") : job.filter;
}

function described(term: string, value: string, code = false): HTMLElement[] {
  const dt = document.createElement("dt");
  dt.textContent = term;
  const dd = document.createElement("dd");
  if (code) {
    const text = document.createElement("code");
    text.textContent = value;
    dd.append(text);
  } else dd.textContent = value;
  return [dt, dd];
}

/**
 * The jobs of the view's scope: each with Enable or Disable, Edit filter (in the Connect a service
 * view's Filter section) and Delete, which asks first.
 */
export function setUpJobs(connect: () => ConnectView) {
  const list = element("jobs-list");
  const dialog = element<HTMLDialogElement>("confirm-delete");
  let pendingDelete: (() => Promise<void>) | undefined;

  function card(job: LogpushJob, scope: JobScope): HTMLElement {
    const item = document.createElement("li");
    item.className = "job";
    const id = String(job.id);
    const title = document.createElement("h3");
    title.id = `job-${id}-title`;
    // What the service holds is shown as the CLI shows it: a bidi override or a control character as
    // its code point, so a name cannot reorder or hide what is around it.
    const name = job.name ? terminalText(job.name) : "";
    title.textContent = `Job ${id}${name ? ` · ${name}` : ""}`;
    const facts = document.createElement("dl");
    facts.append(
      ...described("Dataset", job.dataset ?? DEFAULT_DATASET),
      ...described("Destination", terminalText(job.destination_conf ?? ""), true),
      ...described("Status", job.enabled === false ? "disabled" : "enabled"),
      ...described("Filter", filterText(job), true),
    );
    const problem = document.createElement("p");
    problem.className = "problem";
    problem.setAttribute("role", "alert");
    problem.hidden = true;
    const fail = (text: string) => {
      problem.textContent = text;
      problem.hidden = text === "";
    };
    const button = (text: string, label: string, onClick: () => void | Promise<void>) => {
      const element = document.createElement("button");
      element.type = "button";
      element.textContent = text;
      element.setAttribute("aria-label", label);
      element.addEventListener(
        "click",
        oneAtATime(element, async () => {
          await onClick();
        }),
      );
      return element;
    };
    const enabled = job.enabled !== false;
    const actions = document.createElement("div");
    actions.className = "actions";
    actions.append(
      button(enabled ? "Disable" : "Enable", `${enabled ? "Disable" : "Enable"} job ${id}`, async () => {
        const answer = await call<JobResult>("PUT", `/api/jobs/${encodeURIComponent(id)}`, {
          scope,
          settings: { enabled: !enabled },
        });
        if (!answer.ok) return fail(failureText(answer.error));
        say("jobs-status", `Job ${id} is ${enabled ? "disabled" : "enabled"}.`);
        await load();
      }),
      button("Edit filter", `Edit the filter of job ${id}`, () =>
        fail(connect().editFilter(job, scope) ?? ""),
      ),
      button("Delete", `Delete job ${id}`, () => {
        say(
          "confirm-delete-text",
          `Job ${id}${name ? ` (${name})` : ""} stops pushing and is removed. This cannot be undone.`,
        );
        pendingDelete = async () => {
          const answer = await call<{ id: number | string }>(
            "DELETE",
            `/api/jobs/${encodeURIComponent(id)}?${scopeQuery(scope)}`,
          );
          if (!answer.ok) return fail(failureText(answer.error));
          say("jobs-status", `Deleted job ${id}.`);
          await load();
        };
        dialog.showModal();
      }),
    );
    item.setAttribute("aria-labelledby", title.id);
    item.append(title, facts, actions, problem);
    return item;
  }

  async function load(): Promise<void> {
    const scope = connect().currentScope();
    if (!scope) {
      list.replaceChildren();
      return;
    }
    const answer = await call<{ jobs: LogpushJob[] }>("GET", `/api/jobs?${scopeQuery(scope)}`);
    if (!answer.ok) {
      say("jobs-problem", failureText(answer.error));
      return;
    }
    say("jobs-problem", "");
    if (answer.jobs.length === 0) {
      const none = document.createElement("li");
      none.className = "none";
      none.textContent = "No jobs yet.";
      list.replaceChildren(none);
      return;
    }
    list.replaceChildren(...answer.jobs.map((job) => card(job, scope)));
  }

  element("confirm-delete-cancel").addEventListener("click", () => dialog.close());
  element("confirm-delete-yes").addEventListener("click", async () => {
    dialog.close();
    await pendingDelete?.();
    pendingDelete = undefined;
  });
  return { load };
}
