import { lstat, realpath } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/**
 * The folder that paths named inside a checked folder's files may lead into: the repository that
 * holds it (its nearest ancestor with a `.git` entry, a folder or a worktree's file), or the
 * folder itself when no repository does. A configuration read in CI comes from a pull request, so
 * what it names must not send the reader to the runner's secrets (`/proc/self/environ`, `~/.ssh`).
 */
export async function confinementRoot(folder: string): Promise<string> {
  for (let at = resolve(folder); ; at = dirname(at)) {
    if (await lstat(join(at, ".git")).catch(() => undefined)) return at;
    if (dirname(at) === at) return resolve(folder);
  }
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
