/**
 * The repository's pre-commit hooks (`.pre-commit-hooks.yaml`), run by Debian's `pre-commit` on a
 * scratch git repository: `filterc-check` and `filterc-fmt` pass on good files, fail on a filter
 * mistake (in a filter file and in a Terraform file) and on an unformatted file, which fmt rewrites
 * so that the next run passes; installed as a git hook, they stop a bad commit. No network: the
 * hooks come from a local repository holding this checkout's manifest, and the hooks run the built
 * CLI as the `filterc` on PATH (language `system`: the manifest's `node` would have pre-commit
 * install the package from the registry).
 */
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { builtCli, ensureBundles } from "../helpers/bundles.js";

ensureBundles();

const root = fileURLToPath(new URL("../../", import.meta.url));
let temp: string;
let project: string;
let env: Record<string, string>;

function run(command: string, args: string[], cwd: string) {
  return new Promise<{ code: number; output: string }>((resolve) => {
    execFile(command, args, { cwd, env, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, output: stdout + stderr });
    });
  });
}

async function git(cwd: string, ...args: string[]) {
  const result = await run("git", args, cwd);
  if (result.code !== 0) throw new Error(`git ${args.join(" ")}: ${result.output}`);
  return result.output.trim();
}

const preCommit = () => run("pre-commit", ["run", "--all-files", "--color", "never"], project);

beforeAll(async () => {
  temp = await mkdtemp(join(tmpdir(), "filterc-pre-commit-"));
  await mkdir(join(temp, "bin"));
  await writeFile(
    join(temp, "bin", "filterc"),
    `#!/bin/sh\nexec "${process.execPath}" "${builtCli()}" "$@"\n`,
    {
      mode: 0o755,
    },
  );
  env = {
    PATH: `${join(temp, "bin")}:${process.env["PATH"] ?? ""}`,
    HOME: temp,
    PRE_COMMIT_HOME: join(temp, "cache"),
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.com",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.com",
    GIT_CONFIG_NOSYSTEM: "1",
  };
  // The hooks' repository: this checkout's manifest, committed.
  const hooks = join(temp, "hooks");
  await mkdir(hooks);
  await git(hooks, "init", "-q");
  await copyFile(join(root, ".pre-commit-hooks.yaml"), join(hooks, ".pre-commit-hooks.yaml"));
  await git(hooks, "add", ".");
  await git(hooks, "commit", "-q", "-m", "hooks");
  const rev = await git(hooks, "rev-parse", "HEAD");
  project = join(temp, "project");
  await mkdir(project);
  await git(project, "init", "-q");
  await writeFile(
    join(project, ".pre-commit-config.yaml"),
    `repos:\n  - repo: ${hooks}\n    rev: ${rev}\n    hooks:\n      - id: filterc-check\n        language: system\n      - id: filterc-fmt\n        language: system\n`,
  );
  await mkdir(join(project, "filters"));
  await writeFile(join(project, "filters", "errors.lpf"), "EdgeResponseStatus geq 500\n");
  await writeFile(join(project, "README.txt"), "botscore lt 30 is no filter file\n");
  await git(project, "add", ".");
});
afterAll(() => rm(temp, { recursive: true, force: true }));

describe("the manifest", () => {
  it("declares filterc-check and filterc-fmt on the files they read", async () => {
    const hooks = parse(await readFile(join(root, ".pre-commit-hooks.yaml"), "utf8"));
    expect(
      hooks.map((hook: { id: string; entry: string; files: string }) => [hook.id, hook.entry, hook.files]),
    ).toEqual([
      ["filterc-check", "filterc check", "\\.(lpf|tf)$"],
      ["filterc-fmt", "filterc fmt --write", "\\.lpf$"],
    ]);
  });
});

describe("pre-commit with the hooks", () => {
  it("passes on good files (and leaves other files alone)", async () => {
    const result = await preCommit();
    expect(result.output).toMatch(/filterc check\.+Passed/);
    expect(result.output).toMatch(/filterc fmt\.+Passed/);
    expect(result.code).toBe(0);
  });

  it("fails on a filter mistake, with the diagnostic at its place", async () => {
    await writeFile(join(project, "filters", "bots.lpf"), "botscore lt 30\n");
    await git(project, "add", ".");
    const result = await preCommit();
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/filterc check\.+Failed/);
    expect(result.output).toContain("error[E0202]");
    expect(result.output).toContain("filters/bots.lpf:1:1");
    await writeFile(join(project, "filters", "bots.lpf"), "BotScore lt 30\n");
    await git(project, "add", ".");
    expect((await preCommit()).code).toBe(0);
  });

  it("fails on a mistake in a Terraform job's filter", async () => {
    await writeFile(
      join(project, "main.tf"),
      'resource "cloudflare_logpush_job" "a" {\n  zone_id = "023e105f4ecef8ad9ca31a8372d0c353"\n  filter = jsonencode({ where = { key = "ClientIP", operator = "neq", value = "1.1.1.1" } })\n}\n',
    );
    await git(project, "add", ".");
    const result = await preCommit();
    expect(result.code).toBe(1);
    expect(result.output).toContain("error[E0511]");
    expect(result.output).toContain("main.tf:3:");
    await rm(join(project, "main.tf"));
    await git(project, "add", "-A");
  });

  it("rewrites an unformatted file and fails; the next run passes", async () => {
    await writeFile(join(project, "filters", "spaced.lpf"), 'BotScore   lt 30  AND ClientCountry == "us"\n');
    await git(project, "add", ".");
    const result = await preCommit();
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/filterc fmt\.+Failed/);
    expect(result.output).toContain("files were modified by this hook");
    expect(await readFile(join(project, "filters", "spaced.lpf"), "utf8")).toBe(
      'BotScore lt 30 and ClientCountry eq "us"\n',
    );
    await git(project, "add", ".");
    expect((await preCommit()).code).toBe(0);
  });

  it("installed as the git hook, stops a bad commit and lets a good one through", async () => {
    const installed = await run("pre-commit", ["install"], project);
    expect(installed.code, installed.output).toBe(0);
    await writeFile(join(project, "filters", "typo.lpf"), 'ClientIpp eq "1.1.1.1"\n');
    await git(project, "add", ".");
    const refused = await run("git", ["commit", "-q", "-m", "typo"], project);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("error[E0201]");
    expect(await run("git", ["rev-parse", "--verify", "HEAD"], project)).toMatchObject({ code: 128 });
    await writeFile(join(project, "filters", "typo.lpf"), 'ClientIP eq "1.1.1.1"\n');
    await git(project, "add", ".");
    const committed = await run("git", ["commit", "-q", "-m", "good"], project);
    expect(committed.code, committed.output).toBe(0);
    expect(await git(project, "log", "--format=%s")).toBe("good");
  });
});
