import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkTerraform } from "../../src/terraform/index.js";
import { ensureBundles } from "../helpers/bundles.js";
import { spawnCli } from "../helpers/cli.js";
import { temporaryFolder } from "../helpers/folders.js";

ensureBundles();

/*
 * file() reads only inside the folder checked or the repository holding it: a configuration from a
 * pull request must not print the runner's files (its environment, keys) into a CI log.
 */

const folder = temporaryFolder("filterc-terraform-file-reads-");
let count = 0;

const SECRET = "planted-secret-0c1d7e";
const job = (name: string, filter: string) =>
  `resource "cloudflare_logpush_job" "${name}" {\n  zone_id = "z"\n  filter  = ${filter}\n}\n`;
const filter = '{"where":{"key":"ClientIP","operator":"eq","value":"1.1.1.1"}}\n';

/** A repository (with `.git`) holding `infra/`, and a secret file beside the repository. */
async function layout(files: Record<string, string>, repository = true) {
  const top = join(folder(), `case-${count++}`);
  const repo = join(top, "repo");
  await mkdir(join(repo, "infra"), { recursive: true });
  await mkdir(join(repo, "shared"));
  if (repository) await mkdir(join(repo, ".git"));
  await writeFile(join(top, "secret.json"), `{"token": "${SECRET}"}\n`);
  await writeFile(join(repo, "shared", "filter.json"), filter);
  for (const [name, text] of Object.entries(files)) await writeFile(join(repo, "infra", name), text);
  return { top, repo, infra: join(repo, "infra") };
}

async function found(dir: string) {
  const checked = await checkTerraform(["."], dir);
  return checked.flatMap(({ file, diagnostics }) =>
    diagnostics.map(
      (d) => `${file.name} ${d.code} ${d.range.start.line}:${d.range.start.column} ${d.message}`,
    ),
  );
}

const outside = (path: string, job: string, reason: string) =>
  `file(${path}) is not read, so the filter of cloudflare_logpush_job.${job} is not checked: ${reason} (file() may read only files inside the folder checked or the repository that holds it)`;

describe("file() in a checked configuration", () => {
  it("reads no absolute path, no .. out of the repository, no link that leads out of it", async () => {
    const { infra } = await layout({
      "a.tf": [
        job("environ", 'file("/proc/self/environ")'),
        job("up", 'file("../../secret.json")'),
        // biome-ignore lint/suspicious/noTemplateCurlyInString: an HCL interpolation, not a JavaScript one
        job("link", 'file("${path.module}/linked.json")'),
        job("shared", 'file("../shared/filter.json")'),
      ].join(""),
    });
    await symlink(join(infra, "..", "..", "secret.json"), join(infra, "linked.json"));
    expect(await found(infra)).toEqual([
      `a.tf W0902 3:13 ${outside('"/proc/self/environ"', "environ", "it is an absolute path")}`,
      `a.tf W0902 7:13 ${outside('"../../secret.json"', "up", "it leads out of the folder checked")}`,
      `a.tf W0902 11:13 ${outside('"./linked.json"', "link", "a link in it leads out of the folder checked")}`,
    ]);
  });

  it("reads only inside the folder checked when no repository holds it", async () => {
    const { infra } = await layout({ "a.tf": job("shared", 'file("../shared/filter.json")') }, false);
    expect(await found(infra)).toEqual([
      `a.tf W0902 3:13 ${outside('"../shared/filter.json"', "shared", "it leads out of the folder checked")}`,
    ]);
    // Checked from the repository's top, the same file is inside what is checked, and read.
    expect(await found(join(infra, ".."))).toEqual([]);
  });

  it("reports a file that holds no filter at the file() call, with only its start escaped", async () => {
    const { infra } = await layout({ "a.tf": job("notes", 'file("notes.txt")') });
    await writeFile(join(infra, "notes.txt"), `token\t${SECRET} and the rest of a long line\nline 2\n`);
    expect(await found(infra)).toEqual([
      'a.tf E0906 3:13 the file notes.txt that file() reads holds no filter (invalid JSON: unexpected character at 1:1); it begins "token\\tplanted-secret-0c1d7e …"',
    ]);
  });

  it("names a file that holds no filter on one line, whatever its name holds", async () => {
    const name = "f\nok: fake.json";
    const { infra } = await layout({ "a.tf": job("nl", 'file("f\\nok: fake.json")') });
    await writeFile(join(infra, name), "NOT A FILTER\n");
    const message =
      'the file f\nok: fake.json that file() reads holds no filter (invalid JSON: unexpected character at 1:1); it begins "NOT A FILTER"';
    expect(await found(infra)).toEqual([`a.tf E0906 3:13 ${message}`]);
    // The report keeps a message on one line: the name cannot start a line of its own.
    const result = await spawnCli(["check", "a.tf"], "", {}, infra);
    expect([result.code, result.stderr.split("\n")[0]]).toEqual([
      1,
      `error[E0906]: ${message.replace("\n", "<U+000A>")}`,
    ]);
  });

  it("takes a JSON object with neither where nor a comparison's keys for no filter, and still wraps a comparison", async () => {
    const { infra } = await layout({
      "a.tf": job("settings", 'file("settings.json")') + job("bare", 'file("bare.json")'),
    });
    await writeFile(join(infra, "settings.json"), `{"name": "app", "token": "${SECRET}"}\n`);
    await writeFile(join(infra, "bare.json"), '{"key": "ClientIP", "operator": "eq", "value": "1.1.1.1"}\n');
    expect(await found(infra)).toEqual([
      'a.tf E0906 3:13 the file settings.json that file() reads holds no filter (the filter has no "where"; a filter is {"where": <comparison or group>} at 1:1); it begins "{\\"name\\": \\"app\\", \\"token\\"…"',
      'bare.json E0504 1:1 the filter has no "where"; a filter is {"where": <comparison or group>}',
    ]);
  });

  it("never prints the environment or a file outside the repository (the built CLI)", async () => {
    const { infra } = await layout({
      "a.tf": job("environ", 'file("/proc/self/environ")') + job("up", 'file("../../secret.json")'),
    });
    const result = await spawnCli(["check", "a.tf"], "", { FILTERC_PLANTED: SECRET }, infra);
    expect(result).toEqual({
      code: 0,
      stdout: "ok: 1 Terraform file checked\n",
      stderr: [
        `warning[W0902]: ${outside('"/proc/self/environ"', "environ", "it is an absolute path")}`,
        " --> a.tf:3:13",
        "  |",
        '3 |   filter  = file("/proc/self/environ")',
        "  |             ^^^^^^^^^^^^^^^^^^^^^^^^^^",
        "",
        `warning[W0902]: ${outside('"../../secret.json"', "up", "it leads out of the folder checked")}`,
        " --> a.tf:7:13",
        "  |",
        '7 |   filter  = file("../../secret.json")',
        "  |             ^^^^^^^^^^^^^^^^^^^^^^^^^",
        "2 warnings",
        "",
      ].join("\n"),
    });
    expect(result.stderr).not.toContain(SECRET);
  });
});
