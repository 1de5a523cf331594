import { mkdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { datasetNames } from "../../src/catalog/index.js";
import { ensurePlayground } from "../helpers/bundles.js";
import { launchChromium } from "../helpers/chromium.js";
import { type RunningPlayground, startPlayground } from "../helpers/playground.js";

// Built while the file is collected, outside any test's time limit.
ensurePlayground();

const screenshotPath = fileURLToPath(new URL("../out/playground.png", import.meta.url));

let playground: RunningPlayground;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  playground = await startPlayground();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await playground?.stop();
});

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(playground.url);
  await page.waitForSelector(".cm-content");
  expect(errors).toEqual([]);
});

afterEach(async () => {
  await page.close();
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

async function clearEditor(): Promise<void> {
  await page.click(".cm-content");
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Delete");
}

const editorText = () => page.evaluate(() => document.querySelector(".cm-content")!.textContent);

/** The fields the service completes `EdgeResp` to. */
const EDGE_RESPONSE_FIELDS = [
  "EdgeResponseBodyBytes",
  "EdgeResponseBytes",
  "EdgeResponseCompressionRatio",
  "EdgeResponseContentType",
  "EdgeResponseStatus",
];

const completionLabels = () =>
  page.$$eval(".cm-tooltip-autocomplete .cm-completionLabel", (labels) => labels.map((l) => l.textContent));

describe("the playground in Chromium", () => {
  it("shows the JSON of a typed filter, compact and escaped, with the gauges", async () => {
    await clearEditor();
    await page.keyboard.type('ClientCountry eq "us"');
    const json = '{"where":{"key":"ClientCountry","operator":"eq","value":"us"}}';
    await expectText("#json-compact", json);
    await expectText("#json-escaped", JSON.stringify(json));
    await expectText("#gauge-operators .gauge-value", "1 / 30");
    await expectText("#gauge-bytes .gauge-value", `${json.length} / 1000`);
    await expectText("#status", "valid");
    await expectText("#diagnostics", "No problems.");
  });

  it("marks a mistake at its place and applies the editor's fix", async () => {
    await clearEditor();
    await page.keyboard.type('ClientRequestHots eq "a"');
    await page.waitForSelector(".cm-lintRange-error");
    expect(await page.textContent(".cm-lintRange-error")).toBe("ClientRequestHots");
    const item = page.locator("#diagnostics li.diagnostic");
    expect(await item.count()).toBe(1);
    expect(await item.getAttribute("data-code")).toBe("E0201");
    expect(await item.locator(".where").textContent()).toBe("1:1");
    expect(await item.locator(".message").textContent()).toBe(
      "unknown field `ClientRequestHots` in dataset http_requests; did you mean `ClientRequestHost`?",
    );
    await expectText("#status", "1 error");
    await expectText("#json-compact", "");

    await page.hover(".cm-lintRange-error");
    const fix = page.locator(".cm-tooltip-lint .cm-diagnosticAction");
    expect(await fix.textContent()).toBe("replace with `ClientRequestHost`");
    await fix.click();
    expect(await editorText()).toBe('ClientRequestHost eq "a"');
    await expectText("#json-compact", '{"where":{"key":"ClientRequestHost","operator":"eq","value":"a"}}');
    await expectText("#status", "valid");
  });

  it("applies a fix from the diagnostics pane", async () => {
    await clearEditor();
    await page.keyboard.insertText('ClientRequestPath startswith "/api"');
    await page.waitForSelector("#diagnostics li.diagnostic .fix");
    expect(await page.textContent("#diagnostics li.diagnostic .fix")).toBe("replace with `startsWith`");
    await page.click("#diagnostics li.diagnostic .fix");
    expect(await editorText()).toBe('ClientRequestPath startsWith "/api"');
    await expectText(
      "#json-compact",
      '{"where":{"key":"ClientRequestPath","operator":"startsWith","value":"/api"}}',
    );
  });

  it("completes a field, then an operator its type allows", async () => {
    await clearEditor();
    await page.keyboard.type("EdgeResp");
    await page.keyboard.press("Control+Space");
    await page.waitForSelector(".cm-tooltip-autocomplete");
    expect(await completionLabels()).toEqual(EDGE_RESPONSE_FIELDS);
    await page.click('.cm-tooltip-autocomplete li:has(.cm-completionLabel:text-is("EdgeResponseStatus"))');
    expect(await editorText()).toBe("EdgeResponseStatus");

    await page.keyboard.type(" ");
    await page.keyboard.press("Control+Space");
    await page.waitForSelector(".cm-tooltip-autocomplete");
    expect(await completionLabels()).toEqual(["eq", "!eq", "lt", "leq", "gt", "geq", "in", "!in"]);
    await page.click('.cm-tooltip-autocomplete li:has(.cm-completionLabel:text-is("geq"))');
    await page.keyboard.type(" 500");
    expect(await editorText()).toBe("EdgeResponseStatus geq 500");
    await expectText(
      "#json-compact",
      '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":"500"}}',
    );
  });

  it("narrows an open completion list as the service does, not by CodeMirror's fuzzy match", async () => {
    // Regression: a list opened on `Edge` and narrowed by typing kept EdgeStartTimestamp for
    // `EdgeResp` (E-d-g-e-…r…e…s…p), which the service and the language server leave out.
    await clearEditor();
    await page.keyboard.type("Edge");
    await page.keyboard.press("Control+Space");
    await page.waitForSelector(".cm-tooltip-autocomplete");
    expect(await completionLabels()).toContain("EdgeStartTimestamp");
    await page.keyboard.type("Resp");
    // The list follows the typing a moment later; if it never narrows, the comparison shows how.
    await page
      .waitForFunction(
        () => document.querySelectorAll(".cm-tooltip-autocomplete .cm-completionLabel").length <= 5,
        undefined,
        { timeout: 3000 },
      )
      .catch(() => undefined);
    expect(await completionLabels()).toEqual(EDGE_RESPONSE_FIELDS);
  });

  it("formats the filter with the button and with Shift-Alt-F", async () => {
    await clearEditor();
    await page.keyboard.insertText("EdgeResponseStatus>=500&&((ClientCountry=='us'))");
    await page.click("#format");
    expect(await editorText()).toBe('EdgeResponseStatus geq 500 and ClientCountry eq "us"');
    await clearEditor();
    await page.keyboard.insertText("not(ClientCountry ne 'us')");
    await page.keyboard.press("Shift+Alt+F");
    expect(await editorText()).toBe('not ClientCountry !eq "us"');
  });

  it("shows a field's type and description on hover", async () => {
    await clearEditor();
    await page.keyboard.insertText("EdgeResponseStatus geq 500");
    await page.hover(".cm-content .cm-lpf-field");
    await page.waitForSelector(".cm-tooltip-hover");
    expect(await page.textContent(".cm-tooltip-hover")).toBe(
      'EdgeResponseStatus: intHTTP status returned to the client.Emits:{"key":"EdgeResponseStatus","operator":"geq","value":"500"}',
    );
  });

  it("decompiles pasted JSON to the language and opens it in the editor", async () => {
    const json =
      '{"where":{"or":[{"key":"ClientCountry","operator":"eq","value":"ca"},{"key":"EdgeResponseStatus","operator":"in","value":[500,502]}]}}';
    await page.fill("#decompile-input", json);
    await expectText("#decompile-output", 'ClientCountry eq "ca" or EdgeResponseStatus in [500, 502]');
    await page.click("#decompile-open");
    expect(await editorText()).toBe('ClientCountry eq "ca" or EdgeResponseStatus in [500, 502]');
    await expectText("#json-compact", json);

    await page.fill("#decompile-input", '{"where":{"key":"ClientCountry","operator":"eq"}}');
    await expectText("#decompile-output", "");
    expect(await page.isDisabled("#decompile-open")).toBe(true);
    expect(await page.getAttribute("#decompile-diagnostics li", "data-code")).toMatch(/^E\d{4}$/);
  });

  it("runs the filter over NDJSON lines and marks the matches", async () => {
    // The page opens with the README's filter and three log lines: only the first is kept.
    await expectText("#evaluate-summary", "1 of 3 match");
    expect(await page.$$eval("#evaluate-results li", (items) => items.map((i) => i.className))).toEqual([
      "outcome match",
      "outcome miss",
      "outcome miss",
    ]);
    await page.fill(
      "#evaluate-input",
      '{"EdgeResponseStatus":500,"ClientRequestHost":"api.example.com"}\n\n{oops',
    );
    await expectText("#evaluate-summary", "1 of 2 match");
    expect(
      await page.$$eval("#evaluate-results li", (items) =>
        items.map((i) => [i.className, i.getAttribute("data-line")]),
      ),
    ).toEqual([
      ["outcome match", "1"],
      ["outcome invalid", "3"],
    ]);
  });

  it("reads the lines as filterc eval does: exact nanoseconds, timestamps in any form, values that are no time", async () => {
    await clearEditor();
    await page.keyboard.insertText("EdgeStartTimestamp in [1700000000123456789, 1700000001000000000]");
    await page.fill(
      "#evaluate-input",
      [
        '{"EdgeStartTimestamp":1700000000123456789}',
        '{"EdgeStartTimestamp":1700000000123456788}',
        '{"EdgeStartTimestamp":"2023-11-15T00:13:21+02:00"}',
        '{"EdgeStartTimestamp":"yesterday"}',
      ].join("\n"),
    );
    // Before, JSON.parse rounded both nanosecond numbers to one double, and text was no number: 1 of 4.
    await expectText("#evaluate-summary", "2 of 4 match");
    expect(await page.$$eval("#evaluate-results li", (items) => items.map((i) => i.textContent))).toEqual([
      'match{"EdgeStartTimestamp":1700000000123456789}',
      'no match{"EdgeStartTimestamp":1700000000123456788}',
      'match{"EdgeStartTimestamp":"2023-11-15T00:13:21+02:00"}',
      'no match{"EdgeStartTimestamp":"yesterday"} — not a time, compared as missing: EdgeStartTimestamp',
    ]);
  });

  it("offers every shipped dataset in the picker", async () => {
    const offered = await page.$$eval("#dataset option", (options) =>
      options.map((option) => (option as HTMLOptionElement).value),
    );
    expect(offered).toEqual(datasetNames);
    expect(offered).toHaveLength(37);
    expect(await page.inputValue("#dataset")).toBe("http_requests");
  });

  it("checks against the picked dataset and limits", async () => {
    await page.selectOption("#dataset", "dns_logs");
    await page.waitForSelector('#diagnostics li[data-code="E0201"]');
    await expectText("#status", "4 errors");

    await page.selectOption("#dataset", "http_requests");
    await page.fill("#max-operators", "3");
    await page.dispatchEvent("#max-operators", "change");
    await expectText("#gauge-operators .gauge-value", "4 / 3");
    expect(await page.getAttribute("#gauge-operators", "class")).toBe("gauge over");
    await expectText("#status", "1 error");
  });

  it("saves a screenshot of the page", async () => {
    await page.hover(".cm-content .cm-lpf-field");
    await page.waitForSelector(".cm-tooltip-hover");
    mkdirSync(fileURLToPath(new URL("../out/", import.meta.url)), { recursive: true });
    await page.screenshot({ path: screenshotPath, fullPage: true });
    const png = readFileSync(screenshotPath);
    expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect(png.length).toBeGreaterThan(20_000);
  });
});
