import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { builtCli } from "../helpers/bundles.js";
import { recipe } from "./recipes.js";

export const root = fileURLToPath(new URL("../../", import.meta.url));

/**
 * A user's home for an editor under test, set up as docs/editors.md says: `filterc` put on PATH by
 * the `path` recipe, run in a clone, and the syntax files copied in by the `vim-files` recipe.
 * `onPath: false` leaves filterc off PATH, for the setups' message about it.
 */
export interface EditorHome {
  home: string;
  env: Record<string, string>;
  remove(): void;
}

export function editorHome({ onPath = true } = {}): EditorHome {
  const home = mkdtempSync(join(tmpdir(), "filterc-editor-"));
  const prefix = join(home, ".npm-global");
  const env = {
    HOME: home,
    PATH: `${join(prefix, "bin")}:${process.env.PATH ?? ""}`,
    LANG: "C.UTF-8",
    TERM: "dumb",
  };
  if (onPath) {
    // A clone once `npm install` has built it: its manifest and built files (the repository's own,
    // linked in, so that npm reads no node_modules and the build is not run again).
    builtCli();
    const clone = join(home, "filterc");
    mkdirSync(clone);
    copyFileSync(join(root, "package.json"), join(clone, "package.json"));
    symlinkSync(join(root, "dist"), join(clone, "dist"));
    // npm's global folder in the home; no network on the way.
    const npmEnv = {
      npm_config_prefix: prefix,
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_update_notifier: "false",
    };
    execFileSync("bash", ["-euc", recipe("path")], {
      cwd: clone,
      env: { ...process.env, ...env, ...npmEnv },
      stdio: "pipe",
    });
  }
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
