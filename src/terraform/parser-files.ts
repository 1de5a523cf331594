import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { moduleFile } from "../files/index.js";

/** The WebAssembly files of the HCL parser, as the build puts them beside the CLI's bundles. */
export const PARSER_FILE_NAMES = {
  runtime: "web-tree-sitter.wasm",
  grammar: "tree-sitter-hcl.wasm",
} as const;

/** Where the packages that provide them keep them (the build copies them from there). */
export const PARSER_PACKAGE_FILES = {
  runtime: "web-tree-sitter/web-tree-sitter.wasm",
  grammar: "@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-hcl.wasm",
} as const;

/**
 * The paths of the parser's runtime and grammar: beside this module in the built package (dist/),
 * else in the development dependencies (the sources run by the tests).
 */
export function hclParserFiles(): { runtime: string; grammar: string } {
  const file = moduleFile(import.meta.url);
  const here = (name: string) => join(dirname(file), name);
  if (existsSync(here(PARSER_FILE_NAMES.grammar)))
    return { runtime: here(PARSER_FILE_NAMES.runtime), grammar: here(PARSER_FILE_NAMES.grammar) };
  const require = createRequire(file);
  return {
    runtime: require.resolve(PARSER_PACKAGE_FILES.runtime),
    grammar: require.resolve(PARSER_PACKAGE_FILES.grammar),
  };
}
