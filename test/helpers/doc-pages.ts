/**
 * The harness of the documentation's examples: every code block of README.md, docs/*.md and
 * grammar/*.md is run, and what it shows is compared with what it does. The pages are spread over a
 * few test files (test/docs/examples*.test.ts, as PAGE_FILES says) so that parallel workers share
 * them. The convention (also in docs/testing.md):
 *
 * - Each page runs in its own temporary directory, shared by its blocks in order, with `filterc` (the
 *   built dist/cli.cjs) on PATH and a clean environment (no CLOUDFLARE_* variables, TZ=UTC).
 * - ```` ```console ````: commands on lines starting with `$ ` (a line ending in `\` continues on the
 *   next), each run by bash and followed by its output, stdout then stderr, and a last line `[exit N]`
 *   when the status is not 0. `…` in an output line stands for any text within that line (for what
 *   changes between runs: generated ids and tokens, timestamps).
 * - A block whose info string holds `file=NAME` (```` ```lpf file=errors.lpf ````) writes its text to
 *   NAME before the page's later blocks run.
 * - ```` ```ts ````: library code, run by Node as an ES module importing the built package as
 *   `filterc`. `statement; // → value` (or `// → value` on the next line, continued on comment lines
 *   indented past the `//`) shows the statement's value, compared with `util.isDeepStrictEqual`. A
 *   block followed by an ```` ```output ```` block must print exactly that on stdout; otherwise it must
 *   print nothing. Nothing on stderr, exit 0. ```` ```ts browser ```` runs the block in Chromium
 *   instead (bundled by esbuild, on a page with an empty `<div id="editor">`); values compare as JSON.
 * - `sandbox` in a console or ts block's info string: the page gets a real `filterc sandbox` on
 *   127.0.0.1 (a free port, data in `.filterc-sandbox` of the page's directory, token
 *   `docs-token`), started before the first such block, and those blocks get CLOUDFLARE_BASE_URL and
 *   CLOUDFLARE_API_TOKEN in their environment. Its address is written `http://127.0.0.1:8787` in
 *   the documented output (8787 is the sandbox's default port); the harness substitutes it.
 * - `workflow` in a file block's info string (```` ```yaml file=.github/workflows/filters.yml workflow ````):
 *   a CI workflow (GitHub Actions or GitLab CI), written, then each shell command of its steps run by
 *   bash in the page's directory, where it must exit 0; its `npm install`/`npm ci` lines are not run
 *   (the page has `filterc` on PATH already, and no network).
 * - ```` ```sh ci ````: the install and test commands, run by `.ci/run` (this test checks that
 *   `.ci/run` runs exactly those lines, in order) rather than here.
 * - `recipe=NAME` in a block's info string (```` ```lua recipe=neovim-0.7 ````): an editor's setup,
 *   run or checked by the test that test/editors/recipes.ts names for it; here, only the name is
 *   checked.
 * - Any other block fails: a block that cannot be run belongs in prose.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { build, transform } from "esbuild";
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { blockRecipe, RECIPES } from "../editors/recipes.js";
import { ensureBundles } from "./bundles.js";
import { launchChromium } from "./chromium.js";
import { type CliRun, outputOf } from "./cli.js";
import {
  blockFile,
  consoleCommands,
  type DocBlock,
  fencedBlocks,
  instrument,
  outputMatches,
  valueChecks,
  workflowCommands,
} from "./doc-blocks.js";

// The examples run the built CLI: built while a file of them is collected, outside any test's time limit.
ensureBundles();

export const root = fileURLToPath(new URL("../..", import.meta.url));
const SANDBOX_TOKEN = "docs-token";
const DOCUMENTED_SANDBOX = "http://127.0.0.1:8787";
export const COMMAND_TIMEOUT_MS = 120_000;

/** Every page with examples, in order. */
export const pages = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
  ...readdirSync(join(root, "grammar"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `grammar/${name}`),
];

/** Runs a command with its environment, killed after COMMAND_TIMEOUT_MS. */
export function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<CliRun> {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  const timer = setTimeout(() => child.kill("SIGKILL"), COMMAND_TIMEOUT_MS);
  return outputOf(child).finally(() => clearTimeout(timer));
}

/** What a page's blocks share: the directory, the environment, and the sandbox once one is asked for. */
class PageRun {
  readonly work: string;
  readonly scripts: string;
  readonly env: Record<string, string>;
  private sandbox?: { process: ChildProcess; origin: string };
  private browser?: Browser;

  constructor(
    readonly page: string,
    readonly temp: string,
  ) {
    this.work = join(temp, "page");
    this.scripts = join(temp, "scripts");
    this.env = {
      PATH: `${join(temp, "bin")}:${process.env.PATH ?? ""}`,
      HOME: this.work,
      LANG: "C.UTF-8",
      TZ: "UTC",
    };
  }

  static async create(page: string): Promise<PageRun> {
    const run = new PageRun(page, await mkdtemp(join(tmpdir(), "filterc-docs-")));
    await mkdir(run.work);
    await mkdir(run.scripts);
    await mkdir(join(run.temp, "bin"));
    const cli = join(root, "dist", "cli.cjs");
    await writeFile(
      join(run.temp, "bin", "filterc"),
      `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`,
      {
        mode: 0o755,
      },
    );
    // `import … from "filterc"` in a ts block resolves to this package, as it would for a user.
    await mkdir(join(run.temp, "node_modules"));
    await symlink(root, join(run.temp, "node_modules", "filterc"));
    return run;
  }

  where(block: DocBlock, line = block.line): string {
    return `${this.page}:${line} (block at line ${block.line})`;
  }

  /** The environment of a block: with the sandbox's address and token when it asks for them. */
  async envFor(block: DocBlock): Promise<Record<string, string>> {
    if (!block.info.includes("sandbox")) return this.env;
    const origin = await this.startSandbox();
    return {
      ...this.env,
      CLOUDFLARE_BASE_URL: `${origin}/client/v4`,
      CLOUDFLARE_API_TOKEN: SANDBOX_TOKEN,
      DOC_SANDBOX_ORIGIN: origin,
    };
  }

  /** Output as documented: the sandbox's real address written as the default one. */
  normalize(text: string): string {
    return this.sandbox ? text.split(this.sandbox.origin).join(DOCUMENTED_SANDBOX) : text;
  }

  private async startSandbox(): Promise<string> {
    if (this.sandbox) return this.sandbox.origin;
    const dataDir = join(this.work, ".filterc-sandbox");
    const child = spawn(
      process.execPath,
      [join(root, "dist", "cli.cjs"), "sandbox", "--port", "0", "--data-dir", dataDir],
      { env: { ...this.env, CLOUDFLARE_API_TOKEN: SANDBOX_TOKEN }, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const origin = await new Promise<string>((resolve, reject) => {
      child.on("close", (code) => reject(new Error(`filterc sandbox exited (${code}): ${stderr}`)));
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        stdout += chunk;
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)\/client\/v4\n/.exec(stdout);
        if (match) resolve(match[1]!);
      });
    });
    this.sandbox = { process: child, origin };
    return origin;
  }

  async chromium(): Promise<Browser> {
    if (this.browser) return this.browser;
    this.browser = await launchChromium();
    return this.browser;
  }

  async close(): Promise<void> {
    await this.browser?.close();
    if (this.sandbox) {
      const exited = new Promise((resolve) => this.sandbox!.process.on("close", resolve));
      this.sandbox.process.kill("SIGTERM");
      await exited;
    }
    await rm(this.temp, { recursive: true, force: true });
  }
}

/** The shell commands of a workflow block, each run as CI would run it (but its npm installs). */
async function runWorkflow(page: PageRun, block: DocBlock): Promise<void> {
  const commands = workflowCommands(block.text);
  const runs = commands.filter(({ command }) => !/^npm (install|ci)\b/.test(command));
  expect
    .soft(runs.length, `${page.where(block)}: a workflow that runs no filterc command`)
    .toBeGreaterThan(0);
  for (const { job, command } of runs) {
    const result = await run("bash", ["-c", command], page.work, page.env);
    const where = `${page.where(block)}: job ${job}: ${command}`;
    expect.soft(result.code, `${where}: exit status (${result.stdout}${result.stderr})`).toBe(0);
  }
}

async function runConsole(page: PageRun, block: DocBlock): Promise<void> {
  const env = await page.envFor(block);
  for (const command of consoleCommands(block)) {
    const result = await run("bash", ["-c", command.command], page.work, env);
    const actual = page.normalize(result.stdout + result.stderr);
    const where = `${page.where(block, command.line)}: $ ${command.command}`;
    if (!outputMatches(command.output, actual)) expect.soft(actual, where).toBe(command.output);
    expect.soft(result.code, `${where}: exit status`).toBe(command.exit);
  }
}

interface Checked {
  checked: number[];
  failures: { line: number; actual: string; expected: string }[];
}

const NODE_PRELUDE = `import { isDeepStrictEqual as __equal, inspect as __inspect } from "node:util";
import { writeFileSync as __write } from "node:fs";
const __checked = { checked: [], failures: [] };
const __origin = process.env.DOC_SANDBOX_ORIGIN;
/** The sandbox's real address, in strings of plain values, written as the documented one. */
const __normalize = (value) =>
  typeof value === "string"
    ? (__origin ? value.split(__origin).join(${JSON.stringify(DOCUMENTED_SANDBOX)}) : value)
    : Array.isArray(value)
      ? value.map(__normalize)
      : value && typeof value === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(value))
        ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, __normalize(item)]))
        : value;
const __doc = {
  check(line, value, expected) {
    const actual = __normalize(value);
    __checked.checked.push(line);
    if (!__equal(actual, expected))
      __checked.failures.push({ line, actual: __inspect(actual, { depth: null }), expected: __inspect(expected, { depth: null }) });
  },
};
process.on("exit", () => __write(process.env.DOC_CHECKS, JSON.stringify(__checked)));
`;

const BROWSER_PRELUDE = `const __sorted = (_key, value) => value && typeof value === "object" && !Array.isArray(value)
  ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, value[key]]))
  : value === undefined ? "(undefined)" : value;
const __show = (value) => JSON.stringify(value, __sorted, 2);
const __checked = { checked: [], failures: [] };
const __doc = {
  check(line, actual, expected) {
    __checked.checked.push(line);
    if (__show(actual) !== __show(expected))
      __checked.failures.push({ line, actual: __show(actual), expected: __show(expected) });
  },
};
`;

function reportChecks(page: PageRun, block: DocBlock, checked: Checked): void {
  const lines = valueChecks(block).map((check) => check.line);
  expect.soft(checked.checked, `${page.where(block)}: the shown values that were reached`).toEqual(lines);
  for (const failure of checked.failures)
    expect
      .soft(failure.actual, `${page.where(block, failure.line)}: the value shown after // →`)
      .toBe(failure.expected);
}

async function runNodeScript(page: PageRun, block: DocBlock, shownOutput: string): Promise<void> {
  const { code } = await transform(NODE_PRELUDE + instrument(block), { loader: "ts", format: "esm" }).catch(
    (error: Error) => {
      throw new Error(`${page.where(block)}: the block does not compile: ${error.message}`);
    },
  );
  const script = join(page.scripts, `block-${block.line}.mjs`);
  const checks = join(page.scripts, `block-${block.line}.json`);
  await writeFile(script, code);
  const env = { ...(await page.envFor(block)), DOC_CHECKS: checks };
  const result = await run(process.execPath, [script], page.work, env);
  const where = page.where(block);
  expect.soft(result.stderr, `${where}: stderr`).toBe("");
  expect.soft(result.code, `${where}: exit status`).toBe(0);
  expect.soft(page.normalize(result.stdout), `${where}: output`).toBe(shownOutput);
  if (existsSync(checks)) reportChecks(page, block, JSON.parse(await readFile(checks, "utf8")) as Checked);
}

async function runBrowserScript(page: PageRun, block: DocBlock, shownOutput: string): Promise<void> {
  const bundle = await build({
    stdin: {
      contents: `${BROWSER_PRELUDE}${instrument(block)}\nglobalThis.__docResult = __checked;\n`,
      loader: "ts",
      resolveDir: page.scripts,
    },
    bundle: true,
    format: "esm",
    write: false,
    nodePaths: [join(root, "node_modules")],
  });
  const tab = await (await page.chromium()).newPage();
  const errors: string[] = [];
  const logged: string[] = [];
  tab.on("pageerror", (error) => errors.push(String(error)));
  tab.on("console", (message) => (message.type() === "log" ? logged : errors).push(message.text()));
  await tab.setContent('<!doctype html><html><body><div id="editor"></div></body></html>');
  await tab.addScriptTag({ content: bundle.outputFiles[0]!.text, type: "module" });
  const where = page.where(block);
  const result = await tab
    .waitForFunction(() => (globalThis as { __docResult?: unknown }).__docResult, undefined, {
      timeout: 30_000,
    })
    .then((handle) => handle.jsonValue() as Promise<Checked>)
    .catch(() => undefined);
  await tab.close();
  expect.soft(errors, `${where}: errors in the page`).toEqual([]);
  expect.soft(result !== undefined, `${where}: the block ran to its end`).toBe(true);
  expect.soft(logged.map((line) => `${line}\n`).join(""), `${where}: output`).toBe(shownOutput);
  if (result) reportChecks(page, block, result);
}

/** `.ci/run` runs exactly the lines of the page's `sh ci` blocks, in order: its npm commands are those. */
function checkCiCommands(page: PageRun, blocks: DocBlock[]): void {
  const documented = blocks.flatMap((block) => block.text.split("\n").filter((line) => line.trim() !== ""));
  if (documented.length === 0) return;
  const ci = readFileSync(join(root, ".ci", "run"), "utf8")
    .split("\n")
    .filter((line) => !line.trim().startsWith("#") && /\bnpm\b/.test(line));
  expect.soft(ci, `${page.page}: .ci/run runs the documented install and test commands`).toEqual(documented);
}

async function runPage(name: string): Promise<void> {
  const blocks = fencedBlocks(readFileSync(join(root, name), "utf8"));
  const page = await PageRun.create(name);
  try {
    const ci: DocBlock[] = [];
    for (let i = 0; i < blocks.length; i++) {
      const block = blocks[i]!;
      const file = blockFile(block);
      const kind = block.info[0];
      if (file !== undefined) {
        const target = normalize(file);
        if (target.startsWith("..") || target.startsWith("/"))
          throw new Error(`${page.where(block)}: file=${file} must stay inside the page's directory`);
        await mkdir(dirname(join(page.work, target)), { recursive: true });
        await writeFile(join(page.work, target), block.text);
        if (block.info.includes("workflow")) await runWorkflow(page, block);
      } else if (kind === "console") {
        await runConsole(page, block);
      } else if (kind === "ts" || kind === "js") {
        const next = blocks[i + 1];
        const shown = next?.info[0] === "output" ? next.text : "";
        if (next?.info[0] === "output") i++;
        if (valueChecks(block).length === 0 && next?.info[0] !== "output")
          expect
            .soft(
              false,
              `${page.where(block)}: a ts block shows no result: add "// → value" or an output block`,
            )
            .toBe(true);
        if (block.info.includes("browser")) await runBrowserScript(page, block, shown);
        else await runNodeScript(page, block, shown);
      } else if (kind === "sh" && block.info.includes("ci")) {
        ci.push(block);
      } else if (blockRecipe(block.info) !== undefined) {
        const name = blockRecipe(block.info)!;
        expect
          .soft(
            Object.hasOwn(RECIPES, name),
            `${page.where(block)}: recipe=${name} is run by no test (test/editors/recipes.ts)`,
          )
          .toBe(true);
      } else {
        const info = block.info.join(" ");
        expect
          .soft(
            false,
            `${page.where(block)}: a code block the harness cannot run (info "${info}"): make it a console, file=NAME, ts, output or recipe=NAME block (see docs/testing.md), or prose`,
          )
          .toBe(true);
      }
    }
    checkCiCommands(page, ci);
  } finally {
    await page.close();
  }
}

/**
 * The test file that runs each page, if not test/docs/examples.test.ts (which runs the rest): the
 * slowest pages are spread so that each file takes about as long.
 */
export const PAGE_FILES: Record<string, "service" | "library"> = {
  "docs/api.md": "service",
  "docs/cli.md": "service",
  "docs/console.md": "service",
  "docs/sandbox.md": "service",
  "docs/eval.md": "library",
  "docs/library.md": "library",
  "docs/sql.md": "library",
  "docs/terraform.md": "library",
};

/** Runs each page of one test file (`examples` for the pages PAGE_FILES leaves to examples.test.ts), a test each. */
export function describePages(file: "examples" | "service" | "library"): void {
  describe("every code example of the documentation does what it shows", () => {
    for (const page of pages.filter((name) => (PAGE_FILES[name] ?? "examples") === file))
      it(page, () => runPage(page), 600_000);
  });
}
