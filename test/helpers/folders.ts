import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";

/** A temporary folder for the tests of one file: made before them, removed after; the getter gives its path. */
export function temporaryFolder(prefix: string): () => string {
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterAll(() => (dir ? rm(dir, { recursive: true, force: true }) : undefined));
  return () => dir!;
}
