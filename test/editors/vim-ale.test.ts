import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundles } from "../helpers/bundles.js";
import { type EditorHome, editorHome } from "./editor-home.js";
import { recipe } from "./recipes.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

/**
 * Debian's Vim with Debian's ALE (vim-ale, an optional package that `packadd! ale` loads); `.ci/run`
 * installs both. Without them this test fails: it never skips.
 */
const VIM = "vim";
const VIM_TIMEOUT_MS = 60_000;

/*
 * Vim runs in a terminal (script(1) gives it one): ALE completes only in Insert mode, which a Vim
 * in Ex mode (-es) never enters. The driver goes step by step on timers, as a user would, and
 * writes what it saw to out.json: the diagnostics, the hover K shows in the preview window, the
 * quick fix :ALECodeAction offers (answered at its prompt), and CTRL-X CTRL-O.
 */
const DRIVER = String.raw`
let g:out = {'steps': []}
function! Save() abort
  call writefile([json_encode(g:out)], 'out.json')
endfunction
function! Until(Check, Then, ...) abort
  let l:deadline = a:0 ? a:1 : reltimefloat(reltime()) + 10
  if a:Check()
    call a:Then()
  elseif reltimefloat(reltime()) > l:deadline
    let g:out.failure = 'timed out after ' . string(g:out.steps)
    call Save()
    qa!
  else
    call timer_start(50, {-> Until(a:Check, a:Then, l:deadline)})
  endif
endfunction
function! s:Preview() abort
  return filter(range(1, bufnr('$')), {_, b -> getbufvar(b, '&filetype') ==# 'ale-preview.message'})
endfunction
function! Diagnosed() abort
  let g:out.diagnostics = map(getloclist(0), {_, d -> [d.lnum, d.col, d.type, d.text]})
  call add(g:out.steps, 'diagnostics')
  call cursor(1, 3)
  normal K
  call Until({-> !empty(s:Preview())}, function('Hovered'))
endfunction
function! Hovered() abort
  let g:out.hover = getbufline(s:Preview()[0], 1, '$')
  pclose
  call add(g:out.steps, 'hover')
  call cursor(1, 26)
  ALECodeAction
  call Until({-> mode() ==# 'c'}, {-> Answer()})
  call Until({-> getline(1) =~# 'SourceIP'}, function('Fixed'))
endfunction
function! Answer() abort
  let g:out.prompt = getcmdline() . '|' . string(getcmdtype())
  call feedkeys("1\<CR>", 't')
endfunction
function! Fixed() abort
  let g:out.fixed = getline(1)
  call add(g:out.steps, 'code action')
  call Until({-> empty(getloclist(0))}, function('Clean'))
endfunction
function! Clean() abort
  call add(g:out.steps, 'clean')
  let g:out.omnifunc = &omnifunc
  call feedkeys("A and HTTPHo\<C-x>\<C-o>", 't')
  call Until({-> getline(1) =~# 'HTTPHost$'}, function('Completed'))
endfunction
function! Completed() abort
  let g:out.completed = getline(1)
  call add(g:out.steps, 'completion')
  call Save()
  qa!
endfunction
edit gateway.lpf
call Until({-> !empty(getloclist(0))}, function('Diagnosed'))
`;

let home: EditorHome;
// biome-ignore lint/suspicious/noExplicitAny: the JSON the driver wrote, checked field by field
let out: any;
let missing: string;

function vim(at: EditorHome, args: string[], env: Record<string, string> = {}) {
  const run = spawnSync(
    "script",
    ["-qec", [VIM, "-N", "-u", ".vimrc", "-i", "NONE", "-n", ...args].join(" "), "/dev/null"],
    { cwd: at.home, env: { ...at.env, TERM: "xterm", ...env }, timeout: VIM_TIMEOUT_MS, encoding: "utf8" },
  );
  if (run.error)
    throw new Error(`cannot run ${VIM} (.ci/run installs Debian's vim and vim-ale): ${run.error.message}`);
}

beforeAll(() => {
  home = editorHome();
  writeFileSync(join(home.home, ".vimrc"), recipe("vim-ale"));
  writeFileSync(join(home.home, "gateway.lpf"), 'HTTPMethod eq "GET" and SourceIp eq "10.0.0.1"\n');
  writeFileSync(join(home.home, "driver.vim"), DRIVER);
  vim(home, ["-S", "driver.vim"]);
  out = JSON.parse(readFileSync(join(home.home, "out.json"), "utf8"));
  const bare = editorHome({ onPath: false });
  try {
    writeFileSync(join(bare.home, ".vimrc"), recipe("vim-ale"));
    writeFileSync(
      join(bare.home, "probe.vim"),
      "call writefile(split(execute('messages'), \"\\n\"), 'messages.txt')\nqa!\n",
    );
    vim(bare, ["-S", "probe.vim"]);
    missing = readFileSync(join(bare.home, "messages.txt"), "utf8");
  } finally {
    bare.remove();
  }
}, 150_000);
afterAll(() => home?.remove());

describe("Vim with ALE as the language server's client, set up as docs/editors.md says", () => {
  it("gets through every step", () => {
    expect(out.failure).toBeUndefined();
    expect(out.steps).toEqual(["diagnostics", "hover", "code action", "clean", "completion"]);
  });

  it("says when filterc is not on PATH", () => {
    expect(missing).toBe(
      "filterc is not on PATH: in a clone of filterc, run npm install -g --ignore-scripts .\n",
    );
  });

  it("shows the diagnostics, checked against the dataset its settings give", () => {
    expect(out.diagnostics).toEqual([
      [
        1,
        25,
        "E",
        "E0202: unknown field `SourceIp`; field names are case-sensitive: did you mean `SourceIP`?",
      ],
    ]);
  });

  it("hovers with K, in the preview window", () => {
    expect(out.hover).toEqual([
      "**HTTPMethod**: `string`",
      "",
      "HTTP method.",
      "",
      "Emits:",
      "",
      '{"key":"HTTPMethod","operator":"eq","value":"GET"}',
    ]);
  });

  it("applies the quick fix :ALECodeAction offers, and the diagnostic goes", () => {
    expect(out.prompt).toBe("|'@'");
    expect(out.fixed).toBe('HTTPMethod eq "GET" and SourceIP eq "10.0.0.1"');
  });

  it("completes with CTRL-X CTRL-O through the omnifunc the setup gives", () => {
    expect(out.omnifunc).toBe("ale#completion#OmniFunc");
    expect(out.completed).toBe('HTTPMethod eq "GET" and SourceIP eq "10.0.0.1" and HTTPHost');
  });
});
