import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { Script } from "node:vm";
import { type Plugin, transform } from "esbuild";
import { defineConfig, type Options } from "tsup";
import {
  cliBundlePlugins,
  ON_DEMAND_PARTS,
  onDemandPartsAsSiblings,
  writeCatalogs,
} from "./build/plugins.mjs";
import { CACHE_ID_LENGTH, CACHE_ID_MARK, codeCacheFile, wrapBundle } from "./src/cli/command-bundles.js";
import { PARSER_FILE_NAMES, PARSER_PACKAGE_FILES } from "./src/terraform/parser-files.js";

const commandNames = readdirSync("src/cli/commands").map((file) => basename(file, ".ts"));

/**
 * `import("./commands/compile.js")` in src/cli/commands.ts → the sibling bundle `./cli-compile.cjs`,
 * loaded with its code cache where it has one (see src/cli/command-bundles.ts).
 */
const commandsAsSiblings: Plugin = {
  name: "commands-as-siblings",
  setup(build) {
    build.onResolve({ filter: /^\.\/commands\/[a-z-]+\.js$/ }, (args) => ({
      path: `cli-${basename(args.path, ".js")}.cjs`,
      namespace: "command-bundle",
    }));
    build.onLoad({ filter: /.*/, namespace: "command-bundle" }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(resolve("src/cli/command-bundles.ts"))}).requireCommandBundle(${JSON.stringify(args.path)});`,
      resolveDir: resolve("src/cli"),
      loader: "js",
    }));
  },
};

/**
 * The commands run once per filter, often many times in a script or a hook: their bundles are
 * self-contained (one file to read; what check runs only when asked is a file of its own, see
 * build/plugins.mjs) and get a code cache, so that V8 need not compile them at each
 * start. The others run long (eval, lsp, sandbox) or seldom, and the caches, about the size of
 * their bundles, would weigh on the install.
 */
const CODE_CACHED_COMMANDS: readonly string[] = ["compile", "check", "fmt"];

/** A small well-formed filter, which each short command runs once before its cache is written. */
const WARM_UP_FILTER = "EdgeResponseStatus geq 500 and BotScore lt 30\n";

/**
 * Runs a command of a bundle just loaded, as `filterc NAME` on WARM_UP_FILTER would, with its output
 * kept: `check` reads it from a file in a fresh folder (no filterc.json above it applies), the
 * others from standard input.
 */
async function warmUp(command: string, exports: unknown): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "filterc-warm-up-"));
  try {
    const file = join(folder, "warm-up.lpf");
    writeFileSync(file, WARM_UP_FILTER);
    const io = {
      stdout: () => {},
      stderr: () => {},
      readStdin: async () => WARM_UP_FILTER,
      env: {},
      stderrIsTTY: false,
      cwd: folder,
    };
    const { run } = exports as { run: (argv: string[], io: unknown, commands: unknown) => Promise<number> };
    const code = await run(command === "check" ? [file] : [], io, {});
    if (code !== 0) throw new Error(`filterc ${command} of the warm-up filter exited ${code}`);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Stamps each bundle of CODE_CACHED_COMMANDS with an id of its content and writes its code cache,
 * the id first (see src/cli/command-bundles.ts), from the bundle as it was just built. The cache is
 * taken after the bundle has run the command once (warmUp): V8 then holds the functions that a
 * run calls compiled, and the cache carries them, where one taken before running carried little
 * more than the top level, and every function a run called was compiled at each start.
 */
async function writeCodeCaches(): Promise<void> {
  for (const command of CODE_CACHED_COMMANDS) {
    const bundle = join("dist", `cli-${command}.cjs`);
    const built = readFileSync(bundle, "utf8");
    const id = createHash("sha256").update(built).digest("hex").slice(0, CACHE_ID_LENGTH);
    const stamped = `${built}${CACHE_ID_MARK}${id}\n`;
    writeFileSync(bundle, stamped);
    const filename = resolve(bundle);
    const script = new Script(wrapBundle(stamped), { filename });
    const module = { exports: {} as unknown };
    const load = script.runInThisContext() as (...names: unknown[]) => void;
    load(module.exports, createRequire(filename), module, filename, dirname(filename));
    await warmUp(command, module.exports);
    writeFileSync(
      codeCacheFile(bundle),
      Buffer.concat([Buffer.from(id, "latin1"), script.createCachedData()]),
    );
  }
}

/**
 * The manual page the package installs (package.json's "man"): `filterc help --man`, made from
 * every command's help by the CLI just built (src/cli/man-page.ts).
 */
function writeManPage(): void {
  const page = execFileSync(process.execPath, [join("dist", "cli.cjs"), "help", "--man"], {
    encoding: "utf8",
  });
  writeFileSync(join("dist", "filterc.1"), page);
}

/** The CLI bundles of `commands`: `cli-compile` from src/cli/commands/compile.ts. */
const commandEntries = (commands: readonly string[]) =>
  Object.fromEntries(commands.map((name) => [`cli-${name}`, `src/cli/commands/${name}.ts`]));

/** What both CLI builds share: CommonJS for Node, every dependency but DuckDB bundled in, minified. */
const cliBuild = {
  format: ["cjs"],
  target: "node20",
  platform: "node",
  noExternal: [/.*/],
  minify: true,
  banner: { js: "#!/usr/bin/env node" },
  esbuildPlugins: [commandsAsSiblings, ...cliBundlePlugins],
  esbuildOptions(options) {
    // Dynamic imports become requires: the commands stay separate files, loaded synchronously.
    options.supported = { ...options.supported, "dynamic-import": false };
    // `import.meta` is empty in CommonJS: src/files/module-file.ts reads `__filename` there. A
    // build with chunks is made as ES modules first, where it would stay: it is made empty too.
    options.define = { ...options.define, "import.meta.url": "undefined" };
    options.logOverride = { ...options.logOverride, "empty-import-meta": "silent" };
  },
} satisfies Options;

/** How the files of shared code between command bundles are named: `chunk-<hash>.cjs`. */
const SHARED_CHUNK = "chunk";

/**
 * The files of the build with shared chunks, each written as CommonJS (`import` to `require`,
 * `export` to `exports`) rather than the ES module esbuild splits, and the chunks of an earlier
 * build, which nothing requires any more, removed.
 */
const chunksAsCommonJs: NonNullable<Options["plugins"]>[number] = {
  name: "chunks-as-commonjs",
  async renderChunk(code) {
    const commonJs = await transform(code, {
      format: "cjs",
      target: "node20",
      minify: true,
      supported: { "dynamic-import": false },
    });
    // Strict, as the ES module it was made from.
    return { code: commonJs.code.replace(/^(#![^\n]*\n)?/, '$1"use strict";') };
  },
  buildEnd({ writtenFiles }) {
    const written = new Set(writtenFiles.map((file) => basename(file.name)));
    for (const file of readdirSync("dist"))
      if (file.startsWith(`${SHARED_CHUNK}-`) && !written.has(file)) rmSync(join("dist", file));
  },
};

/**
 * Called as each CLI build finishes: after both, the manual page is written by the CLI just built,
 * which loads every command's bundle for its help.
 */
let cliBuildsLeft = 2;
function cliBuilt(): void {
  cliBuildsLeft -= 1;
  if (cliBuildsLeft === 0) writeManPage();
}

// Four builds: the library (ESM + CJS + declarations, dependencies left external), the browser
// entry, and the CLI in two (every dependency bundled in, so that `filterc` starts close to bare node).
export default defineConfig([
  {
    entry: { index: "src/index.ts" },
    format: ["esm", "cjs"],
    dts: true,
    // No source maps: the library's bundles are not minified, and the maps were 3 MB of the install.
    sourcemap: false,
    target: "node20",
  },
  // filterc/codemirror: browser ESM; the editor packages are the page's own (peer dependencies).
  {
    entry: { codemirror: "src/codemirror/index.ts" },
    format: ["esm"],
    dts: true,
    sourcemap: false,
    target: "es2022",
    platform: "browser",
    external: [/^@codemirror\//, /^@lezer\//],
  },
  // The CLI: CommonJS, a small entry that requires the bundle of the command it runs. Node starts
  // a CommonJS file faster than an ES module graph (no module loader, no asynchronous reads), which
  // is what a short command pays for; a command never loads another's code (`filterc compile` never
  // reads the language server). The short commands' bundles are self-contained, each one file
  // with its code cache; the others share their common code in chunks (see below).
  {
    ...cliBuild,
    entry: {
      cli: "src/cli/bin.ts",
      // eval's worker threads run this file (see src/logs/parallel.ts).
      "eval-worker": "src/logs/worker.ts",
      ...commandEntries(CODE_CACHED_COMMANDS),
    },
    splitting: false,
    esbuildPlugins: [...cliBuild.esbuildPlugins, onDemandPartsAsSiblings],
    onSuccess: async () => {
      // Before the warm-up runs, which reads its catalog from there.
      writeCatalogs("dist");
      await writeCodeCaches();
      cliBuilt();
    },
  },
  // The other commands run long (eval, lsp, sandbox), seldom, or wait on the network: they share
  // their common code (the compiler, the catalogs, the API client) in chunks, which the install
  // holds once rather than once per command.
  {
    ...cliBuild,
    entry: {
      ...commandEntries(commandNames.filter((name) => !CODE_CACHED_COMMANDS.includes(name))),
      ...Object.fromEntries(ON_DEMAND_PARTS.map((name) => [name, `src/cli/${name}.ts`])),
    },
    // esbuild splits ES modules only: each file is made as one, then turned into CommonJS.
    format: ["esm"],
    outExtension: () => ({ js: ".cjs" }),
    splitting: true,
    plugins: [chunksAsCommonJs],
    esbuildOptions(options) {
      cliBuild.esbuildOptions(options);
      // Left as import() here, where a shim would hide what is required; chunksAsCommonJs makes
      // each a require.
      options.supported = { ...options.supported, "dynamic-import": true };
      options.chunkNames = `${SHARED_CHUNK}-[hash]`;
    },
    // The HCL parser's WebAssembly (runtime and grammar) goes beside the bundles that read it.
    onSuccess: async () => {
      const require = createRequire(import.meta.url);
      for (const key of ["runtime", "grammar"] as const)
        copyFileSync(require.resolve(PARSER_PACKAGE_FILES[key]), join("dist", PARSER_FILE_NAMES[key]));
      cliBuilt();
    },
  },
]);
