import type { Dirent } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { terminalJson } from "../diagnostics/index.js";

/** How far a glob may reach. */
export interface GlobLimits {
  /** Most files a glob may match: the engines are handed each by name. */
  maxFiles: number;
  /** Most directory entries a glob's walk may look at (`/**` would walk the whole file system). */
  maxVisits: number;
}

export const GLOB_LIMITS: GlobLimits = { maxFiles: 100_000, maxVisits: 100_000 };

/** A glob that is malformed or reaches past its limits: the message says which, for the user. */
export class GlobError extends Error {
  override readonly name = "GlobError";
}

const GLOB = /[*?[]/;

/** Whether a path holds glob characters (`*`, `?`, `[`). */
export function isGlob(path: string): boolean {
  return GLOB.test(path);
}

/**
 * The files a glob names, relative to `cwd` (as the glob is: a relative glob gives relative
 * paths), sorted; none when it matches none. `*` and `?` match within one name, `[abc]`, `[a-z]`
 * and `[!a-z]` one character of a class (`[[]`, `[*]`, `[?]` name the character itself), and `**`
 * any depth of directories (not followed through symbolic links). A malformed glob, or one that
 * reaches past `limits`, is a GlobError.
 */
export async function expandGlob(path: string, cwd: string, limits = GLOB_LIMITS): Promise<string[]> {
  const shown = terminalJson(path);
  const absolute = path.startsWith("/");
  const segments = path.split("/").filter((segment, i) => segment !== "" || i === 0);
  const patterns = (absolute ? segments.slice(1) : segments).map((segment) =>
    segment === "**" || !GLOB.test(segment) ? segment : segmentPattern(segment, shown),
  );
  const walk = { visits: 0, shown, limits };
  let found: string[] = [absolute ? "/" : ""];
  for (const pattern of patterns) {
    const next: string[] = [];
    for (const base of found) {
      if (typeof pattern === "string" && pattern !== "**") next.push(join(base, pattern));
      else if (pattern === "**") await directoriesBelow(cwd, base, next, walk);
      else
        for (const entry of await entries(cwd, base, walk))
          if (pattern.test(entry.name)) next.push(join(base, entry.name));
      if (next.length > limits.maxFiles) throw tooMany(shown, limits);
    }
    found = next;
  }
  const files: string[] = [];
  for (const candidate of found.sort())
    if ((await stat(resolve(cwd, candidate)).catch(() => undefined))?.isFile()) files.push(candidate);
  return files;
}

/** A glob's walk so far: the entries it has looked at, against its limits. */
interface Walk {
  visits: number;
  shown: string;
  limits: GlobLimits;
}

const tooMany = (shown: string, limits: GlobLimits) =>
  new GlobError(`${shown} matches more than ${limits.maxFiles} files; name fewer (a narrower glob)`);

/** The entries of a directory, counted against the walk's `maxVisits` (an unreadable one has none). */
async function entries(cwd: string, base: string, walk: Walk): Promise<Dirent[]> {
  const found = await readdir(resolve(cwd, base || "."), { withFileTypes: true }).catch(() => []);
  walk.visits += found.length + 1;
  if (walk.visits > walk.limits.maxVisits)
    throw new GlobError(
      `${walk.shown} reaches more than ${walk.limits.maxVisits} files and directories; start it in a narrower directory`,
    );
  return found;
}

/** The directory and every directory below it, for `**`; symbolic links are not followed. */
async function directoriesBelow(cwd: string, base: string, into: string[], walk: Walk): Promise<void> {
  into.push(base);
  for (const entry of await entries(cwd, base, walk))
    if (entry.isDirectory()) await directoriesBelow(cwd, join(base, entry.name), into, walk);
}

/** A glob segment as a regular expression, or a clear error for a class that is not closed or a reversed range. */
function segmentPattern(segment: string, shown: string): RegExp {
  let source = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else if (c !== "[") source += escapeRegExp(c);
    else {
      const close = segment.indexOf("]", i + 2);
      if (close === -1)
        throw new GlobError(`malformed glob ${shown}: the [ of ${terminalJson(segment)} is not closed by ]`);
      let body = [...segment.slice(i + 1, close)];
      const negated = body[0] === "!";
      if (negated) body = body.slice(1);
      let members = "";
      for (let k = 0; k < body.length; k++) {
        if (body[k + 1] === "-" && k + 2 < body.length) {
          const [from, to] = [body[k]!, body[k + 2]!];
          if (from.codePointAt(0)! > to.codePointAt(0)!)
            throw new GlobError(
              `malformed glob ${shown}: the range ${terminalJson(`${from}-${to}`)} runs backwards`,
            );
          members += `${escapeRegExp(from)}-${escapeRegExp(to)}`;
          k += 2;
        } else members += escapeRegExp(body[k]!);
      }
      source += `[${negated ? "^/" : ""}${members}]`;
      i = close;
    }
  }
  return new RegExp(`^${source}$`, "u");
}

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
