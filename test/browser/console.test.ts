import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type Group, readBuilder } from "../../console/filter/model.js";
import { createClient } from "../../src/api/index.js";
import { datasetNames, datasetScopes, getCatalog } from "../../src/catalog/index.js";
import { compile } from "../../src/compile.js";
import { print } from "../../src/print/index.js";
import { startSandbox } from "../../src/sandbox/index.js";
import { builderFilters } from "../helpers/builder-filters.js";
import { ensureConsole } from "../helpers/bundles.js";
import { launchChromium } from "../helpers/chromium.js";
import { type RunningConsole, startConsoleCli } from "../helpers/console.js";
import { call, OTHER_ZONE, type Running, runSandbox, TOKEN, ZONE } from "../sandbox/helpers.js";

// Built while the file is collected, outside any test's time limit.
ensureConsole();

const ACCOUNT = "9a7806061c88ada191ed06f989cc3dac";
/** The screenshots docs/console.md shows; FILTERC_REWRITE_SCREENSHOTS=1 writes them anew. */
const images = fileURLToPath(new URL("../../docs/images/", import.meta.url));
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

let sandbox: Running;
let running: RunningConsole;
let browser: Browser;
let page: Page;
let errors: string[];
/** Every answer the page got, headers and body, to look for the API's credential in. */
const answers: Promise<string>[] = [];
/** Every call the page made to the console's API, with whether it carried the session token. */
const calls: { method: string; url: string; token: boolean }[] = [];
const sandboxClient = () => createClient({ baseUrl: sandbox.api, apiToken: TOKEN, env: {} });

beforeAll(async () => {
  sandbox = await runSandbox();
  running = await startConsoleCli(
    [
      "--base-url",
      sandbox.api,
      "--data-dir",
      sandbox.dataDir,
      "--zone",
      ZONE,
      "--account",
      ACCOUNT,
      "--max-retries",
      "0",
    ],
    { CLOUDFLARE_API_TOKEN: TOKEN },
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await running?.stop();
  await sandbox?.stop();
});

async function openPage(width = 1280): Promise<Page> {
  const opened = await browser.newPage({ viewport: { width, height: 900 } });
  opened.setDefaultTimeout(10_000);
  opened.on("pageerror", (error) => errors.push(error.message));
  opened.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  opened.on("request", (request) => {
    if (request.url().startsWith(`${running.origin}/api/`))
      calls.push({
        method: request.method(),
        url: request.url(),
        token: request.headers()["x-filterc-console-token"] === running.token,
      });
  });
  opened.on("response", (response) => {
    answers.push(
      Promise.all([response.allHeaders(), response.text().catch(() => "")]).then(
        ([headers, body]) => `${response.url()} ${JSON.stringify(headers)} ${body}`,
      ),
    );
  });
  await opened.goto(running.url);
  await opened.waitForSelector(".cm-content", { state: "attached" });
  await opened.waitForFunction(() => document.querySelector<HTMLInputElement>("#zone-id")?.value !== "");
  return opened;
}

beforeEach(async () => {
  errors = [];
  page = await openPage();
});

afterEach(async () => {
  await page?.close();
  expect(errors).toEqual([]);
});

/** Waits (up to 5 s) for the element's text to become `expected`, then asserts it, so a failure shows both. */
async function expectText(selector: string, expected: string): Promise<void> {
  await page
    .waitForFunction(([s, text]) => document.querySelector(s!)?.textContent === text, [selector, expected], {
      timeout: 5000,
    })
    .catch(() => undefined);
  expect(await page.textContent(selector)).toBe(expected);
}

/** The editor's text, line by line as CodeMirror draws it. */
const editorText = () =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll(".cm-line"), (line) => line.textContent).join("\n"),
  );

async function expectEditorText(expected: string): Promise<void> {
  await page
    .waitForFunction(
      (text) =>
        Array.from(document.querySelectorAll(".cm-line"), (line) => line.textContent).join("\n") === text,
      expected,
      { timeout: 5000 },
    )
    .catch(() => undefined);
  expect(await editorText()).toBe(expected);
}

/** Replaces the editor's text as a paste would. */
async function typeFilter(text: string): Promise<void> {
  await page.click(".cm-content");
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(text);
}

/** The zone's custom-field rules as the sandbox holds them. */
async function customFieldRules(zone = ZONE): Promise<unknown> {
  const listed = await call(sandbox, "GET", `/zones/${zone}/rulesets`);
  const ruleset = (listed.json as { result: { id: string; phase: string }[] }).result.find(
    (r) => r.phase === "http_log_custom_fields",
  );
  if (!ruleset) return null;
  const got = await call(sandbox, "GET", `/zones/${zone}/rulesets/${ruleset.id}`);
  return (
    got.json as { result: { rules: { action: string; expression: string; action_parameters: unknown }[] } }
  ).result.rules.map(({ action, expression, action_parameters }) => ({
    action,
    expression,
    action_parameters,
  }));
}

async function sandboxJobs(): Promise<Record<string, unknown>[]> {
  return (
    (await call(sandbox, "GET", `/zones/${ZONE}/logpush/jobs`)).json as { result: Record<string, unknown>[] }
  ).result;
}

const row = (n: number) => page.getByRole("group", { name: `Comparison ${n}`, exact: true });

/** How many of http_requests's fields the search for `text` shows: those whose name holds it, in any case. */
const shownCount = (text: string) =>
  [...getCatalog("http_requests")!.fields.keys()].filter((name) =>
    name.toLowerCase().includes(text.toLowerCase()),
  ).length;

/** A group's shape as the model holds it: each row as `field operator`, each group as its join and items. */
type Shape = string | { join: string | null; items: Shape[] };
function modelShape(group: Group): Shape {
  return {
    join: group.items.length >= 2 ? group.join : null,
    items: group.items.map((item) =>
      item.kind === "row" ? `${item.field} ${item.operator}` : modelShape(item),
    ),
  };
}

/**
 * The builder's shape as the page draws it: each group's items, and the join its Joined with
 * controls show ("mixed" where they disagree, which a group never may).
 */
function drawnShape(): Shape {
  const shape = (box: Element): Shape => {
    const items = Array.from(box.children).filter((child) => child.classList.contains("item"));
    const joins = new Set(
      items.slice(1).map((item) => item.querySelector<HTMLSelectElement>(":scope > .join select")!.value),
    );
    return {
      join: joins.size === 0 ? null : joins.size === 1 ? [...joins][0]! : "mixed",
      items: items.map((item) => {
        const drawn = item.querySelector(":scope > .row, :scope > .group")!;
        if (drawn.classList.contains("group")) return shape(drawn);
        const value = (control: string) =>
          drawn.querySelector<HTMLSelectElement>(`[data-control="${control}"]`)!.value;
        return `${value("field")} ${value("operator")}`;
      }),
    };
  };
  return shape(document.querySelector("#builder > .group")!);
}

const builderShape = () => page.evaluate(drawnShape);

/** The serious and critical violations axe-core finds on the page as it is. */
async function violations(): Promise<string[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const results = await (
      window as unknown as {
        axe: {
          run: (
            context: Document,
          ) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe.run(document);
    return results.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  });
}

/**
 * The builder's selects whose chosen option does not fit: its text, measured in the select's own
 * font, against the select's width less its padding and its arrow.
 */
function cutSelects(): Promise<string[]> {
  return page.$$eval("#builder select, #data-fields select, #step-1 .choices select", (selects) => {
    const context = document.createElement("canvas").getContext("2d")!;
    return (selects as HTMLSelectElement[]).flatMap((select) => {
      if (select.offsetParent === null) return [];
      const style = getComputedStyle(select);
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = select.selectedOptions[0]?.textContent ?? "";
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
      return context.measureText(text).width > room
        ? [`${text} in ${Math.round(select.clientWidth)} px`]
        : [];
    });
  });
}

/** The elements inside `selector` that reach past its right edge: text no one can read there. */
function outOfBox(selector: string): Promise<string[]> {
  return page.$eval(selector, (box) => {
    const right = box.getBoundingClientRect().right;
    return Array.from(box.querySelectorAll("*")).flatMap((inner) => {
      const edge = inner.getBoundingClientRect().right;
      return edge > right + 0.5 ? [`${inner.tagName.toLowerCase()}#${inner.id}.${inner.className}`] : [];
    });
  });
}

/**
 * The page the screenshots show: fields picked, the search at "Header", and us OR (ca AND status ≥
 * 500 AND path …) in the builder, a group drawn for the parentheses, a new row waiting in it.
 */
async function showGroupedFilter(): Promise<void> {
  for (const field of [
    "RayID",
    "EdgeStartTimestamp",
    "EdgeResponseStatus",
    "ClientRequestHost",
    "RequestHeaders",
  ])
    await page.getByRole("checkbox", { name: field, exact: true }).check();
  await page.getByLabel("Search fields").fill("Header");
  await typeFilter(
    'ClientCountry eq "us" or ClientCountry eq "ca" and EdgeResponseStatus geq 500 and ClientRequestPath startsWith "/api"',
  );
  await page.waitForFunction(() => document.querySelectorAll("#builder .row").length === 4);
  // The group's AND: a new row in it, waiting for its field.
  await page
    .getByRole("group", { name: "Group 1" })
    .getByRole("button", { name: "AND", exact: true })
    .click();
  await page.locator("#data-field-list").evaluate((list) => {
    list.scrollTop = 0;
  });
}

/**
 * Compares a screenshot with the copy the docs show, loosely (fonts and antialiasing differ between
 * machines): same size, and at most 2% of pixels off by more than 48 in a channel. With
 * FILTERC_REWRITE_SCREENSHOTS=1 the copy is written anew instead.
 */
async function compareScreenshot(name: string): Promise<void> {
  const shot = await page.screenshot({ animations: "disabled" });
  const file = `${images}${name}`;
  if (process.env["FILTERC_REWRITE_SCREENSHOTS"] === "1") {
    mkdirSync(images, { recursive: true });
    writeFileSync(file, shot);
    return;
  }
  if (!existsSync(file)) throw new Error(`no ${file}: run with FILTERC_REWRITE_SCREENSHOTS=1 to take it`);
  const kept = readFileSync(file);
  const difference = await page.evaluate(
    async ([a, b]) => {
      const pixels = async (data: string) => {
        const image = new Image();
        image.src = `data:image/png;base64,${data}`;
        await image.decode();
        const canvas = document.createElement("canvas");
        canvas.width = image.width;
        canvas.height = image.height;
        const context = canvas.getContext("2d")!;
        context.drawImage(image, 0, 0);
        return context.getImageData(0, 0, image.width, image.height);
      };
      const [x, y] = [await pixels(a!), await pixels(b!)];
      if (x.width !== y.width || x.height !== y.height)
        return `size ${x.width}x${x.height} against ${y.width}x${y.height}`;
      let off = 0;
      for (let i = 0; i < x.data.length; i += 4)
        for (let c = 0; c < 3; c++)
          if (Math.abs(x.data[i + c]! - y.data[i + c]!) > 48) {
            off++;
            break;
          }
      const share = off / (x.width * x.height);
      return share > 0.02 ? `${(share * 100).toFixed(1)}% of pixels differ` : "";
    },
    [shot.toString("base64"), kept.toString("base64")],
  );
  expect(
    difference,
    `${name} no longer looks as the docs show (FILTERC_REWRITE_SCREENSHOTS=1 takes it anew)`,
  ).toBe("");
}

describe("the console in Chromium: Custom Fields", () => {
  it("sets a request header and a cookie, removes the cookie, and the sandbox holds the one rule", async () => {
    await page.getByRole("link", { name: "Custom Fields" }).click();
    await expectText("#custom-fields-count", "0 custom fields, at most 100 in each list");
    await page.getByRole("button", { name: "Edit Custom Fields" }).click();
    await page.getByRole("button", { name: "Set new Custom Field" }).click();
    await page.getByLabel("Field Type").selectOption({ label: "Request Header" });
    await page.getByLabel("Field Name").fill("X-Trace-Id");
    await expectText(
      "#field-name-note",
      // Two sentences, not one run into the other.
      'Header name "X-Trace-Id" sent as "x-trace-id" (header names are lower case). 1 of 100 request headers with this one.',
    );
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expectText(
      "#custom-fields-status",
      'Saved x-trace-id (Request Header). The zone\'s custom fields ruleset was created. Header name "X-Trace-Id" sent as "x-trace-id" (header names are lower case).',
    );
    await page.getByRole("button", { name: "Set new Custom Field" }).click();
    await page.getByLabel("Field Type").selectOption({ label: "Cookies" });
    await page.getByLabel("Field Name").fill("SessionID");
    // A second click while the first save is in flight sends nothing more.
    const saves = () =>
      calls.filter((c) => c.method === "POST" && c.url.endsWith("/api/custom-fields")).length;
    const savesBefore = saves();
    await page.evaluate(() => {
      const save = document.querySelector<HTMLButtonElement>('#new-custom-field button[type="submit"]')!;
      save.click();
      save.click();
    });
    await expectText(
      "#custom-fields-status",
      "Saved SessionID (Cookies). Replaced the ruleset's 1 rule (a PUT replaces all rules).",
    );
    await expectText("#custom-fields-count", "2 custom fields, at most 100 in each list");
    expect(saves() - savesBefore).toBe(1);
    expect(await customFieldRules()).toEqual([
      {
        action: "log_custom_field",
        expression: "true",
        action_parameters: {
          request_fields: [{ name: "x-trace-id" }],
          cookie_fields: [{ name: "SessionID" }],
        },
      },
    ]);

    await page.getByRole("button", { name: "Remove cookie SessionID" }).click();
    await expectText(
      "#custom-fields-status",
      "Removed SessionID. Replaced the ruleset's 1 rule (a PUT replaces all rules).",
    );
    expect(await customFieldRules()).toEqual([
      {
        action: "log_custom_field",
        expression: "true",
        action_parameters: { request_fields: [{ name: "x-trace-id" }] },
      },
    ]);
    expect(
      await page.$$eval(".custom-field-list", (lists) =>
        lists.map((list) => [
          list.querySelector("h2")!.textContent,
          Array.from(list.querySelectorAll("li"), (li) => li.textContent),
        ]),
      ),
    ).toEqual([
      ["Request Header", ["x-trace-idRemove"]],
      ["Response Header", ["None"]],
      ["Cookies", ["None"]],
    ]);
  });

  it("applies the rules as the name is typed, and sends nothing they refuse", async () => {
    const client = sandboxClient();
    await client.setCustomFields(
      { zoneId: OTHER_ZONE },
      {
        requestHeaders: Array.from({ length: 100 }, (_, i) => `h${i}`),
        transformedRequestHeaders: ["x-forwarded"],
      },
    );
    const before = await customFieldRules(OTHER_ZONE);
    const callsBefore = calls.length;
    await page.getByLabel("Zone ID").fill(OTHER_ZONE);
    await page.getByLabel("Zone ID").press("Tab");
    await expectText("#custom-fields-count", "101 custom fields, at most 100 in each list");
    expect(await page.textContent(".custom-field-list:nth-child(2) h2")).toBe("Transformed request header");
    await page.getByRole("button", { name: "Edit Custom Fields" }).click();
    await page.getByRole("button", { name: "Set new Custom Field" }).click();
    const name = page.getByLabel("Field Name");
    const problem = "#field-name-problem";

    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expectText(problem, "Type the field's name.");
    expect(await name.getAttribute("aria-invalid")).toBe("true");
    await name.fill("bad name");
    await expectText(
      problem,
      '"bad name" is not a valid header name; use letters, digits and !#$%&\'*+-.^_`|~ only (custom-field rule 2). 101 request headers given (request_fields); the service takes at most 100 in each list (custom-field rule 4).',
    );
    await name.fill("X-Forwarded");
    await expectText(
      problem,
      'The header "x-forwarded" is listed both raw and transformed; a header is logged one way, not both (custom-field rule 3). 101 request headers given (request_fields); the service takes at most 100 in each list (custom-field rule 4).',
    );
    await name.fill("x-new");
    await expectText(
      problem,
      "101 request headers given (request_fields); the service takes at most 100 in each list (custom-field rule 4).",
    );
    await expectText("#field-name-note", "101 of 100 request headers with this one.");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expectText(
      problem,
      "101 request headers given (request_fields); the service takes at most 100 in each list (custom-field rule 4).",
    );
    expect(await name.inputValue()).toBe("x-new");
    expect(await customFieldRules(OTHER_ZONE)).toEqual(before);
    expect(calls.slice(callsBefore).filter((c) => c.method !== "GET")).toEqual([]);
  });

  it("shows the API going away in place, keeps what was typed, and saves once it is back", async () => {
    await page.getByRole("button", { name: "Edit Custom Fields" }).click();
    await page.getByRole("button", { name: "Set new Custom Field" }).click();
    await page.getByLabel("Field Type").selectOption({ label: "Response Header" });
    await page.getByLabel("Field Name").fill("x-cache");
    const port = Number(new URL(sandbox.api).port);
    await sandbox.sandbox.close();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.waitForFunction(() => document.querySelector("#field-name-problem")?.textContent !== "");
    expect(await page.textContent("#field-name-problem")).toMatch(/^add custom fields: /);
    expect(await page.getByLabel("Field Name").inputValue()).toBe("x-cache");
    expect(await page.getByLabel("Field Type").inputValue()).toBe("responseHeaders");
    sandbox.sandbox = await startSandbox({ apiToken: TOKEN, dataDir: sandbox.dataDir, port });
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expectText(
      "#custom-fields-status",
      "Saved x-cache (Response Header). Replaced the ruleset's 1 rule (a PUT replaces all rules).",
    );
    expect(await page.textContent("#field-name-problem")).toBe("");
  });
});

describe("the console in Chromium: Connect a service", () => {
  it("builds a filter in the builder and the text, then creates the job the sandbox holds byte for byte", async () => {
    await page.getByRole("link", { name: "Connect a service" }).click();
    const offered = () =>
      page.$$eval("#dataset option", (options) => options.map((option) => option.textContent));
    const ofScope = (scope: "zone" | "account") =>
      datasetNames.filter((name) => datasetScopes(name)?.includes(scope));
    expect(await offered()).toEqual(ofScope("zone"));
    expect(await offered()).not.toContain("gateway_dns");
    await page.getByLabel("Scope").selectOption("account");
    expect(await offered()).toEqual(ofScope("account"));
    expect(await offered()).not.toContain("http_requests");
    await page.getByLabel("Scope").selectOption("zone");
    await page.getByLabel("Dataset").selectOption("http_requests");
    await expectText("#carries-RequestHeaders", "carries the custom fields x-trace-id");
    await expectText("#carries-Cookies", "no custom fields are configured: it will be empty");

    // Picked in the order the list shows them, found by the search.
    const seedOrder = [
      "RayID",
      "EdgeStartTimestamp",
      "EdgeResponseStatus",
      "ClientRequestHost",
      "SecurityActions",
      "RequestHeaders",
    ];
    const search = page.getByLabel("Search fields");
    for (const name of [...seedOrder].sort()) {
      await search.fill(name.slice(2, 9).toLowerCase());
      await page.getByRole("checkbox", { name, exact: true }).check();
    }
    await search.fill("Edge");
    await expectText("#data-fields-shown", `${shownCount("Edge")} of 123 fields hold "Edge".`);
    expect(
      await page.$$eval("#data-field-list .checkbox:not([hidden]) label", (labels) =>
        labels.every((label) => label.textContent!.toLowerCase().includes("edge")),
      ),
    ).toBe(true);
    await search.fill("");
    await expectText("#data-fields-count", "6 of 123 selected");
    const selected = () =>
      page.$$eval("#selected-field-list label", (labels) => labels.map((label) => label.textContent));
    await page.getByRole("button", { name: "Selected (6)" }).click();
    expect(await selected()).toEqual([...seedOrder].sort());
    // The seed's own order, by pointer and by keyboard.
    for (let i = 0; i < 3; i++) await page.getByRole("button", { name: "Move up RayID" }).click();
    await page.getByRole("checkbox", { name: "EdgeStartTimestamp" }).last().focus();
    await page.keyboard.press("Alt+ArrowUp");
    await page.keyboard.press("Alt+ArrowUp");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("selected-field-EdgeStartTimestamp");
    await page.getByRole("button", { name: "Move up EdgeResponseStatus" }).focus();
    await page.keyboard.press("Alt+ArrowUp");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
      "Move up EdgeResponseStatus",
    );
    await page.getByRole("button", { name: "Move down RequestHeaders" }).click();
    expect(await selected()).toEqual(seedOrder);
    await expectText("#data-fields-moved", "RequestHeaders is now field 6 of 6.");
    expect(await page.getByRole("button", { name: "Move up RayID" }).getAttribute("aria-disabled")).toBe(
      "true",
    );
    await page.getByRole("button", { name: "All fields" }).click();

    // us OR ca, AND status ≥ 500: the rows before the AND are put in a group, and drawn as one.
    const outer = page.locator("#builder > .group > .group-actions");
    await outer.getByRole("button", { name: "AND", exact: true }).click();
    // A new row claims nothing: no field, no operator, no value, no problem, and no text yet.
    expect(await row(1).getByLabel("Field").inputValue()).toBe("");
    expect(await row(1).getByLabel("Operator").isDisabled()).toBe(true);
    expect(await row(1).getByLabel("Value").isDisabled()).toBe(true);
    await expectText("[aria-label='Comparison 1'] .row-problems", "Choose a field.");
    await expectEditorText("");
    expect(await page.textContent("#diagnostics")).toBe("No problems.");
    await row(1).getByLabel("Field").selectOption("ClientCountry");
    await expectText("[aria-label='Comparison 1'] .row-problems", "Type a value.");
    expect(await row(1).getByLabel("Value").getAttribute("aria-invalid")).toBe("false");
    await expectEditorText("");
    await row(1).getByLabel("Value").fill("us");
    await outer.getByRole("button", { name: "OR", exact: true }).click();
    await row(2).getByLabel("Field").selectOption("ClientCountry");
    await row(2).getByLabel("Value").fill("ca");
    await outer.getByRole("button", { name: "AND", exact: true }).click();
    await row(3).getByLabel("Field").selectOption("EdgeResponseStatus");
    await row(3).getByLabel("Operator").selectOption({ label: "greater than or equal" });
    await row(3).getByLabel("Value").fill("500");
    await expectEditorText('(ClientCountry eq "us" or ClientCountry eq "ca") and EdgeResponseStatus geq 500');
    expect(await builderShape()).toEqual({
      join: "and",
      items: [{ join: "or", items: ["ClientCountry eq", "ClientCountry eq"] }, "EdgeResponseStatus geq"],
    });
    await expectText("#builder .group.nested .group-head", "Group 1: any of (OR)");
    // One join a group: the group's set to AND is no group, and every join reads AND.
    await page.getByRole("group", { name: "Group 1" }).getByLabel("Joined with").selectOption("and");
    await expectEditorText('ClientCountry eq "us" and ClientCountry eq "ca" and EdgeResponseStatus geq 500');
    expect(await builderShape()).toEqual({
      join: "and",
      items: ["ClientCountry eq", "ClientCountry eq", "EdgeResponseStatus geq"],
    });

    // The text leads, and the rows show the grouping it has: us or (ca and status ≥ 500).
    await typeFilter('ClientCountry eq "us" or ClientCountry eq "ca" and EdgeResponseStatus geq 500');
    await page.waitForFunction(() => document.querySelectorAll("#builder .row").length === 3);
    expect(await builderShape()).toEqual({
      join: "or",
      items: ["ClientCountry eq", { join: "and", items: ["ClientCountry eq", "EdgeResponseStatus geq"] }],
    });
    await expectText("#builder .group.nested .group-head", "Group 1: all of (AND)");

    // Groups asked for: AND (… OR …), its two rows waiting.
    await typeFilter("");
    await outer.getByRole("button", { name: "AND", exact: true }).click();
    await row(1).getByLabel("Field").selectOption("EdgeResponseStatus");
    await row(1).getByLabel("Operator").selectOption({ label: "greater than or equal" });
    await row(1).getByLabel("Value").fill("500");
    await outer.getByRole("button", { name: "AND", exact: true }).click();
    await row(2).getByLabel("Field").selectOption("ClientRequestHost");
    await row(2).getByLabel("Value").fill("api.example.com");
    await outer.getByRole("button", { name: "AND group", exact: true }).click();
    expect(
      await page.evaluate(() => document.activeElement?.closest("[aria-label]")?.getAttribute("aria-label")),
    ).toBe("Comparison 3");
    await row(3).getByLabel("Field").selectOption("ClientRequestMethod");
    await row(3).getByLabel("Operator").selectOption({ label: "value is not in a set of values" });
    await row(3).getByLabel("Value").fill("HEAD\nOPTIONS");
    await row(4).getByLabel("Field").selectOption("ClientRequestPath");
    await row(4).getByLabel("Operator").selectOption({ label: "starts with" });
    await row(4).getByLabel("Value").fill("/api");
    await expectEditorText(
      [
        "EdgeResponseStatus geq 500",
        '  and ClientRequestHost eq "api.example.com"',
        "  and (",
        '    ClientRequestMethod !in ["HEAD", "OPTIONS"]',
        '    or ClientRequestPath startsWith "/api"',
        "  )",
      ].join("\n"),
    );
    expect(await row(3).getByLabel("Operator").inputValue()).toBe("!in");
    await expectText("#gauge-operators .gauge-value", "4 / 30");

    // The text leads: the builder follows.
    await typeFilter('EdgeResponseStatus in [500, 502] and ClientRequestHost eq "api.example.com"');
    await page.waitForFunction(() => document.querySelectorAll("#builder .row").length === 2);
    expect(await row(1).getByLabel("Operator").inputValue()).toBe("in");
    expect(await row(1).getByLabel("Value").inputValue()).toBe("500\n502");
    expect(await page.getByLabel("Joined with").inputValue()).toBe("and");
    const json =
      '{"where":{"and":[{"key":"EdgeResponseStatus","operator":"in","value":[500,502]},{"key":"ClientRequestHost","operator":"eq","value":"api.example.com"}]}}';
    await expectText("#json-compact", json);
    await expectText("#gauge-bytes .gauge-value", `${json.length} / 1000`);

    await page.getByRole("button", { name: "Next" }).click();
    const destination = "s3://logs/errors?region=us-west-2";
    const masked = destination;
    await page.getByLabel("Destination").fill(destination);
    await expectText("#ownership-note", "This destination takes the token of its ownership challenge.");
    await page.getByRole("button", { name: "Create job" }).click();
    await expectText(
      "#ownership-problem",
      "This destination takes the token of its ownership challenge: press Request ownership challenge, and give the token here.",
    );
    expect(await sandboxJobs()).toEqual([]);
    await page.getByRole("button", { name: "Request ownership challenge" }).click();
    await page.waitForFunction(
      () => document.querySelector<HTMLInputElement>("#ownership-challenge")!.value !== "",
    );
    const token = await page.getByLabel("Ownership challenge").inputValue();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(await page.textContent("#ownership-note")).toMatch(
      /^The token was read from logs\/errors\/ownership-challenge-[0-9a-f]{8}\.txt, which the sandbox wrote into the destination\.$/,
    );
    await page.getByLabel("Timestamps").selectOption("unix");
    await page.getByLabel("Sample rate").fill("0.5");
    await page.getByLabel("Job name").fill("errors");

    // What will be sent, before it is: the fields in order, the filter in words and as JSON, the
    // destination and the challenge's token masked.
    const review = page.getByRole("region", { name: "What Create job sends" });
    expect(
      await review.locator("dl").evaluate((list) =>
        Array.from(list.querySelectorAll("dt"), (term) => {
          const value = term.nextElementSibling!;
          const items = Array.from(value.querySelectorAll("li"), (item) => item.textContent);
          return [term.textContent, items.length > 0 ? items : value.textContent];
        }),
      ),
    ).toEqual([
      ["Dataset", "http_requests"],
      ["Fields, in order (6)", seedOrder],
      ["Destination", masked],
      ["Ownership challenge", "given (the token is not shown)"],
      ["Timestamps", "unix"],
      ["Sample rate", "0.5"],
      ["Job name", "errors"],
    ]);
    await expectText(
      "#review-explain",
      [
        "a record is pushed when all of:",
        "  EdgeResponseStatus (int) is one of 500, 502",
        '  ClientRequestHost (string) is "api.example.com"',
        `2 of 30 comparisons, ${json.length} of 1000 bytes`,
        "",
      ].join("\n"),
    );
    await expectText("#review-filter", json);
    await expectText("#review-request", `POST /zones/${ZONE}/logpush/jobs`);
    const body = JSON.parse((await page.textContent("#review-body"))!);
    expect(body).toEqual({
      name: "errors",
      dataset: "http_requests",
      destination_conf: masked,
      enabled: true,
      output_options: { field_names: seedOrder, timestamp_format: "unix", sample_rate: 0.5 },
      filter: json,
      ownership_challenge: "****",
    });
    expect(await review.textContent()).not.toContain(token);

    // A second click while the first is in flight creates nothing more.
    await page.evaluate(() => {
      const create = document.querySelector<HTMLButtonElement>("#create-job")!;
      create.click();
      create.click();
    });
    await expectText("#connect-status", "Created job 1.");
    await expectText(
      "#created-text",
      `Job 1 (errors) pushes http_requests to ${masked}. It is listed below, under Logpush jobs.`,
    );
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("created-heading");
    const jobs = await sandboxJobs();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      id: 1,
      name: "errors",
      dataset: "http_requests",
      enabled: true,
      destination_conf: destination,
      filter: json,
      output_options: { field_names: seedOrder, timestamp_format: "unix", sample_rate: 0.5 },
    });
    expect(calls.filter((c) => c.method === "POST" && c.url.endsWith("/api/jobs"))).toHaveLength(1);
    await expectText("#job-1-title", "Job 1 · errors");

    // Create another: the form starts again, the scope and dataset kept.
    await page.getByRole("button", { name: "Create another" }).click();
    expect(await page.isVisible("#step-1")).toBe(true);
    await expectText("#data-fields-count", "0 of 123 selected");
    await expectEditorText("");
    expect(await page.locator("#builder .row").count()).toBe(0);
    expect(await page.getByLabel("Dataset").inputValue()).toBe("http_requests");
    for (const label of ["Destination", "Ownership challenge", "Job name"])
      expect(await page.getByLabel(label).inputValue()).toBe("");
    expect(await page.getByLabel("Sample rate").inputValue()).toBe("1");
    expect(await page.getByLabel("Timestamps").inputValue()).toBe("rfc3339");
    await expectText("#connect-status", "");
  });

  it("says what is wrong at its place: a value's type, a list where one value is due, a destination, no fields", async () => {
    await page.getByRole("link", { name: "Connect a service" }).click();
    await page.getByRole("button", { name: "AND", exact: true }).click();
    await row(1).getByLabel("Field").selectOption("EdgeResponseStatus");
    await row(1).getByLabel("Value").fill("abc");
    await expectText(
      ".row-problems",
      '`EdgeResponseStatus` is an int field, but the value is the string "abc".',
    );
    expect(await row(1).getByLabel("Value").getAttribute("aria-invalid")).toBe("true");
    await row(1).getByLabel("Operator").selectOption({ label: "value is in a set of values" });
    await row(1).getByLabel("Value").fill("500\n502");
    await row(1).getByLabel("Operator").selectOption({ label: "equal" });
    await expectText(
      ".row-problems",
      "`eq` takes one value, not a list; to match any of several values, use `in`.",
    );
    await expectEditorText("EdgeResponseStatus eq [500, 502]");

    await page.getByRole("button", { name: "Next" }).click();
    await expectText("#step-1-problem", "The filter has 1 error; fix it before sending the job.");
    await expectText(
      "#data-fields-problem",
      "No fields given; a job selects at least one field of its dataset (e.g. ClientIP,EdgeStartTimestamp).",
    );
    expect(await page.isVisible("#step-2")).toBe(false);

    await typeFilter('not (ClientCountry eq "us" or ClientRequestPath startsWith "/health")');
    await expectText(
      "#builder .unshowable p",
      "The builder cannot show this filter: the builder has no NOT (Logpush's JSON has none either): the filter can be written without it, as its comparisons negated.",
    );
    await page.getByRole("button", { name: "Write it without NOT" }).click();
    await expectEditorText('ClientCountry !eq "us" and ClientRequestPath !startsWith "/health"');
    expect(await row(2).getByLabel("Operator").inputValue()).toBe("!startsWith");

    // A row not finished is not in the filter: Next says so rather than send a filter without it.
    await page.getByRole("checkbox", { name: "ClientIP", exact: true }).check();
    await page.getByRole("button", { name: "AND", exact: true }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await expectText(
      "#step-1-problem",
      "Comparison 3 of the builder is not finished (no field or no value), so it is not in the filter: finish or remove it.",
    );
    expect(await page.isVisible("#step-2")).toBe(false);
    await page.getByRole("button", { name: "Remove comparison 3" }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByLabel("Destination").fill("s3://logs");
    await expectText(
      "#destination-problem",
      'Invalid destination "s3://logs": an s3 destination needs its bucket\'s region: add ?region=us-west-2 (for example).',
    );
    expect(await page.getByLabel("Destination").getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Sample rate").fill("half");
    await page.getByRole("button", { name: "Create job" }).click();
    await expectText(
      "#output-problem",
      '`output_options.sample_rate` takes a number in (0, 1]: the share of records pushed, e.g. 0.1, not "half".',
    );
    expect((await sandboxJobs()).length).toBe(1);

    // The API going away at Create job: said in place, nothing typed lost, nothing created.
    await page.getByLabel("Sample rate").fill("1");
    // Its keys masked in what Create job will send.
    await page
      .getByLabel("Destination")
      .fill("https://logs.example.com/push?header_Authorization=Bearer%20abc");
    await expectText(
      "#review-facts dd:nth-of-type(3)",
      "https://logs.example.com/push?header_Authorization=****",
    );
    expect(await page.textContent("#review")).not.toContain("Bearer");
    await page.getByLabel("Destination").fill("https://logs.example.com/push");
    const port = Number(new URL(sandbox.api).port);
    await sandbox.sandbox.close();
    await page.getByRole("button", { name: "Create job" }).click();
    await page.waitForFunction(() => document.querySelector("#create-problem")?.textContent !== "");
    expect(await page.textContent("#create-problem")).toMatch(/^create job: /);
    expect(await page.textContent("#output-problem")).toBe("");
    expect(await page.getByLabel("Destination").inputValue()).toBe("https://logs.example.com/push");
    expect(await page.isVisible("#step-2")).toBe(true);
    sandbox.sandbox = await startSandbox({ apiToken: TOKEN, dataDir: sandbox.dataDir, port });
    expect((await sandboxJobs()).length).toBe(1);
  });

  it("disables a job, edits its filter in the builder, and deletes it after asking", async () => {
    await page.getByRole("link", { name: "Connect a service" }).click();
    // Pressed twice while the first is in flight: one call.
    const puts = () => calls.filter((c) => c.method === "PUT").length;
    const putsBefore = puts();
    await page.getByRole("button", { name: "Disable job 1" }).evaluate((button: HTMLButtonElement) => {
      button.click();
      button.click();
    });
    await expectText("#jobs-status", "Job 1 is disabled.");
    expect(puts() - putsBefore).toBe(1);
    expect((await sandboxJobs())[0]).toMatchObject({ id: 1, enabled: false });
    await page.getByRole("button", { name: "Enable job 1" }).waitFor();

    await page.getByRole("button", { name: "Edit the filter of job 1" }).click();
    await expectText(
      "#editing-job",
      "Editing the filter of job 1 (errors): Save filter sends the filter only.",
    );
    expect(await row(1).getByLabel("Value").inputValue()).toBe("500\n502");
    await row(2).getByLabel("Operator").selectOption({ label: "ends with" });
    await row(2).getByLabel("Value").fill(".example.com");
    await page.getByRole("button", { name: "Save filter" }).click();
    await expectText("#connect-status", "Saved the filter of job 1.");
    expect((await sandboxJobs())[0]).toMatchObject({
      filter:
        '{"where":{"and":[{"key":"EdgeResponseStatus","operator":"in","value":[500,502]},{"key":"ClientRequestHost","operator":"endsWith","value":".example.com"}]}}',
      output_options: {
        field_names: [
          "RayID",
          "EdgeStartTimestamp",
          "EdgeResponseStatus",
          "ClientRequestHost",
          "SecurityActions",
          "RequestHeaders",
        ],
      },
    });

    await page.getByRole("button", { name: "Delete job 1" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete the job?" });
    await expect(dialog.textContent()).resolves.toContain(
      "Job 1 (errors) stops pushing and is removed. This cannot be undone.",
    );
    await dialog.getByRole("button", { name: "Cancel" }).click();
    expect(await sandboxJobs()).toHaveLength(1);
    await page.getByRole("button", { name: "Delete job 1" }).click();
    await dialog.getByRole("button", { name: "Delete job" }).click();
    await expectText("#jobs-status", "Deleted job 1.");
    expect(await sandboxJobs()).toEqual([]);
    await expectText("#jobs-list", "No jobs yet.");
  });

  it("keeps the builder and the text in step: random filters survive a round through the builder's controls", async () => {
    await page.getByRole("link", { name: "Connect a service" }).click();
    // Characters CodeMirror draws as placeholders (controls, separators, tabs) are left out: the
    // text is read back from the lines it draws. The model's own property covers every character.
    // Line breaks stay: the printer breaks the lines of a filter with groups.
    const drawable = (text: string) =>
      !/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff\ufff9-\ufffc]|[\ud800-\udfff]/.test(
        text,
      );
    const texts = fc
      .sample(builderFilters, { numRuns: 600, seed: 20260 })
      .map((expr) => print(expr))
      .filter(drawable)
      .slice(0, 150);
    expect(texts.length).toBe(150);
    // The groups the rows are drawn in, as the model reads the text (and the JSON has them).
    const shapes = texts.map((text) => {
      const compiled = compile(text);
      const reading = readBuilder(compiled.ast, compiled.diagnostics, getCatalog("http_requests")!);
      return reading.ok ? modelShape(reading.group) : null;
    });
    expect(
      shapes.filter(
        (shape) =>
          typeof shape === "object" && shape !== null && shape.items.some((item) => typeof item !== "string"),
      ).length,
    ).toBeGreaterThan(30);
    await page.evaluate(`window.drawnShape = ${drawnShape.toString()}`);
    const failures = await page.evaluate(
      async ([sources, expected]) => {
        const content = document.querySelector<HTMLElement>(".cm-content")!;
        const builder = document.querySelector("#builder")!;
        const text = () =>
          Array.from(content.querySelectorAll(".cm-line"), (line) => line.textContent).join("\n");
        const until = async (done: () => boolean) => {
          for (let i = 0; i < 100 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 0));
        };
        const found: string[] = [];
        for (const [index, source] of sources.entries()) {
          content.focus();
          document.execCommand("selectAll");
          document.execCommand("insertText", false, source);
          await until(() => text() === source);
          if (text() !== source) {
            found.push(`typing ${JSON.stringify(source)} gave ${JSON.stringify(text())}`);
            continue;
          }
          if (builder.querySelector(".unshowable")) {
            found.push(`${JSON.stringify(source)}: ${builder.textContent}`);
            continue;
          }
          const drawn = JSON.stringify((window as unknown as { drawnShape: () => unknown }).drawnShape());
          if (drawn !== JSON.stringify(expected[index]))
            found.push(
              `${JSON.stringify(source)} is drawn as ${drawn}, not ${JSON.stringify(expected[index])}`,
            );
          for (const control of Array.from(builder.querySelectorAll("select, input, textarea")))
            control.dispatchEvent(
              new Event(control.tagName === "SELECT" ? "change" : "input", { bubbles: true }),
            );
          await until(() => text() === source);
          if (text() !== source)
            found.push(`${JSON.stringify(source)} came back as ${JSON.stringify(text())}`);
        }
        return found;
      },
      [texts, shapes] as const,
    );
    expect(failures).toEqual([]);
  });
});

describe("the console in Chromium: for everyone, and only for its own page", () => {
  it("has no serious or critical accessibility violation on either page (axe-core)", async () => {
    await page.getByRole("button", { name: "Edit Custom Fields" }).click();
    await page.getByRole("button", { name: "Set new Custom Field" }).click();
    await page.getByLabel("Field Name").fill("bad name");
    expect(await violations()).toEqual([]);
    await page.getByRole("link", { name: "Connect a service" }).click();
    const outer = page.locator("#builder > .group > .group-actions");
    await outer.getByRole("button", { name: "AND", exact: true }).click();
    // A row waiting for its field, beside one with its problem, in a group.
    expect(await violations()).toEqual([]);
    await row(1).getByLabel("Field").selectOption("EdgeResponseStatus");
    await row(1).getByLabel("Value").fill("abc");
    await outer.getByRole("button", { name: "OR group", exact: true }).click();
    await row(2).getByLabel("Field").selectOption("ClientRequestMethod");
    await row(2).getByLabel("Operator").selectOption({ label: "value is in a set of values" });
    await page.getByLabel("Search fields").fill("Request");
    await page.getByRole("checkbox", { name: "ClientRequestHost", exact: true }).check();
    await page.getByRole("checkbox", { name: "RequestHeaders", exact: true }).check();
    expect(await violations()).toEqual([]);
    await page.getByRole("button", { name: "Selected (2)" }).click();
    expect(await violations()).toEqual([]);
    await typeFilter("EdgeResponseStatus geq 500");
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByLabel("Destination").fill("s3://logs/a?region=us-west-2");
    await page.locator("#review summary").click();
    expect(await violations()).toEqual([]);
  });

  it("works from the keyboard, at 420 px wide", async () => {
    await page.close();
    page = await openPage(420);
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= 420);
    expect(await fits()).toBe(true);
    await page.getByRole("button", { name: "Edit Custom Fields" }).focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("field-type");
    await page.keyboard.press("Tab");
    await page.keyboard.type("x-keyboard");
    await page.keyboard.press("Enter");
    await expectText(
      "#custom-fields-status",
      "Saved x-keyboard (Request Header). Replaced the ruleset's 1 rule (a PUT replaces all rules).",
    );

    await page.getByRole("link", { name: "Connect a service" }).focus();
    await page.keyboard.press("Enter");
    // From the top of the page to the Filter section: a few Tabs and the skip link, not 130.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    let presses = 0;
    while (presses < 12 && (await page.evaluate(() => document.activeElement?.id)) !== "skip-to-filter") {
      await page.keyboard.press("Tab");
      presses++;
    }
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("skip-to-filter");
    expect(presses).toBeLessThanOrEqual(6);
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("filter-heading");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("AND");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-control"))).toBe("field");
    await page.keyboard.type("EdgeResponseStatus");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.type("404");
    await expectEditorText("EdgeResponseStatus eq 404");
    expect(await fits()).toBe(true);
    // Each select shows its whole option, however narrow the page.
    expect(await cutSelects()).toEqual([]);
  });

  it("draws no text cut off and no box out of line, at 1400 and 420 px wide", async () => {
    for (const width of [1400, 420]) {
      await page.close();
      page = await openPage(width);
      await page.getByRole("link", { name: "Connect a service" }).click();
      await showGroupedFilter();
      await page.getByLabel("Search fields").fill("");
      expect(await cutSelects(), `${width} px`).toEqual([]);
      // Every field's box beside the first line of its name, long names too, and every caption
      // whole inside its item.
      const misaligned = await page.$$eval("#data-field-list .checkbox", (items) =>
        items.flatMap((item) => {
          const box = item.querySelector("input")!.getBoundingClientRect();
          const label = item.querySelector("label")!;
          const line = parseFloat(getComputedStyle(label).lineHeight);
          const text = label.getBoundingClientRect();
          const caption = item.querySelector(".carries")?.getBoundingClientRect();
          const whole = item.getBoundingClientRect();
          const problems: string[] = [];
          const middle = box.top + box.height / 2;
          if (middle < text.top || middle > text.top + line) problems.push("box beside no first line");
          if (text.right > whole.right + 0.5) problems.push("name out of its item");
          if (caption && (caption.bottom > whole.bottom + 0.5 || caption.right > whole.right + 0.5))
            problems.push("caption out of its item");
          return problems.map((problem) => `${label.textContent}: ${problem}`);
        }),
      );
      expect(misaligned, `${width} px`).toEqual([]);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        `${width} px`,
      ).toBe(true);
      // What Create job sends, inside its box, however long the path, the destination or the JSON.
      await page.getByRole("button", { name: "Remove comparison 5" }).click();
      await page.getByRole("button", { name: "Next" }).click();
      await page
        .getByLabel("Destination")
        .fill(
          "https://logs.example.com/push?header_Authorization=Bearer%20abcdefghijklmnopqrstuvwxyz0123456789",
        );
      await page.locator("#review summary").click();
      expect(await outOfBox("#step-2"), `${width} px`).toEqual([]);
    }
  });

  it("looks as the docs show it, at 1400 and 420 px wide", async () => {
    for (const [width, suffix] of [
      [1400, ""],
      [420, "-420"],
    ] as const) {
      await page.close();
      page = await openPage(width);
      await page.getByRole("button", { name: "Edit Custom Fields" }).click();
      await page.getByRole("button", { name: "Set new Custom Field" }).click();
      await page.getByLabel("Field Name").fill("X-Request-Id");
      await expectText(
        "#field-name-note",
        'Header name "X-Request-Id" sent as "x-request-id" (header names are lower case). 3 of 100 request headers with this one.',
      );
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await compareScreenshot(`console-custom-fields${suffix}.png`);

      await page.getByRole("link", { name: "Connect a service" }).click();
      await showGroupedFilter();
      await page.evaluate(() => {
        (document.activeElement as HTMLElement | null)?.blur();
        document.querySelector("#step-1")!.scrollIntoView();
        window.scrollBy(0, -8);
      });
      await compareScreenshot(`console-connect${suffix}.png`);
      await page.evaluate(() => document.querySelector("#filter-heading")!.scrollIntoView());
      await compareScreenshot(`console-builder${suffix}.png`);

      await page.getByRole("button", { name: "Remove comparison 5" }).click();
      await page.getByRole("button", { name: "Next" }).click();
      await page
        .getByLabel("Destination")
        .fill("https://logs.example.com/push?header_Authorization=Bearer%20abc");
      await page.getByLabel("Job name").fill("errors");
      // No button drawn as the pointer hovers it.
      await page.mouse.move(0, 0);
      await page.evaluate(() => {
        (document.activeElement as HTMLElement | null)?.blur();
        document.querySelector("#review")!.scrollIntoView();
      });
      await compareScreenshot(`console-review${suffix}.png`);
    }
  });

  it("refuses a page of another origin", async () => {
    const other = await runSandbox();
    const callsBefore = calls.length;
    try {
      // Any page of another origin: the sandbox's answers will do as its document.
      await page.goto(`${other.sandbox.url}/client/v4`);
      const outcomes = await page.evaluate(async (origin) => {
        const attempt = (init?: RequestInit) =>
          fetch(`${origin}/api/jobs?zoneId=023e105f4ecef8ad9ca31a8372d0c353`, init).then(
            (response) => `answered ${response.status}`,
            (error: Error) => error.name,
          );
        return [await attempt(), await attempt({ headers: { "x-filterc-console-token": "guessed" } })];
      }, running.origin);
      expect(outcomes).toEqual(["TypeError", "TypeError"]);
    } finally {
      await other.stop();
      // The blocked calls are this other page's, its console errors too, not the console's.
      calls.splice(callsBefore);
      errors = [];
    }
  });

  it("never sends the page the API's credential, and every call carries the session token", async () => {
    const all = await Promise.all(answers);
    expect(all.length).toBeGreaterThan(50);
    for (const answer of all) expect(answer).not.toContain(TOKEN);
    const own = calls.filter((c) => c.url.startsWith(running.origin));
    expect(own.length).toBeGreaterThan(30);
    expect(own.filter((c) => !c.token)).toEqual([]);
  });
});
