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
  'HTTPMethod=="GET"  and HTTPHost eq "example.com"\n  and SourceIp eq "10.0.0.1" and HTTPStatusCode geq 500\n';

let home: EditorHome;
// biome-ignore lint/suspicious/noExplicitAny: the JSON the Lua client wrote, checked field by field
let out: any;

beforeAll(() => {
  home = editorHome();
  const config = join(home.home, ".config", "nvim");
  mkdirSync(config, { recursive: true });
  writeFileSync(join(config, "init.lua"), recipe("neovim-0.7"));
  writeFileSync(join(home.home, "recipe-current.lua"), recipe("neovim"));
  mkdirSync(join(home.home, "work"));
  writeFileSync(join(home.home, "work", "gateway.lpf"), FILTER);
  const run = spawnSync(
    NEOVIM,
    [
      "--headless",
      "-i",
      "NONE",
      "-n",
      "-c",
      `luafile ${fileURLToPath(new URL("./neovim-client.lua", import.meta.url))}`,
    ],
    {
      cwd: join(home.home, "work"),
      env: {
        ...home.env,
        LPF_FILE: join(home.home, "work", "gateway.lpf"),
        LPF_OUT: join(home.home, "out.json"),
        LPF_RECIPE_CURRENT: join(home.home, "recipe-current.lua"),
      },
      timeout: NEOVIM_TIMEOUT_MS,
      encoding: "utf8",
    },
  );
  if (run.error)
    throw new Error(`cannot run ${NEOVIM} (.ci/run installs Debian's neovim): ${run.error.message}`);
  out = JSON.parse(readFileSync(join(home.home, "out.json"), "utf8"));
}, 90_000);
afterAll(() => home?.remove());

describe("Neovim 0.7 as the language server's client, set up as docs/editors.md says", () => {
  it("gets through every step", () => {
    expect(out.failure).toBeUndefined();
    expect(out.steps).toEqual([
      "diagnostics",
      "hover",
      "completion",
      "code action",
      "fixed",
      "formatting",
      "done",
    ]);
    expect(out.filetype).toBe("lpf");
    expect(out.client).toBe("filterc");
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

  it("hovers, completes, fixes and formats", () => {
    expect(out.hover).toContain("HTTPMethod");
    expect(out.completion).toEqual(["HTTPHost"]);
    expect(out.actions).toEqual(["replace with `SourceIP`"]);
    expect(out.formatted).toEqual([
      'HTTPMethod eq "GET"',
      '  and HTTPHost eq "example.com"',
      '  and SourceIP eq "10.0.0.1"',
      "  and HTTPStatusCode geq 500",
    ]);
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
          },
        ],
        ["enable", "filterc"],
      ],
    });
  });
});
