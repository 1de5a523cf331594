import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import { moduleFile } from "../files/module-file.js";

/** How filterc was installed, told from where its package is: each takes another command to add a package beside it. */
export type InstallKind =
  | { kind: "global"; prefix: string }
  | { kind: "npx" }
  | { kind: "local"; project: string };

/** The folder of the filterc package this file is part of (dist/ when built, src/cli/ in a checkout). */
function packageFolder(): string {
  let folder = dirname(moduleFile(import.meta.url));
  for (let up = 0; up < 4; up++) {
    try {
      if (JSON.parse(readFileSync(join(folder, "package.json"), "utf8")).name === "filterc") return folder;
    } catch {}
    folder = dirname(folder);
  }
  return dirname(dirname(moduleFile(import.meta.url)));
}

/**
 * How the package at `folder` was installed: by npx (npm keeps its packages under _npx), globally
 * (`PREFIX/lib/node_modules/filterc` beside `PREFIX/bin/filterc`, or `PREFIX\node_modules\filterc`
 * beside `PREFIX\filterc.cmd` on Windows), or into a project (its node_modules, or a checkout).
 */
export function installKind(folder = packageFolder()): InstallKind {
  const parent = dirname(folder);
  if (basename(parent) !== "node_modules") return { kind: "local", project: folder };
  if (folder.split(sep).includes("_npx")) return { kind: "npx" };
  const above = dirname(parent);
  if (basename(above) === "lib" && existsSync(join(dirname(above), "bin", "filterc")))
    return { kind: "global", prefix: dirname(above) };
  if (existsSync(join(above, "filterc.cmd"))) return { kind: "global", prefix: above };
  return { kind: "local", project: above };
}

const shellQuoted = (text: string) =>
  /^[\w@%+=:,./^~-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;

/**
 * The command that installs `spec` (`@duckdb/node-api@^1.5.6`) where filterc, installed as `how`,
 * requires it: a package beside filterc, since Node looks for it from filterc's own folder, not the
 * working one. For npx, the command to run instead, with both packages in npx's one folder.
 */
export function installCommand(spec: string, version: string, how = installKind()): string {
  switch (how.kind) {
    case "global":
      return `npm install --global --prefix ${shellQuoted(how.prefix)} ${shellQuoted(spec)}`;
    case "npx":
      return `npx -p filterc@${version} -p ${shellQuoted(spec)} filterc query …`;
    case "local":
      return `npm install --prefix ${shellQuoted(how.project)} ${shellQuoted(spec)}`;
  }
}
