import { element } from "../playground/dom.js";
import type { ApiDescription } from "../src/console/calls.js";
import type { DiagnosticSettings } from "../src/diagnostics/index.js";
import { call } from "./api.js";
import { type ConnectView, setUpConnect } from "./connect.js";
import { setUpCustomFields } from "./custom-fields.js";
import { setUpExplorer } from "./explorer.js";
import { setUpInstantLogs } from "./instant-logs.js";
import { setUpJobs } from "./jobs.js";
import { failureText, say } from "./messages.js";

const zoneInput = element<HTMLInputElement>("zone-id");
const accountInput = element<HTMLInputElement>("account-id");
const ids = () => ({ zoneId: zoneInput.value.trim(), accountId: accountInput.value.trim() });

const customFields = setUpCustomFields(() => ids().zoneId);
let connect: ConnectView;
const jobs = setUpJobs(() => connect);
connect = setUpConnect(ids, () => jobs.load());

const views = {
  "custom-fields": "custom-fields-view",
  connect: "connect-view",
  "instant-logs": "instant-logs-view",
  explorer: "explorer-view",
} as const;
type View = keyof typeof views;

/** The levels of the filters' warnings the console's session gives. */
let diagnostics: DiagnosticSettings | undefined;

/**
 * The views drawn from a template, set up when first shown: until then they add nothing to the
 * page (no controls, no editor), and the views drawn first are as they were without them.
 */
const mounted: Partial<Record<View, { load(): Promise<void> }>> = {};
function mount(view: "instant-logs" | "explorer"): { load(): Promise<void> } {
  const section = element(views[view]);
  section.append(element<HTMLTemplateElement>(`${view}-template`).content.cloneNode(true));
  section.querySelectorAll<HTMLElement>("p[role]").forEach((place) => {
    place.hidden = place.textContent === "";
  });
  return view === "instant-logs"
    ? setUpInstantLogs(() => ids().zoneId, diagnostics)
    : setUpExplorer(ids, diagnostics);
}

/** Shows the view the address names (`#custom-fields`, `#connect`, …) and loads what it lists. */
async function route(): Promise<void> {
  const name = (Object.keys(views) as View[]).find((view) => location.hash === `#${view}`) ?? "custom-fields";
  for (const [view, id] of Object.entries(views)) {
    element(id).hidden = view !== name;
    const link = element(`nav-${view}`);
    if (view === name) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  if (name === "connect") await Promise.all([connect.load(), jobs.load()]);
  else if (name === "custom-fields") await customFields.load();
  else {
    mounted[name] ??= mount(name);
    await mounted[name].load();
  }
}

async function start(): Promise<void> {
  const session = await call<{
    api: ApiDescription;
    zoneId: string | null;
    accountId: string | null;
    diagnostics?: DiagnosticSettings;
  }>("GET", "/api/session");
  if (!session.ok) {
    say("session-problem", failureText(session.error));
    return;
  }
  diagnostics = session.diagnostics;
  if (session.diagnostics) connect.setDiagnostics(session.diagnostics);
  zoneInput.value = session.zoneId ?? "";
  accountInput.value = session.accountId ?? "";
  say(
    "api-note",
    session.api.kind === "embedded sandbox"
      ? `API: the embedded sandbox (${session.api.dataDir})`
      : `API: ${session.api.url}`,
  );
  for (const input of [zoneInput, accountInput]) input.addEventListener("change", route);
  window.addEventListener("hashchange", route);
  await route();
}

say("session-problem", "");
void start();
