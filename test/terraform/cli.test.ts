import { cp, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ensureBundles } from "../helpers/bundles.js";
import { runCli, spawnCli } from "../helpers/cli.js";
import { temporaryFolder } from "../helpers/folders.js";

ensureBundles();

const corpus = fileURLToPath(new URL("../fixtures/terraform/", import.meta.url));
const folder = temporaryFolder("filterc-terraform-");
let copies = 0;

/** A fresh copy of the corpus, and `filterc` run in it in-process. */
async function corpusCopy() {
  const dir = join(folder(), `copy-${copies++}`);
  await cp(corpus, dir, { recursive: true });
  const run = (...args: string[]) => runCli(args, "", {}, false, dir);
  const read = (path: string) => readFile(join(dir, path), "utf8");
  return { dir, run, read };
}

describe("filterc check on Terraform files", () => {
  it("passes the correct files of both provider generations (the built CLI)", async () => {
    const v4 = fileURLToPath(new URL("../fixtures/terraform/v4", import.meta.url));
    const v5 = fileURLToPath(new URL("../fixtures/terraform/v5/main.tf", import.meta.url));
    expect(await spawnCli(["check", v4, v5])).toEqual({
      code: 0,
      stdout: "ok: 2 Terraform files checked\n",
      stderr: "",
    });
  });

  it("reports at FILE.tf:LINE:COL, as for filter files, and exits 1 on errors", async () => {
    const { run } = await corpusCopy();
    const result = await run("check", "mistakes-v4/main.tf");
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(
      [
        'error[E0512]: /where/value: "in" takes a JSON array, not a comma-joined string (Logpush rejects it); write [200,201]',
        "  --> mistakes-v4/main.tf:25:68",
        "   |",
        '25 |     where = { key = "EdgeResponseStatus", operator = "in", value = "200,201" }',
        "   |                                                                    ^^^^^^^^^",
        "   = help: replace with [200,201]: [200, 201]",
      ].join("\n"),
    );
    expect(result.stderr.endsWith("\n9 errors, 1 note\n")).toBe(true);
  });

  it("applies only the safe fixes, in place, keeping the rest byte for byte", async () => {
    const { run, read } = await corpusCopy();
    const before = await read("mistakes-v4/main.tf");
    const result = await run("check", "--fix", "mistakes-v4");
    expect(result.stdout).toBe(
      [
        'fixed mistakes-v4/main.tf:9:69: replace with "!eq" (E0511)',
        'fixed mistakes-v4/main.tf:17:23: wrap it in {"where": …} (E0504)',
        "fixed mistakes-v4/main.tf:25:68: replace with [200,201] (E0512)",
        "fixed mistakes-v4/main.tf:79:29: write it in lower case (E0630)",
        "",
      ].join("\n"),
    );
    const expected = before
      .replace('\\"operator\\":\\"neq\\"', '\\"operator\\":\\"!eq\\"')
      .replace(
        '"{\\"key\\":\\"ClientRequestHost\\",\\"operator\\":\\"eq\\",\\"value\\":\\"example.com\\"}"',
        '"{\\"where\\":{\\"key\\":\\"ClientRequestHost\\",\\"operator\\":\\"eq\\",\\"value\\":\\"example.com\\"}}"',
      )
      .replace('value = "200,201"', "value = [200, 201]")
      .replace('["Content-Type", "x-forwarded-for"]', '["content-type", "x-forwarded-for"]');
    expect(expected).not.toBe(before);
    expect(await read("mistakes-v4/main.tf")).toBe(expected);
    // What remains has no safe fix: the next run changes nothing.
    expect(result.stderr.endsWith("\n5 errors, 1 note\n")).toBe(true);
    const again = await run("check", "--fix", "mistakes-v4");
    expect(again.stdout).toBe("");
    expect(await read("mistakes-v4/main.tf")).toBe(expected);
  });

  it("fixes a name written in a local, and jsonencode values, as HCL", async () => {
    const { run, read } = await corpusCopy();
    const before = await read("mistakes-v5/main.tf");
    await run("check", "--fix", "mistakes-v5");
    expect(await read("mistakes-v5/main.tf")).toBe(
      before.replace('operator = "neq"', 'operator = "!eq"').replace('"X-Request-Id"', '"x-request-id"'),
    );
  });

  it("reports a file that is not valid HCL at its place, checks the others, and never fixes it", async () => {
    const { dir, run, read } = await corpusCopy();
    const broken =
      'resource "cloudflare_logpush_job" "x" {\n  zone_id = "z"\n  filter  = "{\\"key\\":\\"a\\",\\"operator\\":\\"neq\\"}\n}\n';
    await writeFile(join(dir, "mistakes-v4/broken.tf"), broken);
    const result = await run("check", "--fix", "mistakes-v4");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'error[E0900]: invalid HCL: unterminated string: it has no closing `"` on its line\n --> mistakes-v4/broken.tf:3:13\n',
    );
    expect(result.stdout).toContain("fixed mistakes-v4/main.tf:17:23");
    expect(result.stdout).not.toContain("broken.tf");
    expect(await read("mistakes-v4/broken.tf")).toBe(broken);
  });

  it("never writes a file name's control characters to the terminal", async () => {
    const { dir, run } = await corpusCopy();
    const name = "odd\u001b[31m.tf";
    await writeFile(
      join(dir, "v4", name),
      'resource "cloudflare_logpush_job" "a" {\n  zone_id = "z"\n  filter  = "{\\"key\\":\\"ClientIP\\",\\"operator\\":\\"eq\\",\\"value\\":\\"1.1.1.1\\"}"\n}\n',
    );
    const result = await run("check", "--fix", "v4");
    expect(result.stdout).toBe(
      'fixed v4/odd<U+001B>[31m.tf:3:14: wrap it in {"where": …} (E0504)\nok: 2 Terraform files checked\n',
    );
    expect(result.stderr).toBe("");
  });

  it("prints {ok, files} with --json: each file with findings, notes with their own severity", async () => {
    const { run } = await corpusCopy();
    const result = await run("check", "--json", "mistakes-v5");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("");
    const printed = JSON.parse(result.stdout) as {
      ok: boolean;
      files: {
        file: string;
        diagnostics: { code: string; severity: string; range: { start: { line: number } } }[];
      }[];
    };
    expect(printed.ok).toBe(false);
    expect(printed.files.map((file) => file.file)).toEqual([
      "mistakes-v5/filter.json",
      "mistakes-v5/main.tf",
    ]);
    expect(printed.files[1]!.diagnostics.find((d) => d.code === "W0900")).toMatchObject({
      severity: "note",
      range: { start: { line: 36 } },
    });
  });

  it("refuses the flags of filter files on Terraform input", async () => {
    const { run } = await corpusCopy();
    expect(await run("check", "--dataset", "dns_logs", "v4")).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--dataset, --catalog and --no-optimize apply to filter files"),
    });
    // --fix on filter files is no usage error: test/cli/check-fix.test.ts has it.
    expect(await run("check", "--fix", "-")).toEqual({
      code: 0,
      stdout: "",
      stderr: "ok: empty filter (no filter)\n",
    });
  });
});
