import type { Dirent } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { terminalJson } from "../diagnostics/index.js";
import { startsGzip } from "../logs/index.js";
import { type Location, parseLocation } from "../sql/index.js";
import { UserError } from "./io.js";

/** How far a glob may reach. */
export interface GlobLimits {
  /** Most files a glob may match: the engines are handed each by name. */
  maxFiles: number;
  /** Most directory entries a glob's walk may look at (`/**` would walk the whole file system). */
  maxVisits: number;
}

export const GLOB_LIMITS: GlobLimits = { maxFiles: 100_000, maxVisits: 100_000 };

/** A local file a path or glob names, and whether its first bytes are gzip's (as eval tells). */
export interface LocalFile {
  path: string;
  gzip: boolean;
}

const GLOB = /[*?[]/;

/**
 * Where `--from` and `query` read, with each local path or glob expanded here to the files it
 * names, gzip ones and others apart: the engines are handed the files, so that a glob means what it
 * means here, and a gzip file is read as gzip whatever its name.
 */
export async function readLocations(paths: readonly string[], cwd: string): Promise<Location[]> {
  const locations: Location[] = [];
  for (const path of paths) {
    const location = parseLocation(path);
    if (location.kind !== "file") {
      locations.push(location);
      continue;
    }
    const files = await localFiles(location.path, cwd);
    for (const gzip of [false, true]) {
      const named = files.filter((file) => file.gzip === gzip).map((file) => file.path);
      if (named.length > 0) locations.push({ kind: "local", paths: named, gzip });
    }
  }
  return locations;
}

/**
 * The local files a path or glob names, relative to `cwd`, with a clear error when it names none,
 * is malformed, or reaches past the limits. A path that names a file is that file, glob characters
 * or not (`[1].ndjson`); otherwise `*` and `?` match within one name, `[abc]`, `[a-z]` and `[!a-z]`
 * one character of a class (`[[]`, `[*]`, `[?]` name the character itself), and `**` any depth of
 * directories (not followed through symbolic links). Each file is opened for its first bytes:
 * gzip or not is told by them, whatever the name says.
 */
export async function localFiles(path: string, cwd: string, limits = GLOB_LIMITS): Promise<LocalFile[]> {
  const shown = terminalJson(path);
  const info = await stat(resolve(cwd, path)).catch((error: NodeJS.ErrnoException) => error);
  if (!(info instanceof Error) && info.isFile()) return [await sniffed(path, cwd)];
  if (!GLOB.test(path)) {
    if (info instanceof Error)
      throw new UserError(`cannot read ${shown}: ${info.code === "ENOENT" ? "no such file" : info.code}`);
    throw new UserError(`${shown} is not a file`);
  }
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
  const files: LocalFile[] = [];
  for (const candidate of found.sort())
    if ((await stat(resolve(cwd, candidate)).catch(() => undefined))?.isFile())
      files.push(await sniffed(candidate, cwd));
  if (files.length === 0) throw new UserError(`no file matches ${shown}`);
  return files;
}

/** A glob's walk so far: the entries it has looked at, against its limits. */
interface Walk {
  visits: number;
  shown: string;
  limits: GlobLimits;
}

const tooMany = (shown: string, limits: GlobLimits) =>
  new UserError(`${shown} matches more than ${limits.maxFiles} files; name fewer (a narrower glob)`);

/** The entries of a directory, counted against the walk's `maxVisits` (an unreadable one has none). */
async function entries(cwd: string, base: string, walk: Walk): Promise<Dirent[]> {
  const found = await readdir(resolve(cwd, base || "."), { withFileTypes: true }).catch(() => []);
  walk.visits += found.length + 1;
  if (walk.visits > walk.limits.maxVisits)
    throw new UserError(
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
        throw new UserError(`malformed glob ${shown}: the [ of ${terminalJson(segment)} is not closed by ]`);
      let body = [...segment.slice(i + 1, close)];
      const negated = body[0] === "!";
      if (negated) body = body.slice(1);
      let members = "";
      for (let k = 0; k < body.length; k++) {
        if (body[k + 1] === "-" && k + 2 < body.length) {
          const [from, to] = [body[k]!, body[k + 2]!];
          if (from.codePointAt(0)! > to.codePointAt(0)!)
            throw new UserError(
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

async function sniffed(path: string, cwd: string): Promise<LocalFile> {
  const head = Buffer.alloc(2);
  const handle = await open(resolve(cwd, path), "r").catch((error: NodeJS.ErrnoException) => {
    throw new UserError(`cannot read ${terminalJson(path)}: ${error.code ?? error.message}`);
  });
  try {
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    return { path, gzip: startsGzip(head.subarray(0, bytesRead)) };
  } finally {
    await handle.close();
  }
}
