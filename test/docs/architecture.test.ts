import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * docs/architecture.md is the code map: every path it names must exist, and every entry of src/
 * must have a row in its table of folders, so the map fails a test the day it goes stale.
 */

const root = fileURLToPath(new URL("../..", import.meta.url));
const page = readFileSync(join(root, "docs/architecture.md"), "utf8");

/** The repository's top-level folders and files a backticked path may start with. */
const roots = readdirSync(root).filter((name) => !name.startsWith(".") && name !== "node_modules");

/** Every backticked text that names a path in the repository (a folder/file, or a top-level entry). */
function namedPaths(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`([^`\s]+)`/g)].map((m) => m[1]!);
  return [...new Set(spans.filter((span) => roots.includes(span.split("/")[0]!) && /[/.]/.test(span)))];
}

/** A segment with `*` matches names in its folder; `<name>` stands for any name, so only its folder must exist. */
function resolves(path: string): boolean {
  let current = root;
  for (const segment of path.split("/").filter(Boolean)) {
    if (segment.includes("<")) return statSync(current).isDirectory();
    if (segment.includes("*")) {
      const pattern = new RegExp(`^${segment.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
      return existsSync(current) && readdirSync(current).some((name) => pattern.test(name));
    }
    current = join(current, segment);
    if (!existsSync(current)) return false;
  }
  return !path.endsWith("/") || statSync(current).isDirectory();
}

describe("docs/architecture.md", () => {
  it("names only paths that exist", () => {
    const paths = namedPaths(page);
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.filter((path) => !resolves(path))).toEqual([]);
  });

  it("has a row for every entry of src/, in the table of folders", () => {
    const rows = [...page.matchAll(/^\| `(src\/[^`]+)` \|/gm)].map((m) => m[1]!);
    const entries = readdirSync(join(root, "src")).map((name) =>
      statSync(join(root, "src", name)).isDirectory() ? `src/${name}/` : `src/${name}`,
    );
    expect([...rows].sort()).toEqual([...entries].sort());
  });

  it("lists the rows in the order test/package/layout.test.ts enforces, Node-only ones as it says", () => {
    const layout = readFileSync(join(root, "test/package/layout.test.ts"), "utf8");
    const listIn = (name: string) =>
      [...new RegExp(`const ${name} = \\[([^\\]]*)\\]`).exec(layout)![1]!.matchAll(/"([^"]+)"/g)].map(
        (m) => m[1]!,
      );
    const rows = [...page.matchAll(/^\| `src\/([^`/]+)\/?` \|.*\| ([^|]+) \|$/gm)].map((m) => ({
      entry: m[1]!,
      nodeOnly: m[2] === "Node only",
    }));
    expect(listIn("stages").length).toBeGreaterThan(10);
    expect(rows.map((row) => row.entry)).toEqual(listIn("stages"));
    expect(rows.filter((row) => row.nodeOnly).map((row) => row.entry)).toEqual(listIn("nodeOnly"));
  });

  it("tells a missing path from a present one", () => {
    expect(resolves("src/syntax/vocabulary.ts")).toBe(true);
    expect(resolves("src/syntax/vocabulary.js")).toBe(false);
    expect(resolves("test/conformance/*.json")).toBe(true);
    expect(resolves("test/conformance/*.yaml")).toBe(false);
    expect(resolves("src/cli/commands/<name>.ts")).toBe(true);
    expect(resolves("src/nowhere/<name>.ts")).toBe(false);
  });
});
