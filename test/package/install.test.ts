import { execFileSync, spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensurePlayground } from "../helpers/bundles.js";

/*
 * The package as a user gets it: packed, installed from the tarball into an empty folder with
 * --engine-strict (npm's cache from the repository's own install serves the dependencies), and
 * used from ESM, CommonJS, TypeScript and the command line.
 */

const root = fileURLToPath(new URL("../../", import.meta.url));
const manifest = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
/** What a default install of filterc may weigh, its dependencies included. */
const MAX_INSTALL_BYTES = 20 * 1024 * 1024;
const EXPECTED_JSON = '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":"500"}}';

let dir: string;
const run = (command: string, args: string[], input?: string) =>
  execFileSync(command, args, { cwd: dir, encoding: "utf8", input, stdio: ["pipe", "pipe", "pipe"] });
const npm = (args: string[]) => run("npm", [...args, "--no-audit", "--no-fund", "--prefer-offline"]);

async function bytesUnder(path: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(path, { withFileTypes: true })) {
    const full = join(path, entry.name);
    if (entry.isDirectory()) total += await bytesUnder(full);
    else if (entry.isFile()) total += (await stat(full)).size;
  }
  return total;
}

beforeAll(async () => {
  ensurePlayground();
  dir = await mkdtemp(join(tmpdir(), "filterc-install-"));
  // --ignore-scripts: the bundles are built above; prepare would rebuild them under the other tests.
  const [packed] = JSON.parse(
    execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", dir], {
      cwd: root,
      encoding: "utf8",
    }),
  );
  await writeFile(join(dir, "package.json"), '{"name":"uses-filterc","private":true}\n');
  npm(["install", "--engine-strict", join(dir, packed.filename)]);
}, 300_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the packed package, installed from its tarball", () => {
  it("weighs at most 20 MB with its dependencies, and installs no optional peer", async () => {
    const modules = join(dir, "node_modules");
    expect(await bytesUnder(modules)).toBeLessThanOrEqual(MAX_INSTALL_BYTES);
    const installed = (await readdir(modules)).filter((name) => !name.startsWith("."));
    expect(installed).not.toContain("@duckdb");
    expect(installed).not.toContain("@codemirror");
  });

  it("is imported from ESM and required from CommonJS", () => {
    const use = 'compile("EdgeResponseStatus geq 500").filter';
    expect(
      run("node", ["--input-type=module", "-e", `import { compile } from "filterc"; console.log(${use});`]),
    ).toBe(`${EXPECTED_JSON}\n`);
    expect(run("node", ["-e", `const { compile } = require("filterc"); console.log(${use});`])).toBe(
      `${EXPECTED_JSON}\n`,
    );
  });

  it("type-checks in a strict TypeScript project", async () => {
    await writeFile(
      join(dir, "use.mts"),
      [
        'import { compile, type CompileResult, type Diagnostic } from "filterc";',
        'const result: CompileResult = compile("EdgeResponseStatus geq 500");',
        "const codes: string[] = result.diagnostics.map((d: Diagnostic) => d.code);",
        "const filter: string | null = result.filter;",
        "export const used = [filter, codes];",
        "",
      ].join("\n"),
    );
    const tsc = (file: string) =>
      spawnSync(
        process.execPath,
        [join(root, "node_modules/typescript/bin/tsc"), "--strict", "--noEmit", "--module", "nodenext", file],
        { cwd: dir, encoding: "utf8" },
      );
    expect(tsc("use.mts")).toMatchObject({ status: 0, stdout: "" });
    // A mistake is caught: the types are real, not any.
    await writeFile(
      join(dir, "wrong.mts"),
      'import { compile } from "filterc";\nexport const n: number = compile("a eq 1").filter;\n',
    );
    expect(tsc("wrong.mts")).toMatchObject({
      status: 2,
      stdout: expect.stringContaining(
        "wrong.mts(2,14): error TS2322: Type 'string | null' is not assignable to type 'number'.",
      ),
    });
  }, 120_000);

  it("runs the filterc command the package installs", () => {
    expect(run("npx", ["--no-install", "filterc", "compile"], "EdgeResponseStatus geq 500\n")).toBe(
      `${EXPECTED_JSON}\n`,
    );
  });
});

describe("package.json", () => {
  it("depends on exactly the packages the built files load", async () => {
    const dist = join(root, "dist");
    const loaded = new Set<string>();
    for (const file of await readdir(dist)) {
      if (!/\.(c?js)$/.test(file)) continue;
      const text = await readFile(join(dist, file), "utf8");
      for (const match of text.matchAll(/(?:require\(|from\s*|import\()"((?:@[\w.-]+\/)?[\w.-]+)[^"]*"/g)) {
        const name = match[1]!;
        if (!name.startsWith(".") && !name.startsWith("node:")) loaded.add(name);
      }
    }
    const builtins = new Set((await import("node:module")).builtinModules);
    const external = [...loaded].filter((name) => !builtins.has(name)).sort();
    const declared = [
      ...Object.keys(manifest.dependencies),
      ...Object.keys(manifest.peerDependencies),
    ].sort();
    expect(external).toEqual(declared);
  });
});
