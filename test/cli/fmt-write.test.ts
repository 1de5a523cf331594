import { spawnSync } from "node:child_process";
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { builtCli, ensureBundles } from "../helpers/bundles.js";
import { runCli } from "../helpers/cli.js";

/* `fmt --write` writes a file as `check --fix` does (test/cli/check-fix-writes.test.ts). */

// Built while the file is collected, outside any test's time limit (one test runs the built CLI).
ensureBundles();

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "filterc-fmt-write-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const write = (name: string, text: string | Buffer) => {
  writeFileSync(join(folder, name), text);
  return join(folder, name);
};
const text = (name: string) => readFileSync(join(folder, name), "utf8");
const fmt = (...args: string[]) => runCli(["fmt", "--write", ...args], "", {}, false, folder);

const MESSY = "BotScore  lt  30 AND  BotScore gt 1\n";
const TIDY = "BotScore lt 30 and BotScore gt 1\n";

describe("fmt --write", () => {
  it("keeps the file's mode, its byte order mark and its line ends", async () => {
    const path = write("a.lpf", Buffer.from(`\uFEFF${MESSY.replace("\n", "\r\n")}`));
    chmodSync(path, 0o600);
    expect(await fmt(path)).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(readFileSync(path).equals(Buffer.from(`\uFEFF${TIDY.replace("\n", "\r\n")}`))).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readdirSync(folder)).toEqual(["a.lpf"]);
  });

  it("writes through a symbolic link, and refuses a file with a second name, going on with the others", async () => {
    write("real.txt", MESSY);
    symlinkSync("real.txt", join(folder, "link.lpf"));
    const linked = write("linked.lpf", MESSY);
    linkSync(linked, join(folder, "second.lpf"));
    const other = write("other.lpf", MESSY);
    const run = await fmt(join(folder, "link.lpf"), linked, other);
    expect(run).toEqual({
      code: 1,
      stdout: "",
      stderr: [
        "error[E0682]: not written: it has 2 names (hard links): replacing it would cut the link, and writing it in place could leave it torn at every name if the run stopped midway; give it one name, or change it by hand; the file is left as it is",
        ` --> ${linked}:1:1`,
        "  |",
        "1 | BotScore  lt  30 AND  BotScore gt 1",
        "  | ^",
        "1 error",
        "",
      ].join("\n"),
    });
    expect(lstatSync(join(folder, "link.lpf")).isSymbolicLink()).toBe(true);
    expect(text("real.txt")).toBe(TIDY);
    expect([text("linked.lpf"), text("second.lpf")]).toEqual([MESSY, MESSY]);
    expect(text("other.lpf")).toBe(TIDY);
  });

  it("leaves a file already formatted untouched", async () => {
    const path = write("a.lpf", TIDY);
    const before = statSync(path);
    expect(await fmt(path)).toEqual({ code: 0, stdout: "", stderr: "" });
    expect([statSync(path).ino, statSync(path).mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it("refuses what is no regular file, a missing file and a folder, without a stack trace", async () => {
    expect(await fmt(join(folder, "missing.lpf"))).toEqual({
      code: 1,
      stdout: "",
      stderr: `filterc fmt: cannot read ${join(folder, "missing.lpf")}: no such file\n`,
    });
    expect(await fmt(folder)).toEqual({
      code: 1,
      stdout: "",
      stderr: `filterc fmt: cannot read ${folder}: is a directory\n`,
    });
  });

  it("leaves the file whole and no temporary file when the write fails midway, and says why", () => {
    // `ulimit -f 0`: every write to a file fails (EFBIG), as on a full disk (ENOSPC).
    const path = write("a.lpf", MESSY);
    chmodSync(path, 0o600);
    const run = spawnSync(
      "sh",
      ["-c", 'ulimit -f 0 && exec "$@"', "sh", process.execPath, builtCli(), "fmt", "--write", "a.lpf"],
      {
        cwd: folder,
        encoding: "utf8",
      },
    );
    expect([run.status, run.stdout, run.stderr]).toEqual([
      1,
      "",
      "error[E0682]: not written: larger than the file size limit (ulimit -f) allows; the file is left as it is\n --> a.lpf:1:1\n  |\n1 | BotScore  lt  30 AND  BotScore gt 1\n  | ^\n1 error\n",
    ]);
    expect([text("a.lpf"), statSync(path).mode & 0o777]).toEqual([MESSY, 0o600]);
    expect(readdirSync(folder)).toEqual(["a.lpf"]);
  });
});
