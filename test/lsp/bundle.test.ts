import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { datasetNames } from "../../src/catalog/index.js";
import { commands } from "../../src/cli/commands.js";
import { builtCli, ensureBundles } from "../helpers/bundles.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

const dist = dirname(builtCli());
const root = join(dist, "..");
const read = (file: string) => readFileSync(join(dist, file), "utf8");

/**
 * The text of `file` and of every file of dist/ it may require (`require("./chunk-….cjs")`, shared
 * code of the command bundles), now or later; not the command bundles the entry loads by name.
 */
function loadedText(file: string): string {
  const seen = new Set([file]);
  const texts: string[] = [];
  for (const next of seen) {
    const text = read(next);
    texts.push(text);
    for (const match of text.matchAll(/require\("\.\/([\w.-]+\.cjs)"\)/g)) seen.add(match[1]!);
  }
  return texts.join("\n");
}

// A string every vscode-languageserver build carries (an LSP method name), whatever the minifier renames.
const languageServerMarker = "textDocument/semanticTokens/full";

describe("the CLI bundle", () => {
  it("is a small entry that requires each command's own bundle only when that command runs", () => {
    const entry = read(basename(builtCli()));
    const bundles = readdirSync(dist).filter((file) => /^cli-.+\.cjs$/.test(file));
    expect(bundles.sort()).toEqual(
      Object.keys(commands)
        .map((name) => `cli-${name}.cjs`)
        .sort(),
    );
    for (const name of Object.keys(commands)) {
      // Inside a function that the command table's loader calls, not at the top of the file.
      expect(entry).toMatch(new RegExp(`=>\\{[^{}]*\\.requireCommandBundle\\("cli-${name}\\.cjs"\\)\\}`));
    }
    expect(entry.length).toBeLessThan(10_000);
  });

  it("loads the language server only for filterc lsp", () => {
    const loads = (file: string) => loadedText(file).includes(languageServerMarker);
    expect(loads(basename(builtCli()))).toBe(false);
    expect(loads("cli-compile.cjs")).toBe(false);
    expect(loads("cli-check.cjs")).toBe(false);
    expect(loads("cli-lsp.cjs")).toBe(true);
  });

  it("reads a dataset's catalog from catalogs/ when asked: the short commands' bundles hold none", () => {
    const source = join(root, "src", "catalog", "datasets");
    const specsOf = (file: string) => JSON.parse(readFileSync(file, "utf8")) as { name: string }[];
    expect(readdirSync(join(dist, "catalogs")).sort()).toEqual(datasetNames.map((name) => `${name}.json`));
    for (const name of datasetNames)
      expect(specsOf(join(dist, "catalogs", `${name}.json`))).toEqual(specsOf(join(source, `${name}.json`)));
    // The fields only one dataset other than the default has: a bundle holding the catalogs
    // names all 556; the few left are named by the fields' facts (src/catalog/field-facts.json).
    const datasetsOf = new Map<string, string[]>();
    for (const name of datasetNames)
      for (const { name: field } of specsOf(join(source, `${name}.json`)))
        datasetsOf.set(field, [...(datasetsOf.get(field) ?? []), name]);
    const elsewhere = [...datasetsOf]
      .filter(([, datasets]) => datasets.length === 1 && datasets[0] !== "http_requests")
      .map(([field]) => field);
    expect(elsewhere).toHaveLength(556);
    for (const bundle of ["cli-compile.cjs", "cli-check.cjs", "cli-fmt.cjs"]) {
      const text = read(bundle);
      const named = elsewhere.filter((field) => new RegExp(`\\b${field}\\b`).test(text));
      expect(named.length).toBeLessThan(elsewhere.length / 5);
    }
  });

  it("gives check the Terraform reader, the reports and --fix only when asked", () => {
    const bundle = read("cli-check.cjs");
    // The HCL parser's package name, which its loader names, whatever the minifier renames.
    const terraformMarker = "tree-sitter";
    expect(bundle).not.toContain(terraformMarker);
    expect(loadedText("check-extras.cjs")).toContain(terraformMarker);
    // Required inside the branches that need it, never at the top of the bundle.
    const requires = [...bundle.matchAll(/(.{16})require\("\.\/check-extras\.cjs"\)/g)].map(
      (match) => match[1],
    );
    expect(requires).toHaveLength(3);
    for (const before of requires) expect(before).toMatch(/\.then\(\(\)=>/);
  });
});
