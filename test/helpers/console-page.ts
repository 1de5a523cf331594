/**
 * What the console's browser tests do to a page: axe-core's serious violations, the screenshots
 * docs/console.md shows (compared loosely, or taken anew), and waiting for a text.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/** The screenshots docs/console.md shows; FILTERC_REWRITE_SCREENSHOTS=1 writes them anew. */
const images = fileURLToPath(new URL("../../docs/images/", import.meta.url));
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * The serious and critical violations axe-core finds on the page once it has stopped changing: axe
 * reads the DOM over several tasks, and a node an editor's lint or a list replaces meanwhile makes it
 * throw while naming that node.
 */
export async function violations(page: Page): Promise<string[]> {
  await settled(page);
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

/** Resolves once the page's DOM has not changed for QUIET_MS, or after SETTLE_LIMIT_MS at most. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(
    ([quietMs, limitMs]) =>
      new Promise<void>((resolve) => {
        const started = Date.now();
        let timer = setTimeout(done, quietMs);
        const observer = new MutationObserver(() => {
          clearTimeout(timer);
          timer = setTimeout(done, Math.max(0, Math.min(quietMs, started + limitMs - Date.now())));
        });
        function done(): void {
          observer.disconnect();
          resolve();
        }
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      }),
    [QUIET_MS, SETTLE_LIMIT_MS] as const,
  );
}

const QUIET_MS = 300;
const SETTLE_LIMIT_MS = 5_000;

/**
 * Compares a screenshot with the copy the docs show, loosely (fonts and antialiasing differ between
 * machines): same size, and at most 2% of pixels off by more than 48 in a channel. With
 * FILTERC_REWRITE_SCREENSHOTS=1 the copy is written anew instead.
 */
export async function compareScreenshot(page: Page, name: string): Promise<void> {
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

/** Waits (up to 5 s) for the element's text to become `expected`, then asserts it, so a failure shows both. */
export async function expectText(page: Page, selector: string, expected: string): Promise<void> {
  await page
    .waitForFunction(([s, text]) => document.querySelector(s!)?.textContent === text, [selector, expected], {
      timeout: 5000,
    })
    .catch(() => undefined);
  expect(await page.textContent(selector)).toBe(expected);
}
