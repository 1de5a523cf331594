import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { UserError } from "./io.js";

const GLOB = /[*?[]/;

/** A glob segment as a regular expression: `*` and `?` within one name, `[...]` a class. */
function segmentPattern(segment: string): RegExp {
  const source = segment
    .replace(/[.+^${}()|\\]/g, "\\$&")
    .replace(/\*/g, "[^/]*")
    .replace(/\?/g, "[^/]");
  return new RegExp(`^${source}$`);
}

/** Most files a glob is expanded to before the check stops counting (the engines read them, not filterc). */
const MAX_MATCHES = 100_000;

/**
 * The local files a path or glob (`*`, `?`, `[...]`, `**` for any depth) names, relative to `cwd`;
 * a clear error when it names none. The engines expand the glob themselves: this is the check that
 * the query will read something, made before it runs.
 */
export async function localFiles(path: string, cwd: string): Promise<string[]> {
  if (!GLOB.test(path)) {
    const info = await stat(resolve(cwd, path)).catch((error: NodeJS.ErrnoException) => error);
    if (info instanceof Error)
      throw new UserError(
        `cannot read ${JSON.stringify(path)}: ${info.code === "ENOENT" ? "no such file" : info.code}`,
      );
    if (!info.isFile()) throw new UserError(`${JSON.stringify(path)} is not a file`);
    return [path];
  }
  const absolute = path.startsWith("/");
  const segments = path.split("/").filter((segment, i) => segment !== "" || i === 0);
  let found: string[] = [absolute ? "/" : ""];
  for (const segment of absolute ? segments.slice(1) : segments) {
    const next: string[] = [];
    for (const base of found) {
      if (!GLOB.test(segment)) {
        next.push(join(base, segment));
        continue;
      }
      if (segment === "**") {
        for (const directory of await directoriesBelow(resolve(cwd, base), base)) next.push(directory);
        continue;
      }
      const pattern = segmentPattern(segment);
      const names = await readdir(resolve(cwd, base || ".")).catch(() => [] as string[]);
      for (const name of names) if (pattern.test(name)) next.push(join(base, name));
      if (next.length > MAX_MATCHES) break;
    }
    found = next;
  }
  const files: string[] = [];
  for (const candidate of found)
    if ((await stat(resolve(cwd, candidate)).catch(() => undefined))?.isFile()) files.push(candidate);
  if (files.length === 0) throw new UserError(`no file matches ${JSON.stringify(path)}`);
  return files.sort();
}

/** The directory and every directory below it (for `**`). */
async function directoriesBelow(directory: string, shown: string): Promise<string[]> {
  const all = [shown];
  const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
  for (const entry of entries)
    if (entry.isDirectory())
      for (const below of await directoriesBelow(join(directory, entry.name), join(shown, entry.name)))
        all.push(below);
  return all;
}
