// Bundles exports of a source tree's modules into one ES module with esbuild: how the compile
// benches load the steps of this checkout and of an older one, built or not, side by side.
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

/** The compile's steps the benches call, each by the file under `src/` that exports it. */
export const STEP_MODULES = {
  scan: "syntax/lexer.ts",
  parseWellFormed: "syntax/well-formed.ts",
  lintTokens: "syntax/token-lints.ts",
  readKeywordSlips: "syntax/typos.ts",
  parse: "syntax/parse.ts",
  Checker: "check/checker.ts",
  toNegationNormalForm: "check/negate.ts",
  findConstantGroups: "check/satisfiability.ts",
  findConstantFilter: "check/meaning/constant-filter.ts",
  analyzeExpr: "check/analyze.ts",
  check: "check/check.ts",
  optimize: "emit/optimize.ts",
  serialize: "emit/serialize.ts",
  emitMeaning: "emit/emit.ts",
  compile: "compile.ts",
  getCatalog: "catalog/index.ts",
};

/**
 * The bindings of `modules` (each a binding and its file under `src/`) of the tree at `root`,
 * bundled into `dir`/`name`.mjs; returns the module's URL.
 */
export async function bundleSource(root, modules, dir, name) {
  const entry = join(dir, `${name}.ts`);
  writeFileSync(
    entry,
    Object.entries(modules)
      .map(([binding, file]) => `export { ${binding} } from ${JSON.stringify(resolve(root, "src", file))};`)
      .join("\n"),
  );
  const outfile = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "node",
    outfile,
    logLevel: "error",
  });
  return pathToFileURL(outfile).href;
}
