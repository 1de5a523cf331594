import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import config from "../../vitest.config.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith(".test.ts") ? [relative(root, path)] : [];
  });
}

describe("the test configuration", () => {
  it("gives a module graph of its own to exactly the files that replace modules", () => {
    const projects = config.test!.projects as {
      test: { name: string; include: string[]; exclude?: string[] };
    }[];
    const isolated = projects.find((project) => project.test.name === "isolated")!.test.include;
    const shared = projects.find((project) => project.test.name === "shared")!.test.exclude;
    const mocking = testFiles(join(root, "test"))
      .filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(join(root, file), "utf8")))
      .sort();
    expect([...isolated].sort()).toEqual(mocking);
    expect(shared).toEqual(isolated);
  });
});
