import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Script } from "node:vm";
// Not the folder's index: the CLI's entry bundle stays small.
import { moduleFile } from "../files/module-file.js";

/*
 * A command's bundle (dist/cli-NAME.cjs) is loaded as Node loads a CommonJS file, but with the
 * compiled code V8 cached for it at build time (dist/cli-NAME.cjs.cache, written by tsup.config.ts
 * for the short commands) when there is one: compiling the bundle was the largest part of what
 * `filterc compile` takes over bare node (bench/RESULTS.md, "Start-up with code caches"). V8 takes a cache only when its version, flags and
 * the source's length match, and compiles the source as usual otherwise. Since V8 checks no more
 * of the source, the build stamps the bundle and its cache with one id, and a cache whose id is
 * not the bundle's (a bundle of another build beside it) is left aside.
 */

/** The file name of the code cache of a bundle. */
export const codeCacheFile = (bundle: string): string => `${bundle}.cache`;

/** How long a build id is: it starts the cache file and ends the bundle, after CACHE_ID_MARK. */
export const CACHE_ID_LENGTH = 16;
export const CACHE_ID_MARK = "\n//# codeCache=";

/**
 * A bundle's source as one function of the names a CommonJS module sees, as Node wraps it (its
 * `#!` line blanked, since the function wraps it). The cache is made of this text and read with it.
 */
export function wrapBundle(source: string): string {
  const body = source.startsWith("#!") ? source.replace(/^#![^\n]*/, "") : source;
  return `(function (exports, require, module, __filename, __dirname) {${body}\n})`;
}

/** The id a bundle was stamped with at build time, or undefined for an unstamped one. */
function stampOf(source: string): string | undefined {
  const at = source.length - CACHE_ID_LENGTH - 1;
  if (source.slice(at - CACHE_ID_MARK.length, at) !== CACHE_ID_MARK) return undefined;
  return source.slice(at, at + CACHE_ID_LENGTH);
}

const here = dirname(moduleFile(import.meta.url));

/** The exports of the command bundle `name` (`cli-compile.cjs`) beside this file. */
export function requireCommandBundle(name: string): unknown {
  const filename = join(here, name);
  const require = createRequire(filename);
  let source: string;
  let cache: Buffer;
  try {
    source = readFileSync(filename, "utf8");
    cache = readFileSync(codeCacheFile(filename));
  } catch {
    return require(filename);
  }
  const stamp = stampOf(source);
  if (stamp === undefined || cache.toString("latin1", 0, CACHE_ID_LENGTH) !== stamp) return require(filename);
  const cachedData = cache.subarray(CACHE_ID_LENGTH);
  const script = new Script(wrapBundle(source), { filename, cachedData });
  const module = { exports: {} as unknown, filename, id: filename, loaded: false };
  const load = script.runInThisContext() as (...names: unknown[]) => void;
  load(module.exports, require, module, filename, here);
  module.loaded = true;
  return module.exports;
}
