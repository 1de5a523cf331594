import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkTerraform, writeFixes } from "../../src/terraform/index.js";
import { temporaryFolder } from "../helpers/folders.js";

const folder = temporaryFolder("filterc-terraform-checks-");
let count = 0;

/** Writes the files in a fresh folder and checks it; the findings as `FILE CODE L:C`. */
async function check(files: Record<string, string>, options = {}) {
  const dir = join(folder(), `case-${count++}`);
  await import("node:fs/promises").then((fs) => fs.mkdir(dir));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  const checked = await checkTerraform(["."], dir, options);
  const found = checked.flatMap(({ file, diagnostics }) =>
    diagnostics.map((d) => `${file.name} ${d.code} ${d.range.start.line}:${d.range.start.column}`),
  );
  return { dir, checked, found };
}

const ruleset = (name: string, count: number) => `resource "cloudflare_ruleset" "${name}" {
  zone_id = "z"
  phase   = "http_log_custom_fields"
  rules = [{
    action     = "log_custom_field"
    expression = "true"
    action_parameters = {
      request_fields = [${Array.from({ length: count }, (_, i) => `{ name = "h${name}${i}" }`).join(", ")}]
    }
  }]
}
`;

describe("the Terraform checks", () => {
  it("counts at most 100 custom fields in each list across a zone's rulesets, or the seed's 40 in all", async () => {
    expect((await check({ "a.tf": ruleset("a", 100) })).found).toEqual([]);
    expect((await check({ "a.tf": ruleset("a", 101) })).found).toEqual(["a.tf E0632 8:24"]);
    const seed = { customFieldsLimit: "seed" };
    expect((await check({ "a.tf": ruleset("a", 40) }, seed)).found).toEqual([]);
    expect((await check({ "a.tf": ruleset("a", 41) }, seed)).found).toEqual(["a.tf E0607 7:25"]);
    // Two rulesets of one zone: one too many, and their fields counted together.
    expect((await check({ "a.tf": ruleset("a", 60), "b.tf": ruleset("b", 41) })).found).toEqual([
      "b.tf E0905 1:31",
      "b.tf E0632 8:24",
    ]);
    expect((await check({ "a.tf": ruleset("a", 30), "b.tf": ruleset("b", 11) }, seed)).found).toEqual([
      "b.tf E0905 1:31",
      "b.tf E0607 7:25",
    ]);
  });

  it("bounds the size of a file: a larger one is one error, and the others are checked", async () => {
    const { found } = await check(
      { "big.tf": `# ${"x".repeat(2000)}\n`, "small.tf": 'resource "cloudflare_logpush_job" "a" {\n}\n' },
      { maxFileBytes: 1000 },
    );
    expect(found).toEqual(["big.tf E0901 1:1", "small.tf E0904 1:35"]);
  });

  it("reads only regular .tf and .tfvars files, and skips .terraform/", async () => {
    const { dir } = await check({});
    await import("node:fs/promises").then(async (fs) => {
      await fs.mkdir(join(dir, ".terraform"));
      await fs.mkdir(join(dir, "sub"));
    });
    await writeFile(join(dir, ".terraform", "bad.tf"), "a = \n");
    await writeFile(join(dir, "sub", "bad.tf"), "a = \n");
    await writeFile(join(dir, "notes.txt"), "a = \n");
    const checked = await checkTerraform(["."], dir);
    expect(checked.map(({ file, diagnostics }) => `${file.name} ${diagnostics.map((d) => d.code)}`)).toEqual([
      "sub/bad.tf E0900",
    ]);
  });

  it("writes fixes through a renamed temporary file, leaving none behind", async () => {
    const { dir, checked } = await check({
      "a.tf":
        'resource "cloudflare_logpush_job" "a" {\n  zone_id = "z"\n  filter  = "{\\"key\\":\\"ClientIP\\",\\"operator\\":\\"neq\\",\\"value\\":\\"1.1.1.1\\"}"\n}\n',
    });
    // The wrap holds the operator: a fix inside another waits for the next round.
    const first = (await writeFixes(checked, { within: [dir] })).written;
    expect(first.flatMap(({ applied }) => applied.map((d) => d.code))).toEqual(["E0504"]);
    const second = (await writeFixes(await checkTerraform(["."], dir), { within: [dir] })).written;
    expect(second.flatMap(({ applied }) => applied.map((d) => d.code))).toEqual(["E0511"]);
    expect(await readdir(dir)).toEqual(["a.tf"]);
    expect((await checkTerraform(["."], dir)).flatMap(({ diagnostics }) => diagnostics)).toEqual([]);
  });

  it("applies the fixes of letter case as filter source's --fix does, and leaves a guess as help", async () => {
    const job = (filter: string) =>
      `resource "cloudflare_logpush_job" "a" {\n  zone_id = "z"\n  filter  = jsonencode(${filter})\n}\n`;
    const { dir, checked } = await check({
      "a.tf": job(
        '{ where = { and = [{ key = "ClientRequestPath", operator = "startswith", value = "/api" }, { key = "ClientIp", operator = "eq", value = "1.1.1.1" }, { key = "ClientRequestHots", operator = "eq", value = "a" }] } }',
      ),
    });
    const { written } = await writeFixes(checked, { within: [dir] });
    expect(written.flatMap(({ applied }) => applied.map((d) => d.code))).toEqual(["E0511", "E0202"]);
    expect(await readFile(join(dir, "a.tf"), "utf8")).toBe(
      job(
        '{ where = { and = [{ key = "ClientRequestPath", operator = "startsWith", value = "/api" }, { key = "ClientIP", operator = "eq", value = "1.1.1.1" }, { key = "ClientRequestHots", operator = "eq", value = "a" }] } }',
      ),
    );
    // The misspelt field is a guess by edit distance: shown with its help, not applied.
    const left = (await checkTerraform(["."], dir)).flatMap(({ diagnostics }) => diagnostics);
    expect(left.map((d) => [d.code, d.suggestion?.replacement])).toEqual([["E0201", '"ClientRequestHost"']]);
  });

  it("writes no fix into a file edited after it was checked: the edit stays, and E0680 says why", async () => {
    const filter =
      '"{\\"where\\":{\\"key\\":\\"ClientIP\\",\\"operator\\":\\"neq\\",\\"value\\":\\"1.1.1.1\\"}}"';
    const text = `resource "cloudflare_logpush_job" "a" {\n  zone_id = "z"\n  filter  = ${filter}\n}\n`;
    const { dir, checked } = await check({ "a.tf": text });
    const edited = `# edited meanwhile\n${text}`;
    await writeFile(join(dir, "a.tf"), edited);
    const { written, refused } = await writeFixes(checked, { within: [dir] });
    expect(written).toEqual([]);
    expect(
      refused.map(({ file, problem }) => [file.file.name, problem.code, problem.range.start.offset]),
    ).toEqual([["a.tf", "E0680", 0]]);
    expect(await readFile(join(dir, "a.tf"), "utf8")).toBe(edited);
    expect(await readdir(dir)).toEqual(["a.tf"]);
  });

  it("masks the credentials of a destination in the text excerpts show", async () => {
    const text =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: an HCL interpolation, not a JavaScript one
      'resource "cloudflare_logpush_job" "a" {\n  zone_id          = "z"\n  destination_conf = "r2://${var.b}/l?account-id=abc&access-key-id=AKIDSECRET1&secret-access-key=SECRETKEY12345"\n}\n';
    const { checked } = await check({ "a.tf": text });
    expect(checked[0]!.diagnostics.map((d) => d.code)).toEqual(["W0900"]);
    expect(checked[0]!.shown).toBe(
      text.replace("AKIDSECRET1", "*".repeat(11)).replace("SECRETKEY12345", "*".repeat(14)),
    );
  });

  it("masks the credentials of a destination written elsewhere: a .tfvars value, a variable's default, escaped", async () => {
    const job = (name: string, reference: string) =>
      `resource "cloudflare_logpush_job" "${name}" {\n  zone_id          = "z"\n  destination_conf = ${reference}\n}\n`;
    const tf = `${job("a", "var.dest")}${job("b", "var.other")}variable "dest" {}\nvariable "other" {\n  default = "r2://b/l?access-key-id=AKID\\u0053ECRET2&secret-access-key=KEY2"\n}\n`;
    const tfvars = 'dest = "r2://b/l?access-key-id=AKIDSECRET1&secret-access-key=SECRETKEY12345"\n';
    const { checked, found } = await check({ "a.tf": tf, "terraform.tfvars": tfvars });
    expect(found).toEqual(["a.tf E0610 11:13", "terraform.tfvars E0610 1:8"]);
    expect(checked[0]!.shown).toBe(tf.replace("AKID\\u0053ECRET2", "*".repeat(16)).replace("KEY2", "****"));
    expect(checked[1]!.shown).toBe(
      tfvars.replace("AKIDSECRET1", "*".repeat(11)).replace("SECRETKEY12345", "*".repeat(14)),
    );
  });

  it("reports a wrong field name at its string, in v5's output_options and v4's block", async () => {
    const job = (options: string) =>
      `resource "cloudflare_logpush_job" "a" {\n  zone_id          = "z"\n  destination_conf = "s3://logs/http?region=us-west-2"\n${options}}\n`;
    const v5 = '  output_options = {\n    field_names = ["ClientIP", "NoSuchField", "ClientIP"]\n  }\n';
    const v4 = '  output_options {\n    field_names = [\n      "RayID",\n      "EdgeStatus",\n    ]\n  }\n';
    expect((await check({ "a.tf": job(v5) })).found).toEqual(["a.tf E0612 5:32", "a.tf E0613 5:47"]);
    expect((await check({ "a.tf": job(v4) })).found).toEqual(["a.tf E0612 7:7"]);
  });

  it("reports each bad part of a logpull_options string at that part", async () => {
    const job = (logpull: string) =>
      `resource "cloudflare_logpush_job" "a" {\n  zone_id          = "z"\n  destination_conf = "s3://logs/http?region=us-west-2"\n  logpull_options  = ${logpull}\n}\n`;
    const { checked } = await check({
      "a.tf": job('"fields=ClientIP,NoSuch,RayID&timestamps=unix2&sampel=1&oops&fields=RayID&sample=2"'),
    });
    expect(
      checked[0]!.diagnostics.map(
        (d) => `${d.code} ${d.range.start.line}:${d.range.start.column}-${d.range.end.column}`,
      ),
    ).toEqual([
      "E0612 4:39-45",
      "E0614 4:63-68",
      "E0622 4:69-77",
      "E0625 4:78-82",
      "E0625 4:83-95",
      "E0618 4:103-104",
    ]);
    // Through escapes: the part is where its characters are written.
    const escaped = await check({ "a.tf": job('"fields=RayID&\\u0074imestamps=x"') });
    expect(escaped.found).toEqual(["a.tf E0614 4:52"]);
    // A whole URL is one problem, at the whole string.
    const url = await check({ "a.tf": job('"https://api.cloudflare.com/logs?fields=RayID"') });
    expect(url.found).toEqual(["a.tf E0625 4:22"]);
  });
});
