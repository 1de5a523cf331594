import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { builtCli } from "../helpers/bundles.js";
import { recipe } from "./recipes.js";

export const root = fileURLToPath(new URL("../../", import.meta.url));

/** A user's home for an editor under test: `filterc` (the built CLI) on PATH, and the syntax files copied in as docs/editors.md says. */
export interface EditorHome {
  home: string;
  env: Record<string, string>;
  remove(): void;
}

export function editorHome(): EditorHome {
  const home = mkdtempSync(join(tmpdir(), "filterc-editor-"));
  const bin = join(home, "bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "filterc"), `#!/bin/sh\nexec "${process.execPath}" "${builtCli()}" "$@"\n`, {
    mode: 0o755,
  });
  const env = { HOME: home, PATH: `${bin}:${process.env.PATH ?? ""}`, LANG: "C.UTF-8", TERM: "dumb" };
  // The documented copy, run from the repository as from the package's folder.
  execFileSync("bash", ["-euc", recipe("vim-files")], { cwd: root, env, stdio: "pipe" });
  return { home, env, remove: () => rmSync(home, { recursive: true, force: true }) };
}

/** The text of each UTF-16 unit's character, by code point: editors count characters, not units. */
export function unitsByCharacter(line: string): number[] {
  const starts: number[] = [];
  let unit = 0;
  for (const character of line) {
    starts.push(unit);
    unit += character.length;
  }
  return starts;
}
