import { randomUUID } from "node:crypto";
import { readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Names this run's build markers (test/helpers/bundles.ts): bundles are built once per run, when a test needs them. */
    testRun: string;
  }
}

/** One run's name for every project of the run (each runs this setup): they share the bundles built. */
const shared = globalThis as { filtercTestRun?: string };

export default function setup(project: TestProject): () => void {
  shared.filtercTestRun ??= randomUUID();
  const run = shared.filtercTestRun;
  project.provide("testRun", run);
  return () => {
    for (const name of readdirSync(tmpdir()))
      if (name.startsWith(`filterc-test-${run}-`))
        rmSync(join(tmpdir(), name), { recursive: true, force: true });
  };
}
