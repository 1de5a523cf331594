import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

/*
 * `check --fix` writes each file as it found it: its mode kept, its links kept (written through a
 * symbolic link, refused with several names), nothing outside the paths named, nothing changed
 * since it was read, and every byte outside a fix as it was.
 */

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "filterc-fix-writes-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const write = (name: string, text: string | Buffer) => {
  mkdirSync(dirname(join(folder, name)), { recursive: true });
  writeFileSync(join(folder, name), text);
  return join(folder, name);
};
const bytes = (name: string) => readFileSync(join(folder, name));
const text = (name: string) => readFileSync(join(folder, name), "utf8");
const check = (...args: string[]) => runCli(["check", ...args], "", {}, false, folder);

/** A filter with an operator Logpush does not know, as each kind of file writes it. */
const NEQ = '{"where":{"key":"ClientIP","operator":"neq","value":"1.1.1.1"}}';
const FIXED = NEQ.replace('"neq"', '"!eq"');
const hclString = (json: string) => JSON.stringify(json);
/** `file("${path.module}/PATH")`, HCL's read of a file beside the module's. */
const fileCall = (path: string) => `file("\${path.module}/${path}")`;
const job = (filter: string) =>
  `resource "cloudflare_logpush_job" "a" {\n  zone_id = "z"\n  filter  = ${filter}\n}\n`;

/** A module whose job's filter is in a `.tf` file, a `.tfvars` file or a `file()` JSON file. */
function module(where: "tf" | "tfvars" | "json", dir = "mod"): string {
  if (where === "tf") return write(`${dir}/main.tf`, job(hclString(NEQ)));
  write(`${dir}/main.tf`, job(where === "tfvars" ? "var.f" : fileCall("f.json")));
  if (where === "json") return write(`${dir}/f.json`, `${NEQ}\n`);
  write(`${dir}/vars.tf`, 'variable "f" {}\n');
  return write(`${dir}/terraform.tfvars`, `f = ${hclString(NEQ)}\n`);
}

const fixedLine = (file: string, column: number) =>
  `fixed ${file}:${file.endsWith(".json") ? 1 : 3}:${column}: replace with "!eq" (E0511)`;

describe("check --fix keeps a file's mode", () => {
  it.each(["tf", "tfvars", "json"] as const)("of the .%s file it fixes", async (where) => {
    const path = module(where);
    chmodSync(path, 0o600);
    const run = await check("--fix", "mod");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("ok: ");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, "utf8")).toContain(where === "json" ? FIXED : hclString(FIXED));
    expect(readdirSync(join(folder, "mod")).some((name) => name.includes(".tmp-"))).toBe(false);
  });

  it("of a filter file", async () => {
    const path = write("a.lpf", "BotScore lt 30 adn BotScore gt 1\n");
    chmodSync(path, 0o640);
    expect((await check("--fix", path)).code).toBe(0);
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(text("a.lpf")).toBe("BotScore lt 30 and BotScore gt 1\n");
  });
});

describe("check --fix keeps a file's links", () => {
  it.each(["tf", "tfvars", "json"] as const)(
    "refuses a .%s file with a second name, leaving both",
    async (where) => {
      const path = module(where);
      const before = readFileSync(path);
      linkSync(path, join(folder, "second-name"));
      const run = await check("--fix", "mod");
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      const name = `mod/${path.split("/").pop()}`;
      expect(run.stderr).toContain(
        `error[E0682]: not written: it has 2 names (hard links): replacing it would cut the link, and writing it in place could leave it torn at every name if the run stopped midway; give it one name, or change it by hand; the file is left as it is\n --> ${name}:1:1\n`,
      );
      // What it still holds is reported as without --fix.
      expect(run.stderr).toContain(
        'error[E0511]: /where/operator: unknown operator "neq"; did you mean "!eq"?',
      );
      expect(readFileSync(path).equals(before)).toBe(true);
      expect(bytes("second-name").equals(before)).toBe(true);
      expect(statSync(path).nlink).toBe(2);
    },
  );

  it("refuses a filter file with a second name, in words and in --json", async () => {
    const path = write("a.lpf", "BotScore lt 30 adn BotScore gt 1\n");
    linkSync(path, join(folder, "b.lpf"));
    const run = await check("--fix", path);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      [
        "error[E0682]: not written: it has 2 names (hard links): replacing it would cut the link, and writing it in place could leave it torn at every name if the run stopped midway; give it one name, or change it by hand; the file is left as it is",
        ` --> ${path}:1:1`,
        "  |",
        "1 | BotScore lt 30 adn BotScore gt 1",
        "  | ^",
        "",
        "error[E0112]: `adn` is not a keyword; did you mean `and`?",
        ` --> ${path}:1:16`,
        "  |",
        "1 | BotScore lt 30 adn BotScore gt 1",
        "  |                ^^^",
        "  = help: replace with `and`: and",
        "2 errors",
        "",
      ].join("\n"),
    );
    const json = JSON.parse((await check("--fix", "--json", path)).stdout);
    expect(json).toMatchObject({ ok: false, fixed: [] });
    expect(json.diagnostics.map((d: { code: string }) => d.code)).toEqual(["E0682", "E0112"]);
    expect(text("a.lpf")).toBe("BotScore lt 30 adn BotScore gt 1\n");
    expect(text("b.lpf")).toBe("BotScore lt 30 adn BotScore gt 1\n");
  });

  it("writes through a .tf or filter file named as a symbolic link: the link stays, its target is fixed", async () => {
    write("real/main.tf.txt", job(hclString(NEQ)));
    mkdirSync(join(folder, "link"));
    symlinkSync("../real/main.tf.txt", join(folder, "link/main.tf"), "file");
    const run = await check("--fix", "link/main.tf");
    expect(run).toEqual({
      code: 0,
      stdout: `${fixedLine("link/main.tf", 60)}\nok: 1 Terraform file checked\n`,
      stderr: "",
    });
    expect(lstatSync(join(folder, "link/main.tf")).isSymbolicLink()).toBe(true);
    expect(text("real/main.tf.txt")).toBe(job(hclString(FIXED)));
    const real = write("real/a.txt", "BotScore lt 30 adn BotScore gt 1\n");
    symlinkSync(real, join(folder, "a.lpf"));
    expect((await check("--fix", join(folder, "a.lpf"))).code).toBe(0);
    expect(lstatSync(join(folder, "a.lpf")).isSymbolicLink()).toBe(true);
    expect(text("real/a.txt")).toBe("BotScore lt 30 and BotScore gt 1\n");
  });
});

describe("check --fix writes only inside the paths named", () => {
  // A repository, as file() reads only inside one (or inside the folder named, outside one).
  beforeEach(() => mkdirSync(join(folder, ".git")));

  it("leaves a file()'s JSON outside the folder named, and fixes it once its folder is named", async () => {
    write("mod/main.tf", job(fileCall("../other/f.json")));
    write("other/f.json", `${NEQ}\n`);
    const run = await check("--fix", "mod");
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      [
        "error[E0681]: not written: the file is outside the paths named on the command line (reached through `file()` or a symbolic link); name it, or a folder holding it, for it to be written",
        " --> other/f.json:1:1",
        "  |",
        `1 | ${NEQ}`,
        "  | ^",
        "",
        'error[E0511]: /where/operator: unknown operator "neq"; did you mean "!eq"?',
        " --> other/f.json:1:39",
        "  |",
        `1 | ${NEQ}`,
        "  |                                       ^^^^^",
        '  = help: replace with "!eq": "!eq"',
        "2 errors",
        "",
      ].join("\n"),
    );
    expect(text("other/f.json")).toBe(`${NEQ}\n`);
    expect(await check("--fix", "mod", "other")).toEqual({
      code: 0,
      stdout: `${fixedLine("other/f.json", 39)}\nok: 1 Terraform file checked\n`,
      stderr: "",
    });
    expect(text("other/f.json")).toBe(`${FIXED}\n`);
  });

  it("leaves a .tfvars file beside a .tf file named alone, and a link out of the folder named", async () => {
    module("tfvars");
    const alone = await check("--fix", "mod/main.tf");
    expect(alone.code).toBe(1);
    expect(alone.stderr).toContain("error[E0681]: not written: the file is outside the paths named");
    expect(alone.stderr).toContain(" --> mod/terraform.tfvars:1:1\n");
    expect(text("mod/terraform.tfvars")).toBe(`f = ${hclString(NEQ)}\n`);
    write("other/f.json", `${NEQ}\n`);
    write("linked/main.tf", job(fileCall("f.json")));
    symlinkSync(join(folder, "other/f.json"), join(folder, "linked/f.json"));
    const linked = await check("--fix", "linked");
    expect(linked.code).toBe(1);
    expect(linked.stderr).toContain("error[E0681]: not written: the file is outside the paths named");
    expect(text("other/f.json")).toBe(`${NEQ}\n`);
  });
});

describe("check --fix writes only a file still as it was read", () => {
  it("leaves a file changed after it was read (here by the fix of its other name), says so and exits 1", async () => {
    const path = module("tf");
    symlinkSync("main.tf", join(folder, "mod/other-name.tf"));
    const run = await check("--fix", "mod/main.tf", "mod/other-name.tf");
    expect(run.code).toBe(1);
    // The first name's fix is written first; the file then no longer holds what the second name read.
    expect(run.stdout).toBe(`${fixedLine("mod/main.tf", 60)}\n`);
    expect(run.stderr).toBe(
      [
        "error[E0680]: not written: the file changed after filterc read it, so it is left as it now is; run the command again on what it holds now",
        " --> mod/other-name.tf:1:1",
        "  |",
        '1 | resource "cloudflare_logpush_job" "a" {',
        "  | ^",
        "1 error",
        "",
      ].join("\n"),
    );
    expect(readFileSync(path, "utf8")).toBe(job(hclString(FIXED)));
  });
});

describe("check --fix changes only the bytes of the fix", () => {
  it.each(["tf", "tfvars"] as const)("keeps a Latin-1 byte elsewhere in a .%s file", async (where) => {
    const path = module(where);
    const latin1 = Buffer.from("# caf\xe9 \xff\n", "latin1");
    writeFileSync(path, Buffer.concat([latin1, readFileSync(path), latin1]));
    const run = await check("--fix", "mod");
    expect(run.code).toBe(0);
    const fixed = Buffer.from(where === "tf" ? job(hclString(FIXED)) : `f = ${hclString(FIXED)}\n`);
    expect(readFileSync(path).equals(Buffer.concat([latin1, fixed, latin1]))).toBe(true);
  });

  it("keeps a Latin-1 byte elsewhere in a file()'s JSON", async () => {
    const path = module("json");
    const withValue = (operator: string) =>
      Buffer.from(
        `{"where":{"key":"ClientRequestPath","operator":"${operator}","value":"/caf\xe9"}}\n`,
        "latin1",
      );
    writeFileSync(path, withValue("neq"));
    const run = await check("--fix", "mod");
    expect(run.stdout).toBe(`${fixedLine("mod/f.json", 48)}\nok: 1 Terraform file checked\n`);
    expect(readFileSync(path).equals(withValue("!eq"))).toBe(true);
  });

  it("refuses a filter file that is not UTF-8, writing nothing", async () => {
    const path = write("a.lpf", Buffer.from("BotScore lt 30 adn BotScore gt 1 # caf\xe9\n", "latin1"));
    const run = await check("--fix", path);
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr: `filterc check: ${path} is not valid UTF-8: byte 38 (0xE9) is not; save it as UTF-8\n`,
    });
  });
});
