import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkTerraform } from "../../src/terraform/index.js";
import { temporaryFolder } from "../helpers/folders.js";

/*
 * A job's filter in a .tf file gets the warnings and fixes of filters that can never match as
 * source does, each fix written in the HCL of its place: jsonencode's object, or a JSON string.
 */

const folder = temporaryFolder("filterc-terraform-never-");
let count = 0;

const job = (filter: string) => `resource "cloudflare_logpush_job" "a" {
  zone_id          = "023e105f4ecef8ad9ca31a8372d0c353"
  dataset          = "http_requests"
  destination_conf = "s3://mybucket/logs?region=us-west-2"
  filter           = ${filter}
}
`;

/** The findings of one main.tf, as `CODE L:C → replacement`. */
async function findings(text: string): Promise<string[]> {
  const dir = join(folder(), `case-${count++}`);
  await mkdir(dir);
  await writeFile(join(dir, "main.tf"), text);
  const checked = await checkTerraform(["."], dir);
  return checked.flatMap(({ diagnostics }) =>
    diagnostics.map(
      (d) =>
        `${d.code} ${d.range.start.line}:${d.range.start.column} → ${d.suggestion?.replacement ?? "(no fix)"}`,
    ),
  );
}

describe("filters that can never match, in .tf files", () => {
  it("splits a comma-joined in string, in jsonencode and in a JSON string", async () => {
    expect(
      await findings(
        job('jsonencode({ where = { key = "ClientCountry", operator = "in", value = "us,ca" } })'),
      ),
    ).toEqual(['E0304 5:93 → ["us", "ca"]']);
    expect(
      await findings(
        job(
          '"{\\"where\\":{\\"key\\":\\"ClientCountry\\",\\"operator\\":\\"in\\",\\"value\\":\\"us,ca\\"}}"',
        ),
      ),
    ).toEqual(['E0304 5:91 → [\\"us\\", \\"ca\\"]']);
  });

  it("rewrites a comparison as HCL where its fix is several comparisons", async () => {
    expect(
      await findings(
        job(
          'jsonencode({ where = { key = "ClientIP", operator = "in", value = ["1.2.3.4", "10.0.0.0/8"] } })',
        ),
      ),
    ).toEqual([
      'W0124 5:100 → { or = [{ key = "ClientIP", operator = "eq", value = "1.2.3.4" }, { key = "ClientIP", operator = "startsWith", value = "10." }] }',
    ]);
    expect(
      await findings(job('jsonencode({ where = { key = "ClientCountry", operator = "eq", value = "US" } })')),
    ).toEqual(['W0126 5:93 → "us"']);
  });
});
