import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBundles } from "../helpers/bundles.js";
import { type EditorHome, editorHome } from "./editor-home.js";
import { recipe } from "./recipes.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

/** Debian's Emacs 28 (emacs-nox) with elpa-eglot; `.ci/run` installs both. Without them this test fails: it never skips. */
const EMACS = "emacs";
const EMACS_TIMEOUT_MS = 60_000;

/*
 * Emacs in batch mode, started as an interactive Emacs starts: the packages activated (Debian's
 * elpa-eglot among them), then ~/.emacs.d/init.el, the recipe as written. The driver opens a
 * filter as a user would; the first command typed in its buffer starts eglot (`eglot-ensure` waits
 * for one), which the driver stands in for by running post-command-hook. Then it reads Flymake's
 * diagnostics, ElDoc's hover, applies the quick fix (M-x eglot-code-actions, RET at its prompt,
 * which batch mode reads from stdin), completes with completion-at-point, formats,
 * lists the outline with imenu, and writes what it saw as JSON.
 */
const DRIVER = String.raw`
(require 'json)
;; Lists of lists would be written as JSON objects: the driver notes vectors.
(defvar out nil)
(defun note (key value) (setq out (cons (cons key value) out)))
(defun wait-for (predicate)
  (let ((deadline (+ (float-time) 10)))
    (while (and (< (float-time) deadline) (not (funcall predicate)))
      (accept-process-output nil 0.05))
    (funcall predicate)))
(defun finish ()
  (with-temp-file (expand-file-name "out.json" (getenv "HOME"))
    (insert (json-encode (reverse out))))
  (kill-emacs 0))
(find-file (expand-file-name "gateway.lpf" (getenv "HOME")))
(note "mode" (symbol-name major-mode))
(run-hooks 'post-command-hook)
(unless (wait-for #'flymake-diagnostics) (note "failure" "no diagnostics") (finish))
(note "diagnostics"
      (vconcat (mapcar (lambda (d) (vector (line-number-at-pos (flymake-diagnostic-beg d))
                                (symbol-name (flymake-diagnostic-type d))
                                (flymake-diagnostic-text d)))
              (flymake-diagnostics))))
(goto-char 3)
(eldoc-print-current-symbol-info t)
(wait-for (lambda () (and (get-buffer "*eldoc*") (> (buffer-size (get-buffer "*eldoc*")) 0))))
(note "hover" (and (get-buffer "*eldoc*") (with-current-buffer "*eldoc*" (buffer-string))))
;; M-x eglot-code-actions typed at the mistake; RET at its prompt (stdin) takes the preferred fix.
(goto-char (flymake-diagnostic-beg (car (flymake-diagnostics))))
(let ((last-nonmenu-event ?
)) (call-interactively #'eglot-code-actions))
(wait-for (lambda () (null (flymake-diagnostics))))
(note "fixed" (buffer-string))
(goto-char (point-max))
(insert "and HTTPHo")
(completion-at-point)
(note "completed" (buffer-string))
(insert " eq \"example.com\"")
(eglot-format-buffer)
(note "formatted" (buffer-string))
(defun outline-of (entry)
  (if (imenu--subalist-p entry) (vconcat (list (car entry)) (mapcar #'outline-of (cdr entry))) (car entry)))
(note "outline"
      (vconcat (mapcar #'outline-of
                       (seq-remove (lambda (entry) (equal (car entry) "*Rescan*")) (imenu--make-index-alist t)))))
(finish)
`;

let home: EditorHome;
let out: Record<string, unknown>;
let missing: string;

function emacs(at: EditorHome, driver: string, input = "") {
  writeFileSync(join(at.home, "driver.el"), driver);
  const run = spawnSync(
    EMACS,
    [
      "--batch",
      "--eval",
      "(package-activate-all)",
      "-l",
      join(at.home, ".emacs.d", "init.el"),
      "-l",
      join(at.home, "driver.el"),
    ],
    { cwd: at.home, env: at.env, timeout: EMACS_TIMEOUT_MS, encoding: "utf8", input },
  );
  if (run.error)
    throw new Error(`cannot run ${EMACS} (.ci/run installs emacs-nox and elpa-eglot): ${run.error.message}`);
  return run;
}

function setUp(at: EditorHome) {
  mkdirSync(join(at.home, ".emacs.d"));
  writeFileSync(join(at.home, ".emacs.d", "init.el"), recipe("emacs"));
  writeFileSync(join(at.home, "gateway.lpf"), 'HTTPMethod eq "GET" and SourceIp eq "10.0.0.1"\n');
}

beforeAll(() => {
  home = editorHome();
  setUp(home);
  emacs(home, DRIVER, "\n");
  out = JSON.parse(readFileSync(join(home.home, "out.json"), "utf8"));
  const bare = editorHome({ onPath: false });
  try {
    setUp(bare);
    emacs(
      bare,
      `(find-file (expand-file-name "gateway.lpf" (getenv "HOME")))\n(with-temp-file (expand-file-name "messages.txt" (getenv "HOME")) (insert (with-current-buffer "*Messages*" (buffer-string))))\n`,
    );
    missing = readFileSync(join(bare.home, "messages.txt"), "utf8");
  } finally {
    bare.remove();
  }
}, 150_000);
afterAll(() => home?.remove());

describe("Emacs 28 with eglot as the language server's client, set up as docs/editors.md says", () => {
  it("opens a filter in lpf-mode, and says when filterc is not on PATH", () => {
    expect(out.failure).toBeUndefined();
    expect(out.mode).toBe("lpf-mode");
    expect(missing).toContain(
      "filterc is not on PATH: in a clone of filterc, run npm install -g --ignore-scripts .\n",
    );
  });

  it("shows the diagnostics with Flymake, checked against the dataset eglot's configuration gives", () => {
    expect(out.diagnostics).toEqual([
      [
        1,
        "eglot-error",
        "filterc [E0202]: unknown field `SourceIp`; field names are case-sensitive: did you mean `SourceIP`?",
      ],
    ]);
  });

  it("hovers with ElDoc", () => {
    expect(out.hover).toBe(
      '**HTTPMethod**: `string`\n\nHTTP method.\n\nEmits:\n```json\n{"key":"HTTPMethod","operator":"eq","value":"GET"}\n```',
    );
  });

  it("applies the quick fix, completes, formats and lists the outline", () => {
    expect(out.fixed).toBe('HTTPMethod eq "GET" and SourceIP eq "10.0.0.1"\n');
    expect(out.completed).toBe('HTTPMethod eq "GET" and SourceIP eq "10.0.0.1"\nand HTTPHost');
    expect(out.formatted).toBe(
      'HTTPMethod eq "GET" and SourceIP eq "10.0.0.1" and HTTPHost eq "example.com"\n',
    );
    // imenu by kind, as eglot 1.9 makes it: the comparisons under the group that holds them.
    expect(out.outline).toEqual([
      ["Operator", "and"],
      ["Field", ["and", 'HTTPMethod eq "GET"', 'SourceIP eq "10.0.0.1"', 'HTTPHost eq "example.com"']],
    ]);
  });
});
