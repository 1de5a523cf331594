import { readFileSync } from "node:fs";
import { fencedBlocks } from "../helpers/doc-blocks.js";

/*
 * The editor setups of docs/editors.md: blocks whose info string holds `recipe=NAME`. The
 * documentation's harness (test/helpers/doc-pages.ts) leaves them to the tests here, which run
 * them where the editor runs here (Neovim, Vim, Emacs) and check the others' syntax.
 */

/** Each recipe, and the test that runs or checks it. */
export const RECIPES: Record<string, string> = {
  path: "test/editors/neovim.test.ts, test/editors/vim-ale.test.ts, test/editors/emacs.test.ts",
  "vscode-install": "test/editors/recipes.test.ts",
  "vscode-settings": "test/editors/recipes.test.ts",
  "vim-files": "test/editors/vim.test.ts, test/editors/neovim.test.ts",
  "neovim-0.7": "test/editors/neovim.test.ts",
  neovim: "test/editors/neovim.test.ts",
  "vim-ale": "test/editors/vim-ale.test.ts",
  "vim-lsp": "test/editors/vim.test.ts",
  helix: "test/editors/recipes.test.ts",
  emacs: "test/editors/emacs.test.ts",
  "sublime-files": "test/editors/recipes.test.ts",
  "sublime-lsp": "test/editors/recipes.test.ts",
};

/** The recipe a block is, if any (`recipe=NAME` in its info string). */
export function blockRecipe(info: readonly string[]): string | undefined {
  return info.find((word) => word.startsWith("recipe="))?.slice("recipe=".length);
}

export interface Recipe {
  language: string;
  text: string;
  /** 1-based line of the block's fence in docs/editors.md. */
  line: number;
}

export function readRecipes(): Map<string, Recipe> {
  const page = readFileSync(new URL("../../docs/editors.md", import.meta.url), "utf8");
  const recipes = new Map<string, Recipe>();
  for (const block of fencedBlocks(page)) {
    const name = blockRecipe(block.info);
    if (name === undefined) continue;
    if (recipes.has(name)) throw new Error(`docs/editors.md:${block.line}: a second recipe=${name}`);
    recipes.set(name, { language: block.info[0]!, text: block.text, line: block.line });
  }
  return recipes;
}

/** The text of recipe `name`; throws when docs/editors.md lacks it. */
export function recipe(name: string): string {
  const found = readRecipes().get(name);
  if (!found) throw new Error(`docs/editors.md has no recipe=${name} block`);
  return found.text;
}
