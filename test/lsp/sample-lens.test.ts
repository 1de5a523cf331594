import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import type { CancellationToken } from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { SAMPLE_LIMITS, sampleLenses } from "../../src/lsp/sample-lens.js";
import { createLanguageService } from "../../src/service/index.js";
import { temporaryFolder } from "../helpers/folders.js";

/*
 * The evaluation lens's bounds of time and the editor's cancelling, on the lens itself: the
 * server's tests (test/lsp/editor-features.test.ts) hold its bounds of files, bytes and lines.
 */

const folder = temporaryFolder("filterc-sample-lens-");

/** 4,000 sample lines (about 170 KB, several of the lens's 64 KiB slices), half of them kept. */
async function samples() {
  const dir = folder();
  await mkdir(join(dir, "logs"), { recursive: true });
  const lines = Array.from({ length: 4000 }, (_, i) =>
    JSON.stringify({ EdgeResponseStatus: i % 2 ? 500 : 200, RayID: `ray-${i}`.padEnd(24, "x") }),
  );
  await writeFile(join(dir, "logs", "a.ndjson"), `${lines.join("\n")}\n`);
  const document = TextDocument.create(
    pathToFileURL(join(dir, "f.lpf")).href,
    "filterc",
    1,
    "EdgeResponseStatus geq 500\n",
  );
  return { document, samples: { glob: "logs/*", folder: dir } };
}

const titles = (lenses: { command?: { title: string } }[]) => lenses.map((lens) => lens.command?.title);

describe("the evaluation lens", () => {
  it("reads all the samples within its time, and stops past it, saying so", async () => {
    const { document, samples: named } = await samples();
    const service = createLanguageService();
    expect(titles(await sampleLenses(document, service, named))).toEqual([
      "▶ keeps 2,000 of 4,000 sample lines (logs/*)",
    ]);
    const [title] = titles(
      await sampleLenses(document, service, named, undefined, { ...SAMPLE_LIMITS, maxMilliseconds: 0 }),
    );
    const stopped =
      /^▶ keeps ([\d,]+) of the first ([\d,]+) sample lines \(logs\/\*; stopped: after 0 s\)$/.exec(title!);
    expect(stopped).not.toBeNull();
    expect(Number(stopped![2]!.replace(",", ""))).toBeLessThan(4000);
  });

  it("gives no lens once the editor cancels the request, between two slices", async () => {
    const { document, samples: named } = await samples();
    let asked = 0;
    // Cancelled after the first look, as an editor cancels a request the user has typed past.
    const token = {
      get isCancellationRequested() {
        asked++;
        return asked > 1;
      },
      onCancellationRequested: () => ({ dispose: () => undefined }),
    } as CancellationToken;
    expect(await sampleLenses(document, createLanguageService(), named, token)).toEqual([]);
    expect(asked).toBeGreaterThan(1);
  });
});
