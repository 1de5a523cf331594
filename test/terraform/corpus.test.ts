import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkTerraform } from "../../src/terraform/index.js";

/*
 * The corpus: .tf files of both provider generations, modelled on the provider's documentation.
 * The correct ones give no diagnostic at all; each planted mistake is listed in its file as
 * `# expect: CODE at [FILE:]LINE:COLUMN`, and exactly those are reported.
 */

const corpus = fileURLToPath(new URL("../fixtures/terraform/", import.meta.url));
const folders = readdirSync(corpus);

const expectations = (folder: string): string[] =>
  readdirSync(join(corpus, folder))
    .filter((name) => name.endsWith(".tf"))
    .flatMap((name) =>
      [
        ...readFileSync(join(corpus, folder, name), "utf8").matchAll(
          /^# expect: (\S+) at (?:(\S+):)?(\d+:\d+)/gm,
        ),
      ].map(([, code, file, place]) => `${code} at ${file ?? name}:${place}`),
    )
    .sort();

async function reported(folder: string): Promise<string[]> {
  const files = await checkTerraform([join(corpus, folder)], corpus);
  return files
    .flatMap(({ file, diagnostics }) =>
      diagnostics.map(
        (d) =>
          `${d.code} at ${file.name.slice(folder.length + 1)}:${d.range.start.line}:${d.range.start.column}`,
      ),
    )
    .sort();
}

describe("the Terraform corpus", () => {
  it("holds both provider generations, correct and with mistakes", () => {
    expect(folders.sort()).toEqual(["mistakes-v4", "mistakes-v5", "v4", "v5"]);
  });

  for (const folder of folders.filter((name) => !name.startsWith("mistakes")))
    it(`passes the correct files of ${folder} with no diagnostic`, async () => {
      expect(await reported(folder)).toEqual([]);
    });

  for (const folder of folders.filter((name) => name.startsWith("mistakes")))
    it(`reports every planted mistake of ${folder} at its line and column`, async () => {
      const expected = expectations(folder);
      expect(expected.length).toBeGreaterThanOrEqual(10);
      expect(await reported(folder)).toEqual(expected);
    });
});
