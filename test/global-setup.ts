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

export default function setup(project: TestProject): () => void {
  const run = randomUUID();
  project.provide("testRun", run);
  return () => {
    for (const name of readdirSync(tmpdir()))
      if (name.startsWith(`filterc-test-${run}-`))
        rmSync(join(tmpdir(), name), { recursive: true, force: true });
  };
}
