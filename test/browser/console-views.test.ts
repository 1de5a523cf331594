/**
 * The console's Instant Logs and Log Explorer views in Debian's Chromium, against a real sandbox:
 * the records ingested reach the live table exactly as the filter keeps them (held to `filterc
 * eval` on the same records), Pause holds the table while they are counted and kept, Resume shows
 * them, the rows kept are bounded, Stop ends the session; a Log Explorer dataset's filter is edited
 * with the builder and reaches the dataset byte for byte, what Save filter sends shown first;
 * nothing is sent with errors; no page of another origin reads a tail; axe-core finds no serious
 * violation; and the screenshots docs/console.md shows.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { WebSocket as NodeWebSocket } from "ws";
import { type ExplorerDataset, explorerFilterUpdate } from "../../src/api/explorer.js";
import { instantLogsBody, recordCell } from "../../src/api/instant-logs.js";
import { compile } from "../../src/compile.js";
import { parseRecord } from "../../src/eval/index.js";
import { explain } from "../../src/print/index.js";
import { ensureConsole } from "../helpers/bundles.js";
import { launchChromium } from "../helpers/chromium.js";
import { runCli } from "../helpers/cli.js";
import { type RunningConsole, startConsoleCli } from "../helpers/console.js";
import { compareScreenshot, expectText, violations } from "../helpers/console-page.js";
import { call, type Running, runSandbox, sdk, TOKEN, ZONE } from "../sandbox/helpers.js";

// Built while the file is collected, outside any test's time limit.
ensureConsole();

const ACCOUNT = "01a7362d577a6c3019a474fd6f485823";
const FIELDS = ["ClientRequestURI", "EdgeResponseStatus", "EdgeStartTimestamp", "RayID"];

let sandbox: Running;
let running: RunningConsole;
let browser: Browser;
let page: Page;
let errors: string[];
/** Every call the page made to the console's API. */
const calls: { method: string; url: string }[] = [];
/** Every answer and WebSocket message the page got, to look for what it must never hold in. */
const received: Promise<string>[] = [];

beforeAll(async () => {
  sandbox = await runSandbox();
  running = await startConsoleCli(
    ["--base-url", sandbox.api, "--zone", ZONE, "--account", ACCOUNT, "--max-retries", "0"],
    { CLOUDFLARE_API_TOKEN: TOKEN },
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await running?.stop();
  await sandbox?.stop();
});

async function openView(view: "Instant Logs" | "Log Explorer", width = 1400): Promise<Page> {
  const opened = await browser.newPage({ viewport: { width, height: 900 } });
  opened.setDefaultTimeout(10_000);
  opened.on("pageerror", (error) => errors.push(error.message));
  opened.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  opened.on("request", (request) => {
    if (request.url().startsWith(`${running.origin}/api/`))
      calls.push({ method: request.method(), url: request.url() });
  });
  opened.on("response", (response) => {
    received.push(response.text().catch(() => ""));
  });
  opened.on("websocket", (socket) =>
    socket.on("framereceived", (frame) => received.push(Promise.resolve(String(frame.payload)))),
  );
  await opened.goto(running.url);
  await opened.waitForFunction(() => document.querySelector<HTMLInputElement>("#zone-id")?.value !== "");
  await opened.getByRole("link", { name: view }).click();
  const editor = view === "Instant Logs" ? "#il-editor" : "#lx-editor";
  await opened.waitForSelector(`${editor} .cm-content`, { state: "attached" });
  return opened;
}

beforeEach(() => {
  errors = [];
});

afterEach(async () => {
  await page?.close();
  expect(errors).toEqual([]);
});

/** Replaces the text of the view's editor as a paste would. */
async function typeFilter(editor: string, text: string): Promise<void> {
  await page.click(`${editor} .cm-content`);
  await page.keyboard.press("Control+A");
  if (text === "") await page.keyboard.press("Delete");
  else await page.keyboard.insertText(text);
}

const editorText = (editor: string) =>
  page.$$eval(`${editor} .cm-line`, (lines) => lines.map((line) => line.textContent).join("\n"));

async function ingest(lines: string[]): Promise<void> {
  const response = await fetch(`${sandbox.api}/zones/${ZONE}/sandbox/ingest`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}` },
    body: `${lines.join("\n")}\n`,
  });
  expect(response.status).toBe(200);
}

const sessions = async () =>
  ((await call(sandbox, "GET", `/zones/${ZONE}/logpush/edge/jobs`)).json as { result: unknown[] }).result;

/** Records of every kind the filter tells apart: statuses as numbers and as text, paths, missing fields, exact 64-bit times. */
function records(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    const record: Record<string, unknown> = { RayID: `ray${i}`, ClientIP: `192.0.2.${i % 250}` };
    if (i % 7 !== 3)
      record["EdgeResponseStatus"] = i % 5 === 0 ? String(500 + (i % 4)) : [200, 404, 500, 503][i % 4];
    if (i % 3 !== 1) record["ClientRequestURI"] = i % 2 === 0 ? `/api/${i}` : "/health/live";
    const line = JSON.stringify(record);
    return i % 4 === 2 ? `${line.slice(0, -1)},"EdgeStartTimestamp":1700000000123456789}` : line;
  });
}

/** The lines `filterc eval` keeps of `lines` with the filter `source`. */
async function kept(source: string, lines: string[]): Promise<string[]> {
  const evaluated = await runCli(["eval", "--expr", source], `${lines.join("\n")}\n`);
  return evaluated.stdout.split("\n").slice(0, -1);
}

/** The live table's rows as the page shows them, the oldest first: each its number and cells. */
const tableRows = async () =>
  (
    await page.$$eval("#il-table tbody tr", (rows) =>
      rows.map((row) => Array.from(row.children, (cell) => cell.textContent ?? "")),
    )
  ).reverse();

/** The rows a table of FIELDS shows for these lines, numbered from `first`. */
const rowsOf = (lines: string[], first = 1) =>
  lines.map((line, i) => [
    String(first + i),
    ...FIELDS.map((field) => recordCell(parseRecord(line)![field])),
  ]);

async function waitForRows(count: number): Promise<void> {
  await page
    .waitForFunction((n) => document.querySelectorAll("#il-table tbody tr").length === n, count, {
      timeout: 10_000,
    })
    .catch(() => undefined);
  expect(await page.locator("#il-table tbody tr").count()).toBe(count);
}

const view = () => page.locator("#instant-logs-view");
const row = (n: number, within = view()) =>
  within.getByRole("group", { name: `Comparison ${n}`, exact: true });

/** Picks FIELDS alone among the default fields (the defaults, which are in the catalog's order, less five). */
async function pickFields(): Promise<void> {
  for (const name of [
    "ClientIP",
    "ClientRequestHost",
    "ClientRequestMethod",
    "EdgeEndTimestamp",
    "EdgeResponseBytes",
  ])
    await view().getByRole("checkbox", { name, exact: true }).uncheck();
  await expectText(page, "#il-fields-count", "4 of 123 selected");
}

/** EdgeResponseStatus ≥ 500 AND ClientRequestURI does not start with "/health", by the builder's controls. */
async function buildFilter(): Promise<void> {
  const outer = page.locator("#il-builder > .group > .group-actions");
  await outer.getByRole("button", { name: "AND", exact: true }).click();
  await row(1).getByLabel("Field").selectOption("EdgeResponseStatus");
  await row(1).getByLabel("Operator").selectOption({ label: "greater than or equal" });
  await row(1).getByLabel("Value").fill("500");
  await outer.getByRole("button", { name: "AND", exact: true }).click();
  await row(2).getByLabel("Field").selectOption("ClientRequestURI");
  await row(2).getByLabel("Operator").selectOption({ label: "does not start with" });
  await row(2).getByLabel("Value").fill("/health");
}

const BUILT = 'EdgeResponseStatus geq 500 and ClientRequestURI !startsWith "/health"';

describe("the console's Instant Logs in Chromium", () => {
  it("shows exactly the records the filter keeps, pauses and resumes, keeps the rows it is asked to, and stops", async () => {
    page = await openView("Instant Logs");
    await pickFields();
    await buildFilter();
    await page.waitForFunction((text) => {
      const lines = Array.from(document.querySelectorAll("#il-editor .cm-line"), (line) => line.textContent);
      return lines.join("\n") === text;
    }, BUILT);
    expect(await editorText("#il-editor")).toBe(BUILT);
    // What Start sends, before it is sent: the client's own body.
    await expectText(page, "#il-request", `POST /zones/${ZONE}/logpush/edge/jobs`);
    expect(await page.textContent("#il-body")).toBe(
      JSON.stringify(
        instantLogsBody(
          { fields: FIELDS, sample: 1, filter: { source: BUILT } },
          "create Instant Logs session",
        ).body,
        null,
        2,
      ),
    );
    await expectText(page, "#il-filter-status", "valid");

    await view().getByRole("button", { name: "Start" }).click();
    await expectText(
      page,
      "#il-status",
      "Connected: the records the filter keeps appear below as they come, the newest first.",
    );
    expect(await page.$$eval("#il-table thead th", (cells) => cells.map((c) => c.textContent))).toEqual([
      "#",
      ...FIELDS,
    ]);
    const first = records(80);
    const keptFirst = await kept(BUILT, first);
    expect(keptFirst.length).toBeGreaterThan(10);
    expect(keptFirst.length).toBeLessThan(first.length);
    await ingest(first);
    await waitForRows(keptFirst.length);
    expect(await tableRows()).toEqual(rowsOf(keptFirst));
    // A time past 2^53 shown digit for digit.
    expect((await tableRows()).some((cells) => cells[3] === "1700000000123456789")).toBe(true);

    // Paused: the table stands still, the records are counted and kept.
    await view().getByRole("button", { name: "Pause" }).click();
    await expectText(
      page,
      "#il-counts",
      `${keptFirst.length} records received · paused: 0 since, counted and kept, shown on Resume`,
    );
    const second = records(60, 80);
    const keptSecond = await kept(BUILT, second);
    await ingest(second);
    await expectText(
      page,
      "#il-counts",
      `${keptFirst.length + keptSecond.length} records received · paused: ${keptSecond.length} since, counted and kept, shown on Resume`,
    );
    expect(await tableRows()).toEqual(rowsOf(keptFirst));
    await view().getByRole("button", { name: "Resume" }).click();
    await waitForRows(keptFirst.length + keptSecond.length);
    expect(await tableRows()).toEqual(rowsOf([...keptFirst, ...keptSecond]));
    await expectText(page, "#il-counts", `${keptFirst.length + keptSecond.length} records received`);

    // The rows kept: the last N, the older ones counted.
    const total = keptFirst.length + keptSecond.length;
    await view().getByLabel("Rows kept").fill("5");
    await view().getByLabel("Rows kept").press("Tab");
    await waitForRows(5);
    expect(await tableRows()).toEqual(rowsOf([...keptFirst, ...keptSecond].slice(-5), total - 4));
    await expectText(
      page,
      "#il-counts",
      `${total} records received · ${total - 5} older no longer kept (the table keeps 5)`,
    );
    const third = records(40, 140);
    const keptThird = await kept(BUILT, third);
    await ingest(third);
    await expectText(
      page,
      "#il-counts",
      `${total + keptThird.length} records received · ${total + keptThird.length - 5} older no longer kept (the table keeps 5)`,
    );
    expect(await tableRows()).toEqual(rowsOf(keptThird.slice(-5), total + keptThird.length - 4));

    await view().getByRole("button", { name: "Stop" }).click();
    await expectText(page, "#il-status", `Stopped: ${total + keptThird.length} records.`);
    await expect.poll(sessions).toEqual([]);
    expect(await view().getByRole("button", { name: "Start" }).isVisible()).toBe(true);
    expect(await view().getByRole("button", { name: "Pause" }).isVisible()).toBe(false);
  });

  it("sends nothing while the settings have errors, and says each at its place", async () => {
    page = await openView("Instant Logs");
    const before = calls.length;
    // The Instant Logs docs' own broken filter, a sample of 0, and no field.
    await typeFilter("#il-editor", 'ClientCountry neq "ca"');
    await expectText(page, "#il-filter-status", "1 error");
    await view().getByLabel("Sample: one record in").fill("0");
    for (const name of [
      "ClientIP",
      "ClientRequestHost",
      "ClientRequestMethod",
      "ClientRequestURI",
      "EdgeEndTimestamp",
      "EdgeResponseBytes",
      "EdgeResponseStatus",
      "EdgeStartTimestamp",
      "RayID",
    ])
      await view().getByRole("checkbox", { name, exact: true }).uncheck();
    await expectText(page, "#il-body", "Start sends nothing until the settings above are fixed.");
    await view().getByRole("button", { name: "Start" }).click();
    await expectText(
      page,
      "#il-fields-problem",
      "No fields given; a job selects at least one field of its dataset (e.g. ClientIP,EdgeStartTimestamp).",
    );
    await expectText(
      page,
      "#il-sample-problem",
      "An Instant Logs sample is a whole number from 1 (every record) to 1000000 (one record in 1000000), not 0.",
    );
    expect(await page.textContent("#il-problem")).toMatch(
      /^create Instant Logs session: nothing was sent\. The filter has 1 error/,
    );
    expect(await page.getByRole("alert").filter({ hasText: "nothing was sent" }).count()).toBe(1);
    expect(calls.slice(before).filter((c) => c.url.endsWith("/api/instant-logs"))).toEqual([]);
    expect(await sessions()).toEqual([]);
  });

  it("lets no page of another origin read a tail, even one that knows the token and the tail", async () => {
    const started = await fetch(`${running.origin}/api/instant-logs`, {
      method: "POST",
      headers: { "x-filterc-console-token": running.token, "content-type": "application/json" },
      body: JSON.stringify({ scope: { zoneId: ZONE }, settings: { fields: ["RayID"] } }),
    });
    const { tail } = (await started.json()) as { tail: string };
    const other = await runSandbox();
    try {
      page = await browser.newPage();
      await page.goto(`${other.sandbox.url}/client/v4`);
      const outcome = await page.evaluate(
        ([address, token]) =>
          new Promise<string>((resolve) => {
            const socket = new WebSocket(address!, [
              "filterc-console-tail",
              `filterc-console-token.${token}`,
            ]);
            socket.onopen = () => resolve("opened");
            socket.onclose = (event) => resolve(`closed ${event.code}`);
          }),
        [`${running.origin.replace("http", "ws")}/api/instant-logs/${tail}`, running.token],
      );
      expect(outcome).toBe("closed 1006");
    } finally {
      await other.stop();
      // The refused connection is this other page's console error, not the console's.
      errors = [];
    }
    // The refusal left the tail to its own page, which can still claim it, and end it.
    const { port } = new URL(running.origin);
    const own = new NodeWebSocket(
      `ws://127.0.0.1:${port}/api/instant-logs/${tail}`,
      ["filterc-console-tail", `filterc-console-token.${running.token}`],
      { headers: { origin: running.origin } },
    );
    await new Promise((resolve, reject) => {
      own.once("open", resolve);
      own.once("error", reject);
    });
    own.close(1000);
    await expect.poll(sessions).toEqual([]);
  });
});

describe("the console's Log Explorer in Chromium", () => {
  let id: string;
  let firewall: string;
  const firstFilter = compile('ClientCountry eq "us"').filter!;

  beforeAll(async () => {
    const client = sdk(sandbox);
    ({ dataset_id: id } = await client.logs.logExplorer.datasets.create({
      zone_id: ZONE,
      dataset: "http_requests",
      fields: [
        { name: "rayid", enabled: true },
        { name: "clientcountry", enabled: true },
        { name: "clientip", enabled: false },
      ],
      filter: firstFilter,
    }));
    ({ dataset_id: firewall } = await client.logs.logExplorer.datasets.create({
      zone_id: ZONE,
      dataset: "firewall_events",
    }));
    await client.logs.logExplorer.datasets.create({ account_id: ACCOUNT, dataset: "audit_logs" });
  });

  const live = () => sdk(sandbox).logs.logExplorer.datasets.get(id, { zone_id: ZONE });
  const card = (dataset: string) =>
    page
      .locator("#lx-datasets > li")
      .filter({ has: page.getByRole("heading", { name: dataset, exact: true }) });
  const facts = (dataset: string) =>
    card(dataset).evaluate((item) =>
      Array.from(item.querySelectorAll("dt"), (dt) => [dt.textContent, dt.nextElementSibling!.textContent]),
    );
  const words = (source: string, dataset = "http_requests") => {
    const compiled = compile(source, { dataset });
    return explain(compiled.normal, compiled.stats);
  };
  const puts = () => calls.filter((c) => c.method === "PUT" && c.url.includes("/api/explorer/")).length;

  it("lists the datasets with their filter in words, and edits one with the builder, byte for byte", async () => {
    page = await openView("Log Explorer");
    await expectText(page, "#lx-count", "2 datasets");
    expect(await facts("http_requests")).toEqual([
      ["Dataset ID", id],
      ["Ingest", "enabled"],
      ["Filter", words('ClientCountry eq "us"')],
      ["As JSON", firstFilter],
    ]);
    expect(await facts("firewall_events")).toEqual([
      ["Dataset ID", firewall],
      ["Ingest", "enabled"],
      ["Filter", "No filter: Log Explorer ingests every event."],
      ["As JSON", "none"],
    ]);

    await page.getByRole("button", { name: "Edit filter of http_requests" }).click();
    await expectText(page, "#lx-edit-heading", `The ingestion filter of http_requests (${id})`);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("lx-edit-heading");
    const edit = page.locator("#lx-edit");
    expect(await row(1, edit).getByLabel("Field").inputValue()).toBe("ClientCountry");
    await edit
      .locator("#lx-builder > .group > .group-actions")
      .getByRole("button", { name: "AND", exact: true })
      .click();
    await row(2, edit).getByLabel("Field").selectOption("EdgeResponseStatus");
    await row(2, edit).getByLabel("Operator").selectOption({ label: "greater than or equal" });
    await row(2, edit).getByLabel("Value").fill("500");
    const source = 'ClientCountry eq "us" and EdgeResponseStatus geq 500';
    await page.waitForFunction((text) => {
      const lines = Array.from(document.querySelectorAll("#lx-editor .cm-line"), (line) => line.textContent);
      return lines.join("\n") === text;
    }, source);
    const json = compile(source).filter!;

    // What Save filter sends, before it is sent.
    await expectText(page, "#lx-request", `PUT /zones/${ZONE}/logs/explorer/datasets/${id}`);
    expect(await page.textContent("#lx-before-json")).toBe(firstFilter);
    expect(await page.textContent("#lx-before-explain")).toBe(words('ClientCountry eq "us"'));
    expect(await page.textContent("#lx-after-json")).toBe(json);
    expect(await page.textContent("#lx-after-explain")).toBe(words(source));
    const dataset = await live();
    expect(await page.textContent("#lx-body")).toBe(
      JSON.stringify(
        explorerFilterUpdate(dataset as ExplorerDataset, { filter: { source } }, "set").body,
        null,
        2,
      ),
    );
    await page.getByRole("button", { name: "Save filter" }).click();
    await expectText(page, "#lx-status", `Saved the ingestion filter of http_requests (${id}).`);
    // Byte for byte, and nothing else of the dataset changed.
    const saved = await live();
    expect(saved.filter).toBe(json);
    expect(saved.fields).toEqual(dataset.fields);
    expect(saved.enabled).toBe(true);
    await expect
      .poll(() => facts("http_requests"))
      .toEqual([
        ["Dataset ID", id],
        ["Ingest", "enabled"],
        ["Filter", words(source)],
        ["As JSON", json],
      ]);

    // Read back in a new page: the same text and bytes, and a save of it sends nothing.
    await page.close();
    page = await openView("Log Explorer");
    await page.getByRole("button", { name: "Edit filter of http_requests" }).click();
    await expectText(page, "#lx-json", json);
    expect(await editorText("#lx-editor")).toBe(source);
    await expectText(page, "#lx-body", "Nothing to send: the dataset already has this filter.");
    const before = puts();
    await page.getByRole("button", { name: "Save filter" }).click();
    await expectText(page, "#lx-status", "Nothing to change: http_requests already has this filter.");
    expect(puts()).toBe(before);
    expect((await live()).filter).toBe(json);
  });

  it("checks the filter against the dataset's own catalog, sends nothing with errors, and clears it", async () => {
    page = await openView("Log Explorer");
    await page.getByRole("button", { name: "Edit filter of firewall_events" }).click();
    // firewall_events has no BotScore (http_requests has).
    await typeFilter("#lx-editor", "BotScore lt 30");
    await expectText(page, "#lx-filter-status", "1 error");
    await expectText(page, "#lx-body", "Save filter sends nothing until the filter's errors are fixed.");
    const before = puts();
    await page.getByRole("button", { name: "Save filter" }).click();
    expect(await page.textContent("#lx-edit-problem")).toMatch(
      /^set Log Explorer filter: nothing was sent\. The filter has 1 error/,
    );
    expect(puts()).toBe(before);
    await page.getByRole("button", { name: "Cancel" }).click();

    await page.getByRole("button", { name: "Edit filter of http_requests" }).click();
    await page.getByRole("button", { name: "Clear filter" }).click();
    await expectText(page, "#lx-after-json", '"" (none)');
    await expectText(page, "#lx-after-explain", "No filter: Log Explorer ingests every event.");
    expect(JSON.parse((await page.textContent("#lx-body"))!).filter).toBe("");
    await page.getByRole("button", { name: "Save filter" }).click();
    await expectText(page, "#lx-status", `Cleared the ingestion filter of http_requests (${id}).`);
    expect((await live()).filter).toBeUndefined();
    // The list is drawn again from a fresh read after the status is said.
    await expect
      .poll(async () => (await facts("http_requests"))[2])
      .toEqual(["Filter", "No filter: Log Explorer ingests every event."]);

    await page.locator("#explorer-view").getByLabel("Scope").selectOption("account");
    await expectText(page, "#lx-count", "1 dataset");
    expect(await page.$$eval("#lx-datasets h3", (titles) => titles.map((t) => t.textContent))).toEqual([
      "audit_logs",
    ]);
  });
});

describe("the console's Instant Logs and Log Explorer, for everyone", () => {
  /** Starts a tail of FIELDS with the built filter and shows `count` records in it. */
  async function showTail(): Promise<number> {
    await pickFields();
    await buildFilter();
    await view().getByRole("button", { name: "Start" }).click();
    await expectText(
      page,
      "#il-status",
      "Connected: the records the filter keeps appear below as they come, the newest first.",
    );
    const lines = records(40);
    const shown = (await kept(BUILT, lines)).length;
    await ingest(lines);
    await waitForRows(shown);
    return shown;
  }

  it("has no serious or critical accessibility violation on either view (axe-core)", async () => {
    page = await openView("Instant Logs");
    expect(await violations(page)).toEqual([]);
    await showTail();
    expect(await violations(page)).toEqual([]);
    await view().getByRole("button", { name: "Pause" }).click();
    await page.locator("#il-settings summary").click();
    expect(await violations(page)).toEqual([]);
    await view().getByRole("button", { name: "Stop" }).click();
    await page.waitForFunction(() =>
      document.querySelector("#il-status")?.textContent?.startsWith("Stopped: "),
    );
    await page.getByRole("link", { name: "Log Explorer" }).click();
    await page.waitForSelector("#lx-datasets > li");
    expect(await violations(page)).toEqual([]);
    await page.getByRole("button", { name: "Edit filter of http_requests" }).click();
    await typeFilter("#lx-editor", "EdgeResponseStatus geq abc");
    await expectText(page, "#lx-filter-status", "1 error");
    await page.locator("#lx-edit summary").click();
    expect(await violations(page)).toEqual([]);
  });

  it("fits 420 px wide, the table scrolling in its own box, and looks as the docs show it", async () => {
    for (const [width, suffix] of [
      [1400, ""],
      [420, "-420"],
    ] as const) {
      page = await openView("Instant Logs", width);
      await showTail();
      await view().getByRole("button", { name: "Pause" }).click();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.mouse.move(0, 0);
      await page.evaluate(() => {
        (document.activeElement as HTMLElement | null)?.blur();
        document.querySelector("#il-filter-heading")!.scrollIntoView();
      });
      await compareScreenshot(page, `console-instant-logs${suffix}.png`);
      await page.evaluate(() => document.querySelector(".live")!.scrollIntoView());
      await compareScreenshot(page, `console-live-table${suffix}.png`);
      await view().getByRole("button", { name: "Stop" }).click();
      await page.close();

      page = await openView("Log Explorer", width);
      await page.getByRole("button", { name: "Edit filter of http_requests" }).click();
      await typeFilter("#lx-editor", 'ClientCountry in ["us", "ca"] and EdgeResponseStatus geq 500');
      await expectText(page, "#lx-filter-status", "valid");
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await page.mouse.move(0, 0);
      await page.evaluate(() => {
        (document.activeElement as HTMLElement | null)?.blur();
        window.scrollTo(0, 0);
      });
      await compareScreenshot(page, `console-explorer${suffix}.png`);
      await page.evaluate(() => document.querySelector("#lx-edit .review")!.scrollIntoView());
      await compareScreenshot(page, `console-explorer-review${suffix}.png`);
      await page.close();
    }
  });

  it("never gives the page the API's credential nor a session's address", async () => {
    const all = await Promise.all(received);
    expect(all.length).toBeGreaterThan(50);
    for (const text of all) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toMatch(/instant-logs\/ws\/sessions\/[0-9a-f]{32}/);
    }
    expect(all.some((text) => text.includes('"kind":"records"'))).toBe(true);
  });
});
