// Writes the editor files made from filterc's vocabulary and catalogs (editors/generated.ts): the
// TextMate grammar (VS Code, Sublime Text), the Vim syntax file, the extension's dataset
// setting, and the dataset list of the filterc.json schema. Run from the repository root: node editors/generate.mjs. With --check it writes
// nothing and fails when a committed file differs (test/editors/grammar.test.ts checks the same).
import { readFileSync, writeFileSync } from "node:fs";
import { build } from "esbuild";

const bundled = await build({
  entryPoints: ["editors/generated.ts"],
  bundle: true,
  write: false,
  format: "esm",
  platform: "node",
  logLevel: "error",
});
const code = bundled.outputFiles[0].text;
const { generatedFiles } = await import(
  `data:text/javascript;base64,${Buffer.from(code).toString("base64")}`
);
const read = (path) => readFileSync(path, "utf8");
const check = process.argv.includes("--check");
let stale = 0;
for (const [path, text] of Object.entries(generatedFiles(read))) {
  let current = "";
  try {
    current = read(path);
  } catch {}
  if (current === text) continue;
  if (check) {
    console.error(`${path} is not what editors/generate.mjs writes: run node editors/generate.mjs`);
    stale++;
  } else {
    writeFileSync(path, text);
    console.log(`wrote ${path}`);
  }
}
process.exit(stale ? 1 : 0);
