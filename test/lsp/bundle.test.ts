import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { commands } from "../../src/cli/commands.js";
import { builtCli, ensureBundles } from "../helpers/bundles.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

const dist = dirname(builtCli());
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
