import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliPath } from "../helpers/cli.js";

const dist = dirname(cliPath);

/** The bundle files a command loads: its chunk and every chunk it imports statically, transitively. */
function loadedBy(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(join(dist, file), "utf8");
  for (const match of code.matchAll(/from\s*"\.\/([^"]+\.js)"|import\s*"\.\/([^"]+\.js)"/g)) {
    loadedBy((match[1] ?? match[2])!, seen);
  }
  return seen;
}

function commandChunk(command: string): string {
  const cli = readFileSync(cliPath, "utf8");
  const match = new RegExp(`import\\("\\./(${command}-[A-Za-z0-9]+\\.js)"\\)`).exec(cli);
  if (!match) throw new Error(`no chunk for ${command} in the CLI bundle`);
  return match[1]!;
}

// A string every vscode-languageserver build carries (an LSP method name), whatever the minifier renames.
const languageServerMarker = "textDocument/semanticTokens/full";

const holdsLanguageServer = (files: Set<string>) =>
  [...files].some((file) => readFileSync(join(dist, file), "utf8").includes(languageServerMarker));

describe("the CLI bundle", () => {
  it("loads the language server only for filterc lsp", () => {
    expect(holdsLanguageServer(loadedBy("cli.js"))).toBe(false);
    expect(holdsLanguageServer(loadedBy(commandChunk("compile")))).toBe(false);
    expect(holdsLanguageServer(loadedBy(commandChunk("check")))).toBe(false);
    const lsp = loadedBy(commandChunk("lsp"));
    const server = readFileSync(join(dist, commandChunk("lsp")), "utf8").match(/import\("\.\/([^"]+\.js)"\)/);
    expect(server).not.toBeNull();
    expect(holdsLanguageServer(loadedBy(server![1]!, lsp))).toBe(true);
  });
});
