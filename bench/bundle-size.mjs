// What a browser app pulls in with filterc/codemirror: dist/codemirror.js bundled for the browser
// with its dependencies (the core, chevrotain), the editor's own @codemirror/* packages left out
// because the page has them anyway. Sizes raw and gzipped, minified as an app bundler would.
import { readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { machine } from "./measure.mjs";

const entry = new URL("../dist/codemirror.js", import.meta.url).pathname;

async function bundle({ minify }) {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify,
    write: false,
    metafile: true,
    external: ["@codemirror/*", "@lezer/*"],
    logLevel: "silent",
  });
  const code = result.outputFiles[0].contents;
  const inputs = Object.entries(result.metafile.outputs[Object.keys(result.metafile.outputs)[0]].inputs);
  const bytesOf = (pattern) =>
    inputs.filter(([path]) => pattern.test(path)).reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
  const nodeImports = result.metafile.outputs[Object.keys(result.metafile.outputs)[0]].imports.filter((i) =>
    i.path.startsWith("node:"),
  );
  return {
    raw: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    chevrotain: bytesOf(/node_modules\/(@chevrotain|chevrotain)/),
    nodeImports: nodeImports.length,
  };
}

/** The built playground's scripts: the whole page, CodeMirror included (run \`npm run build\` first). */
function playgroundScripts() {
  const assets = new URL("../dist/playground/assets/", import.meta.url);
  const code = Buffer.concat(
    readdirSync(assets)
      .filter((name) => name.endsWith(".js"))
      .map((name) => readFileSync(new URL(name, assets))),
  );
  return { raw: code.length, gzip: gzipSync(code, { level: 9 }).length };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
const plain = await bundle({ minify: false });
const minified = await bundle({ minify: true });
const page = playgroundScripts();

console.log(`## Browser bundle of filterc/codemirror

What a page that already uses CodeMirror 6 adds: \`dist/codemirror.js\` bundled with esbuild for the
browser (ES2022, ESM) with the core and chevrotain, \`@codemirror/*\` and \`@lezer/*\` external.
${machine()}.

| bundle | raw | gzip -9 | of which chevrotain (raw) |
|---|---|---|---|
| minified | ${kb(minified.raw)} | ${kb(minified.gzip)} | ${kb(minified.chevrotain)} |
| not minified | ${kb(plain.raw)} | ${kb(plain.gzip)} | ${kb(plain.chevrotain)} |
| the playground page's script (Vite, with CodeMirror) | ${kb(page.raw)} | ${kb(page.gzip)} | |

Node-only imports in the bundle: ${minified.nodeImports} (the core runs in the browser as is).
`);
