import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
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
/** What a default install of filterc may weigh on disk, its dependencies included, as `du -sk` counts it. */
const MAX_INSTALL_KIB = 20 * 1024;
const EXPECTED_JSON = '{"where":{"key":"EdgeResponseStatus","operator":"geq","value":"500"}}';

let dir: string;
let tarball: string;
/** What npm said while it installed the tarball. */
let installed: { stdout: string; stderr: string };
const run = (command: string, args: string[], input?: string) =>
  execFileSync(command, args, { cwd: dir, encoding: "utf8", input, stdio: ["pipe", "pipe", "pipe"] });
const NPM_QUIET = ["--no-audit", "--no-fund", "--prefer-offline"];

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
  tarball = join(dir, packed.filename);
  const install = spawnSync("npm", ["install", "--engine-strict", tarball, ...NPM_QUIET], {
    cwd: dir,
    encoding: "utf8",
  });
  expect(install.status, install.stderr).toBe(0);
  installed = { stdout: install.stdout, stderr: install.stderr };
}, 300_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("the packed package, installed from its tarball", () => {
  it("installs quietly: no script runs at install, and npm has nothing to warn of", async () => {
    expect(installed.stderr).toBe("");
    const scripts = JSON.parse(
      await readFile(join(dir, "node_modules/filterc/package.json"), "utf8"),
    ).scripts;
    for (const event of ["preinstall", "install", "postinstall", "prepare"])
      expect(scripts).not.toHaveProperty(event);
  });

  it("weighs at most 20 MB on disk with its dependencies (du -sk), and installs no optional peer", async () => {
    const modules = join(dir, "node_modules");
    const kib = Number(execFileSync("du", ["-sk", modules], { encoding: "utf8" }).split("\t")[0]);
    expect(kib).toBeLessThanOrEqual(MAX_INSTALL_KIB);
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

/** The command `bin` as a user's shell runs it, from `cwd`. */
function filterc(bin: string, args: string[], cwd = dir) {
  const ran = spawnSync(bin, args, { cwd, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  return { code: ran.status, stdout: ran.stdout, stderr: ran.stderr };
}

const DUCKDB = `@duckdb/node-api@${manifest.peerDependencies["@duckdb/node-api"]}`;
const LOG = '{"BotScore":10,"RayID":"a"}\n{"BotScore":90,"RayID":"b"}\n';

/** The command the query's error says to run, after its last ": ". */
function hintedCommand(stderr: string): string {
  const line = stderr.split("\n")[0]!;
  return line.slice(line.lastIndexOf(": ") + 2);
}

/** What the CLI does the same however it was installed: did you mean, the version, completion, the manual. */
async function checkCommand(bin: string, page: string): Promise<void> {
  for (const flag of ["-v", "-V"])
    expect(filterc(bin, [flag])).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: "" });
  expect(filterc(bin, ["compil"]).stderr).toBe(
    'filterc: unknown command "compil"; did you mean compile?\nRun filterc --help for the commands.\n',
  );
  expect(filterc(bin, ["fields", "list"]).stderr.split("\n")[0]).toBe(
    filterc(bin, ["fields", "get"]).stderr.split("\n")[0],
  );
  expect(filterc(bin, ["compile", "--dataset", "http_request"]).stderr).toBe(
    'filterc compile: unknown dataset "http_request"; known datasets: http_requests, access_requests, nel_reports, dns_logs, gateway_dns and 32 more (did you mean http_requests?)\nRun filterc datasets for every name.\n',
  );
  expect(filterc(bin, ["check", "--bogus"]).stderr.split("\n")[2]).toBe(
    "       filterc check PATH.tf|FOLDER... [--fix] [--json]",
  );
  // The Terraform check (check-extras.cjs, loaded when asked) against a catalog read from its file,
  // and the warning of a limit above the service's.
  const infra = join(dir, "infra");
  await mkdir(infra, { recursive: true });
  await writeFile(
    join(infra, "main.tf"),
    'resource "cloudflare_logpush_job" "a" {\n  zone_id = "023e105f4ecef8ad9ca31a8372d0c353"\n  dataset = "gateway_dns"\n  filter  = jsonencode({ where = { key = "QueryName", operator = "eq", value = "example.com" } })\n}\n',
  );
  expect(filterc(bin, ["check", "infra", "--max-bytes", "5000"])).toEqual({
    code: 1,
    stdout: "",
    stderr: [
      "warning: the byte limit is 5000 (--max-bytes), above the service's 1000: it refuses a filter longer than 1000 bytes",
      "error[E0621]: the dataset `gateway_dns` has no zone-level jobs; it exists at account level (give account_id instead of zone_id)",
      " --> infra/main.tf:3:13",
      "  |",
      '3 |   dataset = "gateway_dns"',
      "  |             ^^^^^^^^^^^^^",
      "1 error",
      "",
    ].join("\n"),
  });
  const script = join(dir, "filterc.bash");
  await writeFile(script, filterc(bin, ["completion", "bash"]).stdout);
  const completed = execFileSync(
    "bash",
    [
      "--norc",
      "-c",
      `source ${script}; complete -p filterc; COMP_WORDS=(filterc jobs d); COMP_CWORD=2; _filterc; echo "\${COMPREPLY[*]}"`,
    ],
    { encoding: "utf8" },
  );
  expect(completed).toBe("complete -F _filterc filterc\ndelete disable diff\n");
  const man = spawnSync("man", ["--warnings", "-P", "cat", ...page.split(" ")], {
    encoding: "utf8",
    env: { ...process.env, MANWIDTH: "100", LANG: "C.UTF-8" },
  });
  expect(man.stderr).toBe("");
  expect(man.stdout).toContain("filterc - Cloudflare Logpush filters, checked before they are sent");
  expect(man.stdout).toContain("filterc completion bash|zsh|fish");
}

describe("the filterc command of a local install", () => {
  const bin = () => join(dir, "node_modules/.bin/filterc");

  it("suggests, prints its version, completes in bash and has its manual page", async () => {
    await checkCommand(bin(), `-l ${join(dir, "node_modules/filterc/dist/filterc.1")}`);
  });

  it("says the command that installs DuckDB beside it, which then works", async () => {
    await writeFile(join(dir, "log.ndjson"), LOG);
    const query = ["query", "--expr", "BotScore lt 30", "log.ndjson"];
    const missing = filterc(bin(), query);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^filterc query: embedded DuckDB, the optional package @duckdb\/node-api, is not installed beside filterc \(Cannot find module '@duckdb\/node-api'\); install it with: /,
    );
    const command = hintedCommand(missing.stderr);
    expect(command).toBe(`npm install --prefix ${dir} ${DUCKDB}`);
    // Run from elsewhere: the command says where, so the working folder does not matter.
    execFileSync("sh", ["-c", `${command} ${NPM_QUIET.join(" ")}`], { cwd: tmpdir(), stdio: "pipe" });
    const found = filterc(bin(), query);
    expect(found.stderr).toBe("");
    expect(found).toMatchObject({ code: 0, stdout: expect.stringContaining('"RayID":"a"') });
    expect(found.stdout).not.toContain('"RayID":"b"');
  }, 300_000);
});

describe("the filterc command of a global install", () => {
  let prefix: string;
  let elsewhere: string;
  beforeAll(async () => {
    // Outside the local install's folder, whose node_modules Node would find DuckDB in.
    prefix = await mkdtemp(join(tmpdir(), "filterc-global-"));
    elsewhere = await mkdtemp(join(tmpdir(), "filterc-elsewhere-"));
    const install = spawnSync("npm", ["install", "--global", "--prefix", prefix, tarball, ...NPM_QUIET], {
      encoding: "utf8",
      cwd: elsewhere,
    });
    expect(install.status, install.stderr).toBe(0);
    expect(install.stderr).toBe("");
  }, 300_000);
  afterAll(async () => {
    for (const folder of [prefix, elsewhere]) if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("suggests, prints its version, completes in bash, and man filterc finds its page", async () => {
    await checkCommand(join(prefix, "bin/filterc"), `-M ${join(prefix, "share/man")} filterc`);
  });

  it("says the global install of DuckDB beside it, which then works from any folder", async () => {
    await writeFile(join(elsewhere, "log.ndjson"), LOG);
    const query = ["query", "--expr", "BotScore lt 30", "log.ndjson"];
    const missing = filterc(join(prefix, "bin/filterc"), query, elsewhere);
    expect(missing.code).toBe(1);
    const command = hintedCommand(missing.stderr);
    expect(command).toBe(`npm install --global --prefix ${prefix} ${DUCKDB}`);
    execFileSync("sh", ["-c", `${command} ${NPM_QUIET.join(" ")}`], { cwd: elsewhere, stdio: "pipe" });
    const found = filterc(join(prefix, "bin/filterc"), query, elsewhere);
    expect(found).toMatchObject({ code: 0, stderr: "", stdout: expect.stringContaining('"RayID":"a"') });
  }, 300_000);
});

describe("the filterc command run by npx", () => {
  it("says the npx command with DuckDB beside filterc, which then works", async () => {
    const folder = await mkdtemp(join(tmpdir(), "filterc-npx-"));
    try {
      await writeFile(join(folder, "log.ndjson"), LOG);
      const npx = (packages: string[]) =>
        spawnSync(
          "npx",
          [
            "--yes",
            ...packages.flatMap((name) => ["-p", name]),
            "filterc",
            "query",
            "--expr",
            "BotScore lt 30",
            "log.ndjson",
          ],
          {
            cwd: folder,
            encoding: "utf8",
            env: { ...process.env, NO_COLOR: "1", npm_config_prefer_offline: "true" },
          },
        );
      const missing = npx([tarball]);
      expect(missing.status).toBe(1);
      const command = hintedCommand(missing.stderr);
      expect(command).toBe(`npx -p filterc@${manifest.version} -p ${DUCKDB} filterc query …`);
      // The same command, with the tarball standing for the published package.
      const found = npx([tarball, DUCKDB]);
      expect(found).toMatchObject({ status: 0, stdout: expect.stringContaining('"RayID":"a"') });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 300_000);
});
