import { fileURLToPath } from "node:url";

/**
 * The file of the module that calls it, given its `import.meta.url`, in every form the code runs
 * in: an ES module (the sources under the tests, the library's ESM build) has that URL; a CommonJS
 * bundle made without a shim (the VS Code extension's server, esbuild's `cjs` format) has an empty
 * `import.meta`, and there the bundle's own `__filename` is the file, as every module of a bundle
 * lies in it.
 */
export function moduleFile(url: string | undefined): string {
  return url === undefined ? __filename : fileURLToPath(url);
}
