import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sourceFiles, src } from "../helpers/sources.js";

/** The pipeline order: a stage may import only the stages before it (and itself). */
const stages = [
  "diagnostics",
  "catalog",
  "syntax",
  "check",
  "emit",
  "compile.ts",
  "print",
  "decompile",
  "load",
  "eval",
  "sql",
  "diff",
  "filter-tests",
  "service",
  "api",
  "files",
  "logs",
  "terraform",
  "sandbox",
  "console",
  "lsp",
  "codemirror",
  "cli",
  "index.ts",
];

/** These run on Node only; every other stage runs in browsers too: no node:* modules, no Node globals. */
const nodeOnly = ["files", "logs", "terraform", "sandbox", "console", "lsp", "cli"];
const core = stages.filter((stage) => !nodeOnly.includes(stage));

const stageOf = (path: string) => relative(src, path).split(/[\\/]/)[0]!;

const files = sourceFiles(src).map((path) => {
  const text = readFileSync(path, "utf8");
  const imports = [
    ...text.matchAll(
      /(?:^|\n)\s*(?:import|export)[^"';]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g,
    ),
  ].map((m) => (m[1] ?? m[2])!);
  return { path, stage: stageOf(path), text, imports };
});

describe("source layout", () => {
  it("puts every file of src/ in a known stage", () => {
    const unknown = files.filter((f) => !stages.includes(f.stage)).map((f) => relative(src, f.path));
    expect(unknown).toEqual([]);
  });

  it("has each stage import only itself and the stages before it", () => {
    const violations: string[] = [];
    for (const file of files) {
      const rank = stages.indexOf(file.stage);
      for (const specifier of file.imports.filter((s) => s.startsWith("."))) {
        const target = stageOf(join(file.path, "..", specifier).replace(/\.js$/, ".ts"));
        if (stages.indexOf(target) > rank)
          violations.push(`${relative(src, file.path)} imports ${specifier} (${target})`);
      }
    }
    expect(violations).toEqual([]);
  });

  it("computes a filter's meaning only in src/check/: every other stage is handed it", () => {
    const computing = files
      .filter((f) => f.stage !== "check" && /\btoNegationNormalForm\b|\/negate\.js["']/.test(f.text))
      .map((f) => relative(src, f.path));
    expect(computing).toEqual([]);
  });

  it("keeps the core free of Node-only APIs so it runs in a browser", () => {
    const nodeOnly = /\b(process\.|Buffer\b|__dirname|require\()/;
    const violations = files
      .filter((f) => core.includes(f.stage))
      .flatMap((f) => [
        ...f.imports
          .filter((s) => s.startsWith("node:") || s === "fs" || s === "path")
          .map((s) => `${relative(src, f.path)} imports ${s}`),
        ...(nodeOnly.test(f.text.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, ""))
          ? [`${relative(src, f.path)} uses a Node global`]
          : []),
      ]);
    expect(violations).toEqual([]);
  });
});

/**
 * Folders of test/ that are no stage: what crosses stages, the data and helpers beside the tests, and
 * `out/`, where tests write (git ignores it).
 */
const crossCutting = [
  "properties",
  "docs",
  "package",
  "browser",
  "editors",
  "conformance",
  "fixtures",
  "helpers",
  "out",
];

describe("test layout", () => {
  const testRoot = fileURLToPath(new URL("..", import.meta.url));
  const stageFolders = stages.map((stage) => stage.replace(/\.ts$/, "")).filter((name) => name !== "index");

  it("mirrors src/: every folder of test/ is a stage or a named cross-cutting folder", () => {
    const folders = readdirSync(testRoot).filter((name) => statSync(join(testRoot, name)).isDirectory());
    expect(folders.filter((name) => !stageFolders.includes(name) && !crossCutting.includes(name))).toEqual(
      [],
    );
  });

  it("leaves no test file loose in test/", () => {
    expect(readdirSync(testRoot).filter((name) => name.endsWith(".test.ts"))).toEqual([]);
  });
});
