import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Script } from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import { CACHE_ID_LENGTH, CACHE_ID_MARK, codeCacheFile, wrapBundle } from "../../src/cli/command-bundles.js";
import { builtCli } from "../helpers/bundles.js";

// Built while the file is collected, outside any test's time limit.
const cli = builtCli();
const dist = join(cli, "..");
const source = "EdgeResponseStatus geq 500 and BotScore lt 30";
const expected = `${JSON.stringify({
  where: {
    and: [
      { key: "EdgeResponseStatus", operator: "geq", value: "500" },
      { key: "BotScore", operator: "lt", value: "30" },
    ],
  },
})}\n`;

const copies: string[] = [];
afterAll(() => {
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
});

/** A copy of the built CLI's entry, compile bundle and catalogs, whose compile cache `change` rewrites. */
function copyWithCache(change: (cache: Buffer) => Buffer): string {
  const copy = mkdtempSync(join(tmpdir(), "filterc-code-cache-"));
  copies.push(copy);
  for (const file of ["cli.cjs", "cli-compile.cjs", "catalogs"])
    cpSync(join(dist, file), join(copy, file), { recursive: true });
  const cache = codeCacheFile(join(copy, "cli-compile.cjs"));
  writeFileSync(cache, change(readFileSync(codeCacheFile(join(dist, "cli-compile.cjs")))));
  return join(copy, "cli.cjs");
}

const compileWith = (entry: string) =>
  execFileSync(process.execPath, [entry, "compile"], { input: source, encoding: "utf8" });

describe("code caches of the command bundles", () => {
  it("are written for the short commands, and V8 takes each with its bundle", () => {
    const caches = readdirSync(dist).filter((file) => file.endsWith(".cache"));
    expect(caches.sort()).toEqual(["cli-check.cjs.cache", "cli-compile.cjs.cache", "cli-fmt.cjs.cache"]);
    for (const cache of caches) {
      const bundle = join(dist, cache.slice(0, -".cache".length));
      const source = readFileSync(bundle, "utf8");
      const data = readFileSync(join(dist, cache));
      // The bundle ends with the id its cache starts with.
      expect(source.endsWith(`${CACHE_ID_MARK}${data.toString("latin1", 0, CACHE_ID_LENGTH)}\n`)).toBe(true);
      const script = new Script(wrapBundle(source), {
        filename: bundle,
        cachedData: data.subarray(CACHE_ID_LENGTH),
      });
      expect(script.cachedDataRejected).toBe(false);
    }
  });

  it("run the command as the bundle does alone, and a cache V8 refuses changes nothing", () => {
    expect(compileWith(cli)).toBe(expected);
    // A cache of this build for another Node: V8 refuses it and compiles the bundle itself.
    const damaged = copyWithCache((cache) =>
      Buffer.from(cache.map((byte, i) => (i >= CACHE_ID_LENGTH && i < 64 ? byte ^ 0xff : byte))),
    );
    expect(compileWith(damaged)).toBe(expected);
    const empty = copyWithCache(() => Buffer.alloc(0));
    expect(compileWith(empty)).toBe(expected);
  });

  it("is left aside for a bundle of another build", () => {
    const entry = copyWithCache((cache) => cache);
    const bundle = join(entry, "..", "cli-compile.cjs");
    // The same length, as V8 checks, and a different program: the cache would run the old one.
    const text = readFileSync(bundle, "utf8");
    const id = text.slice(-CACHE_ID_LENGTH - 1, -1);
    const changed = text
      .replace("Compiles filter source", "COMPILES filter source")
      .replace(`${CACHE_ID_MARK}${id}`, `${CACHE_ID_MARK}${"0".repeat(CACHE_ID_LENGTH)}`);
    expect(changed.length).toBe(text.length);
    writeFileSync(bundle, changed);
    const help = execFileSync(process.execPath, [entry, "compile", "--help"], { encoding: "utf8" });
    expect(help).toContain("\nCOMPILES filter source");
  });
});
