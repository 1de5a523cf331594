import { copyFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, join } from "node:path";
import type { Plugin } from "esbuild";
import { defineConfig } from "tsup";
import { PARSER_FILE_NAMES, PARSER_PACKAGE_FILES } from "./src/terraform/parser-files.js";

const commandNames = readdirSync("src/cli/commands").map((file) => basename(file, ".ts"));

/** `import("./commands/compile.js")` in src/cli/commands.ts → the sibling bundle `./cli-compile.cjs`. */
const commandsAsSiblings: Plugin = {
  name: "commands-as-siblings",
  setup(build) {
    build.onResolve({ filter: /^\.\/commands\/[a-z-]+\.js$/ }, (args) => ({
      path: `./cli-${basename(args.path, ".js")}.cjs`,
      external: true,
    }));
  },
};

/**
 * Embedded DuckDB stays a package of its own, required when `filterc query` runs: it is an optional
 * dependency with a native engine, which no bundle can hold.
 */
const duckdbExternal: Plugin = {
  name: "duckdb-external",
  setup(build) {
    build.onResolve({ filter: /^@duckdb\// }, (args) => ({ path: args.path, external: true }));
  },
};

/**
 * The HCL parser's runtime in its CommonJS form: the ES module form declares a `require` of its
 * own, which in a CommonJS bundle hides the one it calls first.
 */
const treeSitterAsCommonJs: Plugin = {
  name: "tree-sitter-as-commonjs",
  setup(build) {
    const require = createRequire(import.meta.url);
    build.onResolve({ filter: /^web-tree-sitter$/ }, () => ({ path: require.resolve("web-tree-sitter") }));
  },
};

// Three builds: the library (ESM + CJS + declarations, dependencies left external), the browser
// entry, and the CLI (every dependency bundled in, so that `filterc` starts close to bare node).
export default defineConfig([
  {
    entry: { index: "src/index.ts" },
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    target: "node20",
  },
  // filterc/codemirror: browser ESM; the editor packages are the page's own (peer dependencies).
  {
    entry: { codemirror: "src/codemirror/index.ts" },
    format: ["esm"],
    dts: true,
    sourcemap: true,
    target: "es2022",
    platform: "browser",
    external: [/^@codemirror\//, /^@lezer\//],
  },
  // The CLI: CommonJS, one self-contained bundle per command beside a small entry that requires
  // the command it runs. Node starts a CommonJS file faster than an ES module graph (no module
  // loader, no asynchronous reads), which is what a short command pays for; a command never loads
  // another's code (`filterc compile` never reads the language server).
  {
    entry: {
      cli: "src/cli/bin.ts",
      // eval's worker threads run this file (see src/logs/parallel.ts).
      "eval-worker": "src/logs/worker.ts",
      ...Object.fromEntries(commandNames.map((name) => [`cli-${name}`, `src/cli/commands/${name}.ts`])),
    },
    format: ["cjs"],
    target: "node20",
    platform: "node",
    noExternal: [/.*/],
    splitting: false,
    minify: true,
    // `import.meta.url` in CommonJS, for the playground page's folder (dist/playground).
    shims: true,
    banner: { js: "#!/usr/bin/env node" },
    esbuildPlugins: [commandsAsSiblings, duckdbExternal, treeSitterAsCommonJs],
    // The HCL parser's WebAssembly (runtime and grammar) goes beside the bundles that read it.
    onSuccess: async () => {
      const require = createRequire(import.meta.url);
      for (const key of ["runtime", "grammar"] as const)
        copyFileSync(require.resolve(PARSER_PACKAGE_FILES[key]), join("dist", PARSER_FILE_NAMES[key]));
    },
    esbuildOptions(options) {
      // Dynamic imports become requires: the commands stay separate files, loaded synchronously.
      options.supported = { ...options.supported, "dynamic-import": false };
    },
  },
]);
