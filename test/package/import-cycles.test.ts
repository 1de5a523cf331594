import { readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles, src } from "../helpers/sources.js";

/** Every relative import and re-export of a module (not data: JSON), type-only ones included, as files of src/. */
function importsOf(path: string): string[] {
  const text = readFileSync(path, "utf8");
  const specifiers = [
    ...text.matchAll(
      /(?:^|\n)\s*(?:import|export)[^"';]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
    ),
  ].map((m) => (m[1] ?? m[2])!);
  return specifiers
    .filter((specifier) => specifier.startsWith(".") && !specifier.endsWith(".json"))
    .map((specifier) => relative(src, join(dirname(path), specifier.replace(/\.js$/, ".ts"))));
}

const graph = new Map(sourceFiles(src).map((path) => [relative(src, path), importsOf(path)]));

/** Each cycle once, as the files around it from the first one found (depth-first, in path order). */
function cycles(): string[] {
  const found: string[] = [];
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (file: string) => {
    const at = onPath.indexOf(file);
    if (at !== -1) {
      found.push([...onPath.slice(at), file].join(" → "));
      return;
    }
    if (done.has(file) || !graph.has(file)) return;
    onPath.push(file);
    for (const next of graph.get(file)!) visit(next);
    onPath.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) visit(file);
  return found;
}

describe("imports among the files of src/", () => {
  it("form no cycle, type-only imports included", () => {
    expect(cycles()).toEqual([]);
  });

  it("are all found: every relative import names a file of src/", () => {
    const missing = [...graph].flatMap(([file, imports]) =>
      imports.filter((target) => !graph.has(target)).map((target) => `${file} imports ${target}`),
    );
    expect(missing).toEqual([]);
  });
});
