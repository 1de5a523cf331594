import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { launchChromium } from "../helpers/chromium.js";
import { pageHash, screenshotPage, stampOf, stampPng } from "./screenshot.js";
import { loadGrammar } from "./textmate.js";

const COMMITTED = new URL("../../editors/vscode/images/screenshot.png", import.meta.url);
const MADE = new URL("../out/vscode-screenshot.png", import.meta.url);
const REWRITE = "FILTERC_REWRITE_SCREENSHOT";

describe("the extension README's screenshot", () => {
  it("is drawn from the grammar, the diagnostics and the status bar as they are now", async () => {
    const page = screenshotPage(await loadGrammar());
    const browser = await launchChromium();
    let png: Buffer;
    try {
      const tab = await browser.newPage({ viewport: { width: 960, height: 160 }, deviceScaleFactor: 1 });
      await tab.setContent(page);
      png = stampPng(await tab.screenshot({ fullPage: true }), page);
    } finally {
      await browser.close();
    }
    mkdirSync(new URL(".", MADE), { recursive: true });
    writeFileSync(MADE, png);
    if (process.env[REWRITE]) writeFileSync(COMMITTED, png);
    expect(
      stampOf(readFileSync(COMMITTED)),
      `editors/vscode/images/screenshot.png is stale: ${REWRITE}=1 npx vitest run test/editors/screenshot.test.ts draws it again (test/out/vscode-screenshot.png is the new one)`,
    ).toBe(pageHash(page));
  });
});
