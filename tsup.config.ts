import { defineConfig } from "tsup";

// Two builds: the library (ESM + CJS + declarations, dependencies left external) and the CLI
// (one ESM file with every dependency bundled in, so `filterc` starts close to bare node).
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
  {
    entry: { cli: "src/cli/bin.ts" },
    format: ["esm"],
    target: "node20",
    platform: "node",
    noExternal: [/.*/],
    splitting: true,
    minify: true,
    banner: {
      js: "#!/usr/bin/env node\nimport { createRequire as __filtercCreateRequire } from 'node:module'; const require = __filtercCreateRequire(import.meta.url);",
    },
  },
]);
