// The esbuild plugins of the CLI's bundles, shared by tsup.config.ts (the build) and
// bench/startup-modules.mjs (which builds the short commands again, marked, to time each module),
// and by editors/vscode/build.mjs (the HCL runtime of the extension's server):
// one definition, so that the bench measures what the build makes.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);

/** A path of this checkout, from its root. */
const fromRoot = (path) => fileURLToPath(new URL(`../${path}`, import.meta.url));

/**
 * Parts of a short command that it loads only when asked (`src/cli/check-extras.ts`: the Terraform
 * check, the reports of several files and `--fix`), each built as a file of its own beside the
 * bundles, with the chunks the other commands share: the short command's bundle, which every start
 * reads and deserializes whole, then holds only what a filter file's run needs.
 */
export const ON_DEMAND_PARTS = ["check-extras"];

/** `import("../check-extras.js")` in a short command → a require of the sibling `./check-extras.cjs`. */
export const onDemandPartsAsSiblings = {
  name: "on-demand-parts-as-siblings",
  setup(build) {
    const names = ON_DEMAND_PARTS.join("|");
    build.onResolve({ filter: new RegExp(`^\\.\\./(${names})\\.js$`) }, (args) => ({
      path: `./${basename(args.path, ".js")}.cjs`,
      external: true,
    }));
  },
};

/**
 * Embedded DuckDB stays a package of its own, required when `filterc query` runs: it is an optional
 * dependency with a native engine, which no bundle can hold.
 */
const duckdbExternal = {
  name: "duckdb-external",
  setup(build) {
    build.onResolve({ filter: /^@duckdb\// }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * `ws` (bundled into tail and the sandbox) tries its optional native helpers, `bufferutil` and
 * `utf-8-validate`, inside try/catch, and uses its own JavaScript without them: they are not
 * installed, and a bundle never asks for them (which would make them dependencies).
 */
const wsWithoutNativeHelpers = {
  name: "ws-without-native-helpers",
  setup(build) {
    build.onResolve({ filter: /^(bufferutil|utf-8-validate)$/ }, (args) => ({
      path: args.path,
      namespace: "absent-native-helper",
    }));
    build.onLoad({ filter: /.*/, namespace: "absent-native-helper" }, () => ({
      contents: 'throw new Error("not bundled: ws uses its JavaScript code")',
      loader: "js",
    }));
  },
};

/**
 * The HCL parser's runtime in its CommonJS form: the ES module form declares a `require` of its
 * own, which in a CommonJS bundle hides the one it calls first.
 */
export const treeSitterAsCommonJs = {
  name: "tree-sitter-as-commonjs",
  setup(build) {
    build.onResolve({ filter: /^web-tree-sitter$/ }, () => ({ path: require.resolve("web-tree-sitter") }));
  },
};

/**
 * The recovering parser (src/syntax/parser.ts, and chevrotain with it) initialised on first use in
 * the CLI: src/syntax/parse.ts asks for it only for a filter the well-formed reader declines (one
 * with an error), and loading chevrotain was the largest part of a short command's start. The
 * parser stays in the bundle, wrapped by esbuild to run its top level when first required; the
 * library and the browser bundle import it as written.
 */
const recoveringParserOnDemand = {
  name: "recovering-parser-on-demand",
  setup(build) {
    const parse = fromRoot("src/syntax/parse.ts");
    build.onResolve({ filter: /^\.\/parser\.js$/ }, (args) =>
      args.importer === parse
        ? { path: fromRoot("src/syntax/parser.ts"), namespace: "parser-on-demand" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "parser-on-demand" }, (args) => ({
      contents: `export const filterParser = () => require(${JSON.stringify(args.path)}).filterParser();`,
      resolveDir: fromRoot("src/syntax"),
      loader: "js",
    }));
  },
};

/**
 * jsonc-parser's modules marked free of side effects, so that what the CLI does not call is left
 * out: its formatter builds 1,200 strings of indentation at load, which every short command paid
 * (the CLI only parses). Its package does not say so itself.
 */
const jsoncParserWithoutSideEffects = {
  name: "jsonc-parser-without-side-effects",
  setup(build) {
    const again = Symbol("resolved by this plugin");
    build.onResolve({ filter: /.*/ }, async (args) => {
      const inPackage =
        args.path === "jsonc-parser" || /[/\\]node_modules[/\\]jsonc-parser[/\\]/.test(args.importer);
      if (!inPackage || args.pluginData === again) return undefined;
      const { path, errors } = await build.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: again,
      });
      return errors.length > 0 ? { errors } : { path, sideEffects: false };
    });
  },
};

/** The shipped catalogs: src/catalog/datasets/NAME.json for each dataset (scopes.json is not one). */
const CATALOG_FOLDER = fromRoot("src/catalog/datasets");
const catalogNames = () =>
  readdirSync(CATALOG_FOLDER)
    .filter((file) => file.endsWith(".json") && file !== "scopes.json")
    .map((file) => basename(file, ".json"));

/** Where the CLI's build puts the catalogs, beside its bundles: `catalogs/NAME.json`. */
const CATALOGS_BESIDE_BUNDLES = "catalogs";

/**
 * The catalogs read on demand in the CLI: src/catalog/dataset-specs.ts imports all 37 (136 KB of
 * JSON), which every short command's bundle carried, read and deserialized at each start (4–5 ms
 * of compile's start, bench/RESULTS.md). In the CLI's bundles that module is one that reads
 * `catalogs/NAME.json` beside the bundle the first time a dataset is asked for; the library and
 * the browser bundle import it as written. A catalog missing from an install is said as one
 * (src/cli/broken-install.ts).
 */
const catalogsOnDemand = {
  name: "catalogs-on-demand",
  setup(build) {
    const importer = fromRoot("src/catalog/datasets.ts");
    build.onResolve({ filter: /^\.\/dataset-specs\.js$/ }, (args) =>
      args.importer === importer ? { path: "dataset-specs", namespace: "catalogs-on-demand" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "catalogs-on-demand" }, () => ({
      contents: `import { readFileSync } from "node:fs";
import { join } from "node:path";
export const shippedDatasets = ${JSON.stringify(catalogNames())};
export function shippedSpecs(dataset) {
  if (!shippedDatasets.includes(dataset)) return undefined;
  const file = join(__dirname, ${JSON.stringify(CATALOGS_BESIDE_BUNDLES)}, dataset + ".json");
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
    throw Object.assign(new Error("Cannot find module '" + file + "'"), { code: "MODULE_NOT_FOUND" });
  }
  return JSON.parse(text);
}`,
      resolveDir: fromRoot("src/catalog"),
      loader: "js",
    }));
  },
};

/** Writes each catalog, as compact JSON, into `catalogs/` of the CLI's output folder `dist`. */
export function writeCatalogs(dist) {
  const folder = join(dist, CATALOGS_BESIDE_BUNDLES);
  mkdirSync(folder, { recursive: true });
  for (const name of catalogNames()) {
    const specs = JSON.parse(readFileSync(join(CATALOG_FOLDER, `${name}.json`), "utf8"));
    writeFileSync(join(folder, `${name}.json`), JSON.stringify(specs));
  }
}

/** The plugins every CLI bundle is built with (the short commands add onDemandPartsAsSiblings). */
export const cliBundlePlugins = [
  catalogsOnDemand,
  duckdbExternal,
  jsoncParserWithoutSideEffects,
  recoveringParserOnDemand,
  treeSitterAsCommonJs,
  wsWithoutNativeHelpers,
];
