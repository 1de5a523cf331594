import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inject } from "vitest";

/*
 * The bundles (dist/) are built once per test run, by the first test that runs them; the other
 * test files run from the sources and never wait for a build. Test files run in parallel
 * workers: a lock directory lets one build while the others wait for its marker.
 */

const root = fileURLToPath(new URL("../../", import.meta.url));
/** A build under a loaded machine takes a minute or two; a waiter gives up well after that. */
const BUILD_WAIT_MS = 600_000;

const pause = new Int32Array(new SharedArrayBuffer(4));

function once(name: string, build: () => void): void {
  const base = join(tmpdir(), `filterc-test-${inject("testRun")}-${name}`);
  const done = `${base}.done`;
  const lock = `${base}.lock`;
  const deadline = Date.now() + BUILD_WAIT_MS;
  while (!existsSync(done)) {
    try {
      mkdirSync(lock);
    } catch {
      if (Date.now() > deadline) throw new Error(`waited too long for another test to build ${name}`);
      Atomics.wait(pause, 0, 0, 100);
      continue;
    }
    try {
      if (!existsSync(done)) {
        build();
        writeFileSync(done, "");
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, stdio: "ignore" });

/** Builds the library, browser entry and CLI bundles, unless this run built them already. */
export function ensureBundles(): void {
  once("bundles", () => node(["node_modules/tsup/dist/cli-default.js"]));
}

/** The built CLI entry, built first if this run has not yet. */
export function builtCli(): string {
  ensureBundles();
  return join(root, "dist/cli.cjs");
}

/** Builds the playground page (dist/playground) that `filterc playground` serves, after the bundles. */
export function ensurePlayground(): void {
  ensureBundles();
  once("playground", () =>
    node(["node_modules/vite/bin/vite.js", "build", "--config", "playground/vite.config.ts"]),
  );
}

/** Builds the console's page (dist/console) that `filterc console` serves, after the bundles. */
export function ensureConsole(): void {
  ensureBundles();
  once("console", () =>
    node(["node_modules/vite/bin/vite.js", "build", "--config", "console/vite.config.ts"]),
  );
}
