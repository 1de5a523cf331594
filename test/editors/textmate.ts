import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createOnigScanner, createOnigString, loadWASM } from "vscode-oniguruma";
import { type IGrammar, INITIAL, parseRawGrammar, Registry } from "vscode-textmate";

/*
 * The TextMate grammar as VS Code runs it: vscode-textmate with the Oniguruma engine compiled
 * to WebAssembly (vscode-oniguruma), the two libraries VS Code itself tokenizes with.
 */

const require = createRequire(import.meta.url);
const GRAMMAR = new URL("../../editors/vscode/syntaxes/lpf.tmLanguage.json", import.meta.url);

let loaded: Promise<IGrammar> | undefined;

/** The committed grammar, loaded once per test file. */
export function loadGrammar(): Promise<IGrammar> {
  loaded ??= (async () => {
    await loadWASM(readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")));
    const registry = new Registry({
      onigLib: Promise.resolve({ createOnigScanner, createOnigString }),
      loadGrammar: async (scopeName) =>
        scopeName === "source.lpf" ? parseRawGrammar(readFileSync(GRAMMAR, "utf8"), GRAMMAR.pathname) : null,
    });
    const grammar = await registry.loadGrammar("source.lpf");
    if (!grammar) throw new Error("the grammar source.lpf did not load");
    return grammar;
  })();
  return loaded;
}

/** The scopes of each UTF-16 unit of `text`, line by line, as the grammar tokenizes it. */
export function scopesOf(grammar: IGrammar, text: string): string[][] {
  const scopes: string[][] = [];
  let state = INITIAL;
  // Lines and the breaks between them, as an editor splits them.
  const parts = text.split(/(\r\n|\r|\n)/);
  for (let index = 0; index < parts.length; index += 2) {
    const line = parts[index]!;
    const result = grammar.tokenizeLine(line, state);
    for (const token of result.tokens)
      for (let i = token.startIndex; i < Math.min(token.endIndex, line.length); i++)
        scopes.push(token.scopes);
    // A line break has no token; the scanner reads it as a blank.
    for (const _ of parts[index + 1] ?? "") scopes.push(["source.lpf"]);
    state = result.ruleStack;
  }
  return scopes;
}
