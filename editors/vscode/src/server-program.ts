import { accessSync, constants, statSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, isAbsolute, join } from "node:path";

/*
 * Which language server the extension starts: the one bundled with it, or a `filterc` program the
 * setting filterc.server.path names (the project's own version, say). A setting that names no
 * program is told, with every place looked in, and the bundled server runs instead.
 */

export type ServerLaunch = { kind: "bundled" } | { kind: "program"; command: string };

export interface ServerChoice {
  launch: ServerLaunch;
  /** Why the setting was not followed, and where the program was looked for. */
  problem?: string;
}

/** What the search needs to know of the machine (tests give their own). */
export interface Machine {
  /** The workspace folders, where a relative path is looked for. */
  folders: readonly string[];
  /** The value of PATH, where a bare name is looked for. */
  path: string;
  platform: NodeJS.Platform;
  /** PATHEXT on Windows: the endings a program name may leave out. */
  pathExtensions?: string;
  isProgram(file: string): boolean;
}

export const SETTING = "filterc.server.path";

/** A file the user may run. */
export function isProgram(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    if (process.platform !== "win32") accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function chooseServer(setting: unknown, machine: Machine): ServerChoice {
  if (setting === undefined || setting === null || (typeof setting === "string" && setting.trim() === ""))
    return { launch: { kind: "bundled" } };
  if (typeof setting !== "string")
    return {
      launch: { kind: "bundled" },
      problem: `filterc: ${SETTING} should be a path or a command name, not ${JSON.stringify(setting)}; the bundled language server runs instead.`,
    };
  const wanted = setting.trim().replace(/^~(?=$|[\\/])/, () => homedir());
  const candidates = candidatesFor(wanted, machine);
  const found = candidates.find((candidate) => machine.isProgram(candidate));
  if (found) return { launch: { kind: "program", command: found } };
  const where = candidates.length ? candidates.join(", ") : "nowhere: no workspace folder is open";
  return {
    launch: { kind: "bundled" },
    problem: `filterc: no program ${JSON.stringify(setting)} found (${SETTING}); looked at ${where}. The bundled language server runs instead.`,
  };
}

/** Where a program named `wanted` may be: the path itself, in each workspace folder, or on PATH. */
function candidatesFor(wanted: string, machine: Machine): string[] {
  const separators = machine.platform === "win32" ? /[\\/]/ : /\//;
  if (isAbsolute(wanted)) return [wanted];
  if (separators.test(wanted)) return machine.folders.map((folder) => join(folder, wanted));
  const endings =
    machine.platform === "win32"
      ? ["", ...(machine.pathExtensions ?? ".COM;.EXE;.BAT;.CMD").split(";").filter(Boolean)]
      : [""];
  const folders = machine.path.split(machine.platform === "win32" ? ";" : delimiter).filter(Boolean);
  return folders.flatMap((folder) => endings.map((ending) => join(folder, wanted + ending)));
}
