import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { moduleFile } from "../../src/files/index.js";
import { temporaryFolder } from "../helpers/folders.js";
import { sourceFiles, src } from "../helpers/sources.js";

const folder = temporaryFolder("filterc-module-file-");

/*
 * A module finds the files beside it (the HCL parser's WebAssembly, eval's worker, the pages) from
 * its own file: in the sources, in an ES module bundle, and in a CommonJS bundle made with no shim
 * for `import.meta` (the VS Code extension's server), where `import.meta` is empty.
 */
describe("moduleFile", () => {
  it("is the module's own file in the sources", () => {
    expect(moduleFile(import.meta.url)).toBe(fileURLToPath(import.meta.url));
  });

  it.each(["cjs", "esm"] as const)("is the bundle's file in a %s bundle", async (format) => {
    const dir = folder();
    const entry = join(dir, "entry.ts");
    writeFileSync(
      entry,
      `import { moduleFile } from ${JSON.stringify(fileURLToPath(new URL("../../src/files/module-file.ts", import.meta.url)))};\nconsole.log(moduleFile(import.meta.url));\n`,
    );
    const outfile = join(dir, format === "cjs" ? "bundle.cjs" : "bundle.mjs");
    await build({
      entryPoints: [entry],
      outfile,
      bundle: true,
      format,
      platform: "node",
      logLevel: "silent",
    });
    expect(execFileSync(process.execPath, [outfile], { encoding: "utf8" })).toBe(`${outfile}\n`);
  });

  it("is how every module of src/ reads its own place: no bare import.meta, which a CommonJS bundle empties", () => {
    const bare = sourceFiles()
      .filter((file) => !file.endsWith("module-file.ts"))
      .flatMap((file) =>
        readFileSync(file, "utf8")
          .split("\n")
          .map((line, index) => ({ line: line.replaceAll("moduleFile(import.meta.url)", ""), index }))
          .filter(({ line }) => /import\.meta/.test(line.replace(/\/\/.*$|^\s*\*.*$/, "")))
          .map(({ index }) => `${relative(src, file)}:${index + 1}`),
      );
    expect(bare).toEqual([]);
  });
});
