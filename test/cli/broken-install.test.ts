import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { builtCli } from "../helpers/bundles.js";
import { temporaryFolder } from "../helpers/folders.js";

// Built while the file is collected, outside any test's time limit.
const dist = join(builtCli(), "..");
const folder = temporaryFolder("filterc-broken-install-");

/** A copy of the built CLI without `missing`, and the path of its entry. */
function installWithout(missing: string): string {
  const copy = join(folder(), `without-${missing.replace("/", "-")}`, "dist");
  cpSync(dist, copy, { recursive: true });
  rmSync(join(copy, missing));
  return join(copy, "cli.cjs");
}

const run = (entry: string, args: string[], cwd: string) =>
  spawnSync(process.execPath, [entry, ...args], { cwd, encoding: "utf8" });

describe("an install with a file of its own missing", () => {
  it("says so and what to do, without a stack trace, when a command's bundle is gone", () => {
    const entry = installWithout("cli-explain.cjs");
    const result = run(entry, ["explain", "--expr", "BotScore lt 30"], folder());
    expect(result.stderr).toBe(
      "filterc: the install is incomplete: cli-explain.cjs is missing from filterc's files; install filterc again\n",
    );
    expect(result.stdout).toBe("");
    expect(result.status).toBe(70);
  });

  it("says so when check needs its on-demand part, and checks filter files without it", () => {
    const entry = installWithout("check-extras.cjs");
    const work = folder();
    mkdirSync(join(work, "infra"));
    writeFileSync(join(work, "infra", "main.tf"), "locals {\n  a = x[0]\n}\n");
    writeFileSync(join(work, "small.lpf"), "BotScore lt 30\n");
    const terraform = run(entry, ["check", "infra"], work);
    expect(terraform.stderr).toBe(
      "filterc: the install is incomplete: check-extras.cjs is missing from filterc's files; install filterc again\n",
    );
    expect(terraform.status).toBe(70);
    const filter = run(entry, ["check", "small.lpf"], work);
    expect([filter.stdout, filter.stderr, filter.status]).toEqual([
      "ok: 1 of 30 comparisons, 57 of 1000 bytes\n",
      "",
      0,
    ]);
  });

  it("names a catalog that is gone, and checks against the others", () => {
    const entry = installWithout("catalogs/http_requests.json");
    const compile = (args: string[], input: string) =>
      spawnSync(process.execPath, [entry, "compile", ...args], { cwd: folder(), input, encoding: "utf8" });
    const missing = compile([], "BotScore lt 30");
    expect([missing.stdout, missing.stderr, missing.status]).toEqual([
      "",
      "filterc: the install is incomplete: catalogs/http_requests.json is missing from filterc's files; install filterc again\n",
      70,
    ]);
    const other = compile(["--dataset", "gateway_dns"], 'QueryName eq "example.com"');
    expect([other.stdout, other.stderr, other.status]).toEqual([
      '{"where":{"key":"QueryName","operator":"eq","value":"example.com"}}\n',
      "",
      0,
    ]);
  });
});
