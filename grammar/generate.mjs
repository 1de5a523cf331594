// Regenerates grammar/diagrams.html, the syntax diagrams of the filter grammar, from the parser
// itself (chevrotain serializes its grammar). Run from the repository root: node grammar/generate.mjs
// test/docs/grammar-reference.test.ts fails when the committed file differs from what this writes.
import { writeFileSync } from "node:fs";
import { build } from "esbuild";

const entry = `
import { createSyntaxDiagramsCode } from "chevrotain";
import { filterParser } from "./src/syntax/parser.ts";
export const html = createSyntaxDiagramsCode(filterParser().getSerializedGastProductions());
`;
const bundled = await build({
  stdin: { contents: entry, resolveDir: ".", loader: "ts" },
  bundle: true,
  write: false,
  format: "esm",
  platform: "node",
  mainFields: ["module", "main"],
  logLevel: "error",
});
const code = bundled.outputFiles[0].text;
const { html } = await import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
writeFileSync(new URL("diagrams.html", import.meta.url), html);
console.log("wrote grammar/diagrams.html");
