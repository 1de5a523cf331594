import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VIM_DIRECTIVE_GROUPS, VIM_GROUPS } from "../../editors/syntax.js";
import type { HighlightKind } from "../../src/service/index.js";
import { ensureBundles } from "../helpers/bundles.js";
import { type EditorHome, editorHome, unitsByCharacter } from "./editor-home.js";
import { recipe } from "./recipes.js";
import { classesOf, readSamples } from "./samples.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

/** Debian's Vim; `.ci/run` installs it. Without it this test fails: it never skips. */
const VIM = "vim";
const VIM_TIMEOUT_MS = 30_000;

/*
 * One Vim, headless, with the documented setup: the syntax files copied into ~/.vim and the
 * vim-lsp recipe as ~/.vimrc (vim-lsp itself replaced by a stub that keeps what it is given: Debian
 * does not package vim-lsp; vim-ale.test.ts runs the ALE recipe against the server for real).
 * It opens every sample and writes the highlight group of each character, the ftplugin's
 * options, what gq makes of a messy and of a broken filter, and the server vim-lsp was given.
 */
const DRIVER = `
set runtimepath+=$STUB hidden
let s:out = {'samples': {}, 'links': {}}
for s:file in sort(glob('samples/*.lpf', 0, 1))
  execute 'edit ' . fnameescape(s:file)
  let s:lines = []
  for s:lnum in range(1, line('$'))
    let s:line = getline(s:lnum)
    call add(s:lines, map(range(strchars(s:line)), {_, i -> synIDattr(synID(s:lnum, byteidx(s:line, i) + 1, 1), 'name')}))
  endfor
  let s:out.samples[fnamemodify(s:file, ':t')] = {'filetype': &filetype, 'groups': s:lines}
endfor
for [s:group, s:link] in items($LINKS->json_decode())
  let s:out.links[s:group] = [synIDattr(synIDtrans(hlID(s:group)), 'name'), synIDattr(synIDtrans(hlID(s:link)), 'name')]
endfor
edit messy.lpf
let s:out.options = {'commentstring': &commentstring, 'comments': &comments, 'formatprg': &formatprg, 'formatexpr': &formatexpr}
normal! gggqG
let s:out.formatted = getline(1, '$')
edit broken.lpf
normal! gggqG
let s:out.broken = getline(1, '$')
let s:out.message = split(execute('messages'), "\\n")[-1]
doautocmd User lsp_setup
let s:server = copy(g:registered)
let s:server.cmd = s:server.cmd({})
let s:out.server = s:server
edit messy.lpf
doautocmd User lsp_buffer_enabled
let s:out.buffer = {'omnifunc': &omnifunc, 'K': maparg('K', 'n')}
call writefile([json_encode(s:out)], 'out.json')
qa!
`;

let home: EditorHome;
let out: {
  samples: Record<string, { filetype: string; groups: string[][] }>;
  links: Record<string, [string, string]>;
  options: Record<string, string>;
  formatted: string[];
  broken: string[];
  message: string;
  server: unknown;
  buffer: { omnifunc: string; K: string };
};
const samples = readSamples();

beforeAll(() => {
  home = editorHome();
  writeFileSync(join(home.home, ".vimrc"), recipe("vim-lsp"));
  const stub = join(home.home, "stub");
  mkdirSync(join(stub, "autoload"), { recursive: true });
  writeFileSync(
    join(stub, "autoload", "lsp.vim"),
    "function! lsp#register_server(info) abort\n  let g:registered = a:info\nendfunction\n",
  );
  mkdirSync(join(home.home, "samples"));
  for (const sample of samples) writeFileSync(join(home.home, "samples", sample.name), `${sample.text}\n`);
  writeFileSync(join(home.home, "messy.lpf"), 'BotScore  lt 30&&ClientCountry=="us"\n# a comment kept\n');
  writeFileSync(join(home.home, "broken.lpf"), "BotScore lt\n");
  writeFileSync(join(home.home, "driver.vim"), DRIVER);
  const links = Object.fromEntries(
    [...Object.values(VIM_GROUPS), ...Object.values(VIM_DIRECTIVE_GROUPS)].map(({ group, link }) => [
      group,
      link,
    ]),
  );
  const run = spawnSync(
    VIM,
    ["-N", "-u", join(home.home, ".vimrc"), "-i", "NONE", "-n", "-es", "-S", "driver.vim"],
    {
      cwd: home.home,
      env: { ...home.env, STUB: stub, LINKS: JSON.stringify(links) },
      timeout: VIM_TIMEOUT_MS,
      encoding: "utf8",
    },
  );
  if (run.error) throw new Error(`cannot run ${VIM} (.ci/run installs Debian's vim): ${run.error.message}`);
  out = JSON.parse(readFileSync(join(home.home, "out.json"), "utf8"));
}, 60_000);
afterAll(() => home?.remove());

describe("Vim with editors/vim", () => {
  it("detects *.lpf files and colours every character of the samples as the scanner classes it", () => {
    const accepted = (kind: HighlightKind | undefined): string[] =>
      kind === undefined
        ? [""]
        : kind === "string"
          ? [VIM_GROUPS.string.group, "lpfEscape", "lpfInvalidEscape"]
          : kind === "comment"
            ? [VIM_GROUPS.comment.group, ...Object.values(VIM_DIRECTIVE_GROUPS).map(({ group }) => group)]
            : [VIM_GROUPS[kind].group];
    for (const sample of samples) {
      const seen = out.samples[sample.name]!;
      expect(seen.filetype, sample.name).toBe("lpf");
      const classes = classesOf(sample.text);
      const failures: string[] = [];
      let offset = 0;
      for (const [index, line] of sample.text.split("\n").entries()) {
        unitsByCharacter(line).forEach((unit, column) => {
          const kind = classes[offset + unit];
          const group = seen.groups[index]![column]!;
          if (!accepted(kind).includes(group))
            failures.push(
              `${sample.name}:${index + 1}:${column + 1} ${JSON.stringify(line[unit])}: ${group || "no group"}, the scanner reads ${kind ?? "a blank"}`,
            );
        });
        offset += line.length + 1;
      }
      expect(failures).toEqual([]);
    }
  });

  it("links each group to the standard group of its class", () => {
    for (const [group, [target, expected]] of Object.entries(out.links)) expect(target, group).toBe(expected);
    expect(Object.keys(out.links).length).toBe(
      Object.keys(VIM_GROUPS).length + Object.keys(VIM_DIRECTIVE_GROUPS).length,
    );
  });

  it("marks the # dataset: directive and its dataset, and no other comment", () => {
    const [directive, comment] = out.samples["directive.lpf"]!.groups;
    const { directive: keyword, dataset } = VIM_DIRECTIVE_GROUPS;
    expect(directive).toEqual([...Array(11).fill(keyword.group), ...Array(12).fill(dataset.group)]);
    expect(comment).toEqual(Array(29).fill(VIM_GROUPS.comment.group));
  });

  it("comments with #, and formats with filterc fmt, keeping the text of a filter that does not parse", () => {
    expect(out.options).toEqual({
      commentstring: "# %s",
      comments: ":#",
      formatprg: "filterc fmt",
      formatexpr: "lpf#format()",
    });
    expect(out.formatted).toEqual(['BotScore lt 30 and ClientCountry eq "us"', "# a comment kept"]);
    expect(out.broken).toEqual(["BotScore lt"]);
    expect(out.message).toBe(
      'filterc fmt: error[E0104]: expected a value after `lt`: a "string", a number, true, false or a [list], found the end of the filter',
    );
  });

  it("registers the filterc server with vim-lsp as docs/editors.md says, with omnifunc and K for its buffers", () => {
    expect(out.server).toEqual({
      name: "filterc",
      cmd: ["filterc", "lsp", "--stdio"],
      allowlist: ["lpf"],
      workspace_config: { filterc: { dataset: "gateway_http" } },
    });
    expect(out.buffer).toEqual({ omnifunc: "lsp#complete", K: "<Plug>(lsp-hover)" });
  });
});
