import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { type ParseError, parse } from "jsonc-parser";
import { describe, expect, it } from "vitest";
import { datasetNames } from "../../src/catalog/index.js";
import { readToml } from "./config-readers.js";
import { RECIPES, readRecipes, recipe } from "./recipes.js";

/*
 * The setups of docs/editors.md for the editors that cannot run here, checked for syntax and for
 * what they tell the editor. Neovim's, Vim's and Emacs's run for real (neovim.test.ts,
 * vim-ale.test.ts, vim.test.ts, emacs.test.ts).
 */

const root = new URL("../../", import.meta.url);
const manifest = JSON.parse(readFileSync(new URL("editors/vscode/package.json", root), "utf8"));
const grammar = JSON.parse(
  readFileSync(new URL("editors/vscode/syntaxes/lpf.tmLanguage.json", root), "utf8"),
);

const bashSyntax = (script: string) => execFileSync("bash", ["-n"], { input: script, encoding: "utf8" });

/** JSON with comments and trailing commas, as VS Code and Sublime Text read their settings. */
function readJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true });
  expect(errors, "JSON syntax errors").toEqual([]);
  return value;
}

describe("docs/editors.md's editor setups", () => {
  it("are each run or checked by a test", () => {
    expect([...readRecipes().keys()].sort()).toEqual(Object.keys(RECIPES).sort());
  });

  it("VS Code, VSCodium, Cursor: install the .vsix npm run vsix writes", () => {
    const script = recipe("vscode-install");
    bashSyntax(script);
    expect(script.trim().split("\n")).toEqual(
      ["code", "codium", "cursor"].map(
        (editor) => `${editor} --install-extension dist/filterc-${manifest.version}.vsix`,
      ),
    );
  });

  it("VS Code: settings the extension declares, of their types", () => {
    const settings = readJsonc(recipe("vscode-settings")) as Record<string, unknown>;
    const declared = manifest.contributes.configuration.properties;
    for (const [name, value] of Object.entries(settings)) {
      expect(declared[name], name).toBeDefined();
      expect(typeof value, name).toBe(declared[name].type === "integer" ? "number" : declared[name].type);
      if (declared[name].enum) expect(declared[name].enum, name).toContain(value);
    }
    expect(Object.keys(settings)).toEqual(Object.keys(declared));
  });

  it("Helix: languages.toml with the language, its server and formatter", () => {
    const config = readToml(recipe("helix"));
    expect(config).toEqual({
      language: [
        {
          name: "lpf",
          scope: grammar.scopeName,
          "file-types": ["lpf"],
          "comment-token": "#",
          roots: ["filterc.json"],
          "language-servers": ["filterc"],
          formatter: { command: "filterc", args: ["fmt"] },
        },
      ],
      "language-server": {
        filterc: {
          command: "filterc",
          args: ["lsp", "--stdio"],
          config: { filterc: { dataset: "gateway_http" } },
        },
      },
    });
    expect(() => readToml('[language\nname = "x"')).toThrow(/line 1/);
    expect(() => readToml('name = "x" y')).toThrow(/unexpected text/);
  });

  it("Sublime Text: the generated grammar, and LSP's client for its scope", () => {
    const copy = recipe("sublime-files");
    bashSyntax(copy);
    const file = /^cp (\S+) /.exec(copy)?.[1];
    expect(existsSync(new URL(file!, root))).toBe(true);
    expect(readJsonc(recipe("sublime-lsp"))).toEqual({
      clients: {
        filterc: {
          enabled: true,
          command: ["filterc", "lsp", "--stdio"],
          selector: grammar.scopeName,
          settings: { "filterc.dataset": "gateway_http" },
        },
      },
    });
  });

  it("name datasets filterc knows", () => {
    const named = [...readRecipes().values()].flatMap(({ text }) => [
      ...text.matchAll(/dataset["']?\s*[:=]?\s*["']([a-z_]+)["']/g),
    ]);
    expect(named.length).toBeGreaterThan(6);
    for (const [, dataset] of named) expect(datasetNames).toContain(dataset);
  });
});
