import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundles } from "../helpers/bundles.js";
import { type EditorHome, editorHome } from "./editor-home.js";
import { recipe } from "./recipes.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

/** Debian's Neovim (0.7.2); `.ci/run` installs it. Without it this test fails: it never skips. */
const NEOVIM = "nvim";
const NEOVIM_TIMEOUT_MS = 60_000;

/** A gateway_http filter with a mistake (`SourceIp`) and a messy form, left for the quick fix and the formatter. */
const FILTER =
  'HTTPMethod=="GET"  and HTTPHost eq "example.com"\n  and SourceIp eq "10.0.0.1" and HTTPStatusCode geq 500\n  and not (URL contains "/health"\n    or PolicyName eq "allow-all")\n';

/** The samples of the evaluation lens: the filter, once fixed, keeps the first line alone (the second is a health check). */
const SAMPLES = [
  {
    HTTPMethod: "GET",
    HTTPHost: "example.com",
    SourceIP: "10.0.0.1",
    HTTPStatusCode: 502,
    URL: "/a",
    PolicyName: "p",
  },
  {
    HTTPMethod: "GET",
    HTTPHost: "example.com",
    SourceIP: "10.0.0.1",
    HTTPStatusCode: 502,
    URL: "/health",
    PolicyName: "p",
  },
  { HTTPMethod: "POST" },
];

let home: EditorHome;
// biome-ignore lint/suspicious/noExplicitAny: the JSON the Lua client wrote, checked field by field
let out: any;
let missing: { messages: string; clients: number };

function runNeovim(at: EditorHome, script: string, env: Record<string, string>) {
  const run = spawnSync(NEOVIM, ["--headless", "-i", "NONE", "-n", "-c", `luafile ${script}`], {
    cwd: join(at.home, "work"),
    env: { ...at.env, ...env },
    timeout: NEOVIM_TIMEOUT_MS,
    encoding: "utf8",
  });
  if (run.error)
    throw new Error(`cannot run ${NEOVIM} (.ci/run installs Debian's neovim): ${run.error.message}`);
}

function setUp(at: EditorHome): void {
  const config = join(at.home, ".config", "nvim");
  mkdirSync(config, { recursive: true });
  writeFileSync(join(config, "init.lua"), recipe("neovim-0.7"));
  mkdirSync(join(at.home, "work", "logs"), { recursive: true });
  writeFileSync(join(at.home, "work", "gateway.lpf"), FILTER);
  writeFileSync(join(at.home, "work", "filterc.json"), '{"samples": "logs/*.ndjson"}\n');
  writeFileSync(
    join(at.home, "work", "logs", "gateway.ndjson"),
    SAMPLES.map((sample) => `${JSON.stringify(sample)}\n`).join(""),
  );
}

beforeAll(() => {
  home = editorHome();
  setUp(home);
  writeFileSync(join(home.home, "recipe-current.lua"), recipe("neovim"));
  runNeovim(home, fileURLToPath(new URL("./neovim-client.lua", import.meta.url)), {
    LPF_FILE: join(home.home, "work", "gateway.lpf"),
    LPF_OUT: join(home.home, "out.json"),
    LPF_RECIPE_CURRENT: join(home.home, "recipe-current.lua"),
  });
  out = JSON.parse(readFileSync(join(home.home, "out.json"), "utf8"));
  // The same setup where filterc is not on PATH: it says so, and starts nothing.
  const bare = editorHome({ onPath: false });
  try {
    setUp(bare);
    const probe = join(bare.home, "probe.lua");
    writeFileSync(
      probe,
      'vim.cmd("edit gateway.lpf")\nvim.wait(500)\nlocal file = io.open(vim.env.LPF_OUT, "w")\nfile:write(vim.fn.json_encode({ messages = vim.fn.execute("messages"), clients = #vim.lsp.get_active_clients() }))\nfile:close()\nvim.cmd("qall!")\n',
    );
    runNeovim(bare, probe, { LPF_OUT: join(bare.home, "missing.json") });
    missing = JSON.parse(readFileSync(join(bare.home, "missing.json"), "utf8"));
  } finally {
    bare.remove();
  }
}, 120_000);
afterAll(() => home?.remove());

const gatewayPage =
  "https://developers.cloudflare.com/logs/logpush/logpush-job/datasets/account/gateway_http/";

describe("Neovim 0.7 as the language server's client, set up as docs/editors.md says", () => {
  it("gets through every step, with filterc put on PATH as the page says", () => {
    expect(out.failure).toBeUndefined();
    expect(out.steps).toEqual([
      "diagnostics",
      "code lens",
      "hover",
      "code action",
      "fixed",
      "evaluation lens",
      "features",
      "formatting",
      "outline",
      "completion",
      "done",
    ]);
    expect(out.filetype).toBe("lpf");
    expect(out.client).toBe("filterc");
  });

  it("says when filterc is not on PATH, and starts no server", () => {
    expect(missing).toEqual({
      messages: "\nfilterc is not on PATH: in a clone of filterc, run npm install -g --ignore-scripts .",
      clients: 0,
    });
  });

  it("checks against the dataset given in settings from the first diagnostics on", () => {
    expect(out.diagnostics).toEqual([
      {
        code: "E0202",
        message: "unknown field `SourceIp`; field names are case-sensitive: did you mean `SourceIP`?",
        line: 1,
        column: 6,
        end_column: 14,
      },
    ]);
  });

  it("hovers with K, completes with CTRL-X CTRL-O (omnifunc), fixes and formats", () => {
    expect(out.hover).toEqual([
      "**HTTPMethod**: `string`",
      "",
      "HTTP method.",
      "",
      "Emits:",
      '{"key":"HTTPMethod","operator":"eq","value":"GET"}',
    ]);
    expect(out.omnifunc).toBe("v:lua.vim.lsp.omnifunc");
    expect(out.completion).toEqual({ mode: "ic", items: ["HTTPHost"] });
    expect(out.actions).toEqual(["replace with `SourceIP`"]);
    expect(out.formatted).toEqual([
      'HTTPMethod eq "GET"',
      '  and HTTPHost eq "example.com"',
      '  and SourceIP eq "10.0.0.1"',
      "  and HTTPStatusCode geq 500",
      '  and not (URL contains "/health" or PolicyName eq "allow-all")',
    ]);
  });

  it("shows the evaluation lens, follows the text with it, and lists the kept lines when it runs", () => {
    expect(out.lenses_before).toEqual([
      { line: 0, text: "⚠ samples: the filter has an error: no sample is evaluated" },
    ]);
    expect(out.lenses_after).toEqual([{ line: 0, text: "▶ keeps 1 of 3 sample lines (logs/*.ndjson)" }]);
    expect(out.kept).toEqual({
      title: "▶ keeps 1 of 3 sample lines (logs/*.ndjson)",
      items: [{ file: "gateway.ndjson", line: 1, text: JSON.stringify(SAMPLES[0]) }],
    });
  });

  it("lists the outline, and gets folding, selection ranges, inlay hints and links", () => {
    expect(out.outline).toEqual([
      { line: 2, text: "[Operator] and" },
      { line: 1, text: '[Field] HTTPMethod eq "GET"' },
      { line: 2, text: '[Field] HTTPHost eq "example.com"' },
      { line: 3, text: '[Field] SourceIP eq "10.0.0.1"' },
      { line: 4, text: "[Field] HTTPStatusCode geq 500" },
      { line: 5, text: "[Operator] not" },
      { line: 5, text: "[Operator] or" },
      { line: 5, text: '[Field] URL contains "/health"' },
      { line: 5, text: '[Field] PolicyName eq "allow-all"' },
    ]);
    expect(out.folding).toEqual([{ startLine: 2, endLine: 3 }]);
    const at = (line: number, character: number) => ({ line, character });
    expect(out.selection).toEqual([
      { start: at(1, 6), end: at(1, 14) },
      { start: at(1, 6), end: at(1, 28) },
      { start: at(0, 0), end: at(3, 33) },
      { start: at(0, 0), end: at(4, 0) },
    ]);
    expect(out.inlay.map((hint: { position: object; label: string }) => [hint.position, hint.label])).toEqual(
      [
        [at(2, 23), "→ !contains"],
        [at(3, 6), "→ and"],
        [at(3, 20), "→ !eq"],
      ],
    );
    expect(out.links).toEqual(
      ["httpmethod", "httphost", "sourceip", "httpstatuscode", "url", "policyname"].map(
        (anchor) => `${gatewayPage}#${anchor}`,
      ),
    );
  });

  it("colours the file with the syntax file", () => {
    expect(out.syntax).toEqual(["lpfField", "lpfOperator", "lpfString", "lpfLogic"]);
  });

  it("reads the Neovim 0.11 recipe, which configures and enables filterc", () => {
    expect(out.current).toEqual({
      syntax: "ok",
      run: "ok",
      calls: [
        [
          "config",
          "filterc",
          {
            cmd: ["filterc", "lsp", "--stdio"],
            filetypes: ["lpf"],
            root_markers: ["filterc.json", ".git"],
            settings: { filterc: { dataset: "gateway_http" } },
            on_attach: "<function>",
          },
        ],
        ["enable", "filterc"],
      ],
    });
  });
});
