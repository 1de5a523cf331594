import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (name: string) => JSON.parse(readFileSync(new URL(`../../${name}`, import.meta.url), "utf8"));

describe("package-lock.json", () => {
  it("records package.json's own entry as it is, so that npm install on a fresh clone changes nothing", () => {
    const manifest = read("package.json");
    const root = read("package-lock.json").packages[""];
    for (const key of ["name", "version", "license", "bin", "engines", "dependencies", "devDependencies"])
      expect(root[key], `packages[""].${key}`).toEqual(manifest[key]);
    for (const key of ["peerDependencies", "peerDependenciesMeta"])
      expect(root[key], `packages[""].${key}`).toEqual(manifest[key]);
  });
});
