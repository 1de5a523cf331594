import { lstat, realpath } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { regularFileChunks } from "./chunks.js";

/**
 * The folder that paths named inside a checked folder's files may lead into: the repository that
 * holds it (its nearest ancestor with a `.git` entry, a folder or a worktree's file), or, when no
 * repository does, `around` if it holds the folder (the current folder), else the folder itself.
 * A configuration read in CI comes from a pull request, so what it names must not send the reader
 * to the runner's secrets (`/proc/self/environ`, `~/.ssh`).
 */
export async function confinementRoot(folder: string, around?: string): Promise<string> {
  for (let at = resolve(folder); ; at = dirname(at)) {
    if (await lstat(join(at, ".git")).catch(() => undefined)) return at;
    if (dirname(at) === at) break;
  }
  return around !== undefined && inside(resolve(around), resolve(folder)) ? resolve(around) : resolve(folder);
}

/**
 * The real path of `path` (relative to `base`) when it lies inside `root`, links resolved; or why
 * it is not read: an absolute path, a `..` that leaves the root, a link that resolves out of it. A
 * path that does not resolve (a missing file) is given back as written, for the reader to say so.
 */
export async function confinedPath(
  root: string,
  base: string,
  path: string,
): Promise<{ path: string } | { outside: string }> {
  if (isAbsolute(path)) return { outside: "it is an absolute path" };
  const absolute = resolve(base, path);
  if (!inside(resolve(root), absolute)) return { outside: "it leads out of the folder checked" };
  const realRoot = await realpath(root).catch(() => resolve(root));
  const real = await realpath(absolute).catch(() => undefined);
  if (real === undefined) return { path: absolute };
  if (!inside(realRoot, real)) return { outside: "a link in it leads out of the folder checked" };
  return { path: real };
}

const inside = (root: string, path: string) => {
  const rest = relative(root, path);
  return rest === "" || (!rest.startsWith(`..${sep}`) && rest !== ".." && !isAbsolute(rest));
};

/**
 * The real path of a file that a file names, as confinedPath finds it; a path outside `root` is an
 * error that says why, with `rule` (which files may be named) after it.
 */
export async function pathInside(root: string, base: string, path: string, rule: string): Promise<string> {
  const confined = await confinedPath(root, base, path);
  if ("outside" in confined) throw new Error(`not read: ${confined.outside} (${rule})`);
  return confined.path;
}

/** A regular file's chunks (regularFileChunks) when the file lies inside `root` (pathInside). */
export async function* chunksInside(
  root: string,
  base: string,
  path: string,
  rule: string,
): AsyncGenerator<Buffer> {
  yield* regularFileChunks(await pathInside(root, base, path, rule));
}
