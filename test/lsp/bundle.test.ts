import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { commands } from "../../src/cli/commands.js";
import { builtCli, ensureBundles } from "../helpers/bundles.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

const dist = dirname(builtCli());
const read = (file: string) => readFileSync(join(dist, file), "utf8");

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
    expect(read(basename(builtCli()))).not.toContain(languageServerMarker);
    expect(read("cli-compile.cjs")).not.toContain(languageServerMarker);
    expect(read("cli-check.cjs")).not.toContain(languageServerMarker);
    expect(read("cli-lsp.cjs")).toContain(languageServerMarker);
  });
});
