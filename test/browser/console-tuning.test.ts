import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureConsole } from "../helpers/bundles.js";
import { launchChromium } from "../helpers/chromium.js";
import { type RunningConsole, startConsoleCli } from "../helpers/console.js";
import { type Running, runSandbox, TOKEN, ZONE } from "../sandbox/helpers.js";

/*
 * The console's page shows a filter at the levels `filterc console` was started with (here
 * `--deny W0101 --allow W0120`), as its server refuses what they make an error.
 */

// Built while the file is collected, outside any test's time limit.
ensureConsole();

let sandbox: Running;
let running: RunningConsole;
let browser: Browser;

beforeAll(async () => {
  sandbox = await runSandbox();
  running = await startConsoleCli(
    ["--base-url", sandbox.api, "--zone", ZONE, "--max-retries", "0", "--deny", "W0101", "--allow", "W0120"],
    { CLOUDFLARE_API_TOKEN: TOKEN },
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await running?.stop();
  await sandbox?.stop();
});

describe("the console's page and the diagnostics settings", () => {
  it("shows a denied warning as an error and an allowed one not at all", async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(running.url);
    await page.waitForSelector(".cm-content", { state: "attached" });
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>("#zone-id")?.value !== "");
    await page.getByRole("link", { name: "Connect a service" }).click();
    await page.click(".cm-content");
    await page.keyboard.press("Control+A");
    await page.keyboard.insertText('WAFFlags eq "1" and EdgeStartTimestamp gt 1700000000');
    await page.waitForFunction(() => document.querySelector("#diagnostics .diagnostic") !== null);
    const shown = await page.$$eval("#diagnostics .diagnostic", (items) =>
      items.map((item) => `${item.className} ${item.getAttribute("data-code")}`),
    );
    expect(shown).toEqual(["diagnostic error W0101"]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
