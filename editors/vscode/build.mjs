// `npm run vsix`: bundles the VS Code extension and its language server with esbuild, then packs
// them with @vscode/vsce into dist/filterc-VERSION.vsix at the repository root. The package holds
// no node_modules: the extension (with vscode-languageclient) and the server (with the whole
// compiler) are one file each, with filterc.json's JSON Schema and the HCL parser's WebAssembly (the
// server checks Terraform documents) beside them. `--bundle-only` stops after the bundles.
import { copyFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
// The HCL parser's runtime in its CommonJS form, as the CLI's bundles have it.
import { treeSitterAsCommonJs } from "../../build/plugins.mjs";

const extension = dirname(fileURLToPath(import.meta.url));
const root = join(extension, "..", "..");
const require = createRequire(import.meta.url);

/**
 * The HCL parser's files, named as src/terraform/parser-files.ts names them (PARSER_PACKAGE_FILES
 * and PARSER_FILE_NAMES; test/editors/vsix.test.ts holds the package to them): the server reads
 * them beside its bundle.
 */
const PARSER_FILES = {
  "web-tree-sitter.wasm": "web-tree-sitter/web-tree-sitter.wasm",
  "tree-sitter-hcl.wasm": "@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-hcl.wasm",
};

rmSync(join(extension, "dist"), { recursive: true, force: true });
const common = {
  bundle: true,
  format: "cjs",
  platform: "node",
  // VS Code 1.91 runs extensions and their servers on Node 20.
  target: "node20",
  minify: true,
  legalComments: "none",
  // ES modules where a package has them: jsonc-parser's CommonJS build requires its parts at run time.
  mainFields: ["module", "main"],
  logLevel: "warning",
  // `import.meta` is empty in CommonJS: src/files/module-file.ts reads `__filename` there.
  logOverride: { "empty-import-meta": "silent" },
};
await build({
  ...common,
  entryPoints: [join(extension, "src", "extension.ts")],
  outfile: join(extension, "dist", "extension.js"),
  external: ["vscode"],
});
await build({
  ...common,
  entryPoints: [join(extension, "src", "server.ts")],
  outfile: join(extension, "dist", "server.js"),
  plugins: [treeSitterAsCommonJs],
});
for (const [name, file] of Object.entries(PARSER_FILES))
  copyFileSync(require.resolve(file), join(extension, "dist", name));
// filterc.json is completed and checked with the schema the npm package ships (jsonValidation).
copyFileSync(join(root, "schemas", "filterc.schema.json"), join(extension, "dist", "filterc.schema.json"));

if (!process.argv.includes("--bundle-only")) {
  const { createVSIX } = await import("@vscode/vsce");
  const { version } = (await import(join(extension, "package.json"), { with: { type: "json" } })).default;
  const packagePath = join(root, "dist", `filterc-${version}.vsix`);
  // The manifest's "vsce" options apply: no dependencies, README links into the repository.
  await createVSIX({ cwd: extension, packagePath });
  console.log(`wrote ${relative(root, packagePath)}`);
}
