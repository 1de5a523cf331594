import { open, stat } from "node:fs/promises";
import { resolve } from "node:path";
import { terminalJson } from "../diagnostics/index.js";
import { expandGlob, GLOB_LIMITS, GlobError, isGlob } from "../files/index.js";
import { startsGzip } from "../logs/index.js";
import { type Location, parseLocation } from "../sql/index.js";
import { UserError } from "./io.js";

/** A local file a path or glob names, and whether its first bytes are gzip's (as eval tells). */
export interface LocalFile {
  path: string;
  gzip: boolean;
}

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
 * or not (`[1].ndjson`); otherwise the glob is expanded as `expandGlob` reads it. Each file is
 * opened for its first bytes: gzip or not is told by them, whatever the name says.
 */
export async function localFiles(path: string, cwd: string, limits = GLOB_LIMITS): Promise<LocalFile[]> {
  const shown = terminalJson(path);
  const info = await stat(resolve(cwd, path)).catch((error: NodeJS.ErrnoException) => error);
  if (!(info instanceof Error) && info.isFile()) return [await sniffed(path, cwd)];
  if (!isGlob(path)) {
    if (info instanceof Error)
      throw new UserError(`cannot read ${shown}: ${info.code === "ENOENT" ? "no such file" : info.code}`);
    throw new UserError(`${shown} is not a file`);
  }
  const found = await expandGlob(path, cwd, limits).catch((error: unknown) => {
    throw error instanceof GlobError ? new UserError(error.message) : error;
  });
  if (found.length === 0) throw new UserError(`no file matches ${shown}`);
  const files: LocalFile[] = [];
  for (const file of found) files.push(await sniffed(file, cwd));
  return files;
}

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
