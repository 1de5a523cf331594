import { element } from "../playground/dom.js";
import { maskDestination } from "../src/api/index.js";
import type { JobSettings } from "../src/api/jobs.js";
import type { CompileResult } from "../src/compile.js";
import { explain } from "../src/print/index.js";

/** What Create job would send, as the page knows it before sending. */
export interface Review {
  /** `POST /zones/ID/logpush/jobs` or the account's. */
  request: string;
  settings: JobSettings;
  /** The filter's one compile, for its words and its JSON. */
  filter: CompileResult;
  /** The body, built by the client's own checks; undefined while they refuse the settings. */
  body: Record<string, unknown> | undefined;
}

/** The ownership challenge's token, said given but not shown: it proves the destination is the zone's. */
const MASKED_TOKEN = "****";

/** The body as it is shown: the destination's keys and the challenge's token masked. */
function shownBody(body: Record<string, unknown>): string {
  const shown = { ...body };
  if (typeof shown["destination_conf"] === "string")
    shown["destination_conf"] = maskDestination(shown["destination_conf"]);
  if (shown["ownership_challenge"] !== undefined) shown["ownership_challenge"] = MASKED_TOKEN;
  return JSON.stringify(shown, null, 2);
}

function fact(term: string, ...values: Node[]): HTMLElement[] {
  const dt = document.createElement("dt");
  dt.textContent = term;
  const dd = document.createElement("dd");
  dd.append(...values);
  return [dt, dd];
}

const text = (value: string) => document.createTextNode(value);

function code(value: string): HTMLElement {
  const node = document.createElement("code");
  node.textContent = value;
  return node;
}

/**
 * Shows, beside Create job, what it will send: the dataset, the fields in their order, the filter in
 * words (as `filterc explain` says it) and as JSON, the destination with its keys masked, the
 * options, and the request itself with its body once the client's checks take it.
 */
export function renderReview(review: Review): void {
  const { settings, filter, body } = review;
  const fields = document.createElement("ol");
  fields.className = "review-fields";
  for (const name of settings.fields ?? []) {
    const item = document.createElement("li");
    item.append(code(name));
    fields.append(item);
  }
  const destination = settings.destination ?? "";
  const rate = settings.outputOptions?.["sample_rate"];
  element("review-facts").replaceChildren(
    ...fact("Dataset", code(settings.dataset ?? "")),
    ...fact(`Fields, in order (${settings.fields?.length ?? 0})`, fields),
    ...fact("Destination", destination === "" ? text("none yet") : code(maskDestination(destination))),
    ...fact(
      "Ownership challenge",
      text(settings.ownershipChallenge === undefined ? "none" : "given (the token is not shown)"),
    ),
    ...fact("Timestamps", code(settings.timestamps ?? "")),
    ...fact("Sample rate", text(rate === undefined ? "1 (every record)" : String(rate))),
    ...fact("Job name", text(settings.name ?? "none")),
  );
  element("review-explain").textContent =
    filter.ok || filter.filter === null ? explain(filter.normal, filter.stats) : "the filter has errors";
  element("review-filter").textContent = filter.filter ?? "no filter: every log line is pushed";
  element("review-request").textContent = review.request;
  element("review-body").textContent =
    body === undefined ? "Create job sends nothing until the settings above are fixed." : shownBody(body);
}
