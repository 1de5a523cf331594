import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Vitest's default leaves a core idle (cores - 1: one file at a time on CI's two). Most files
    // wait on the processes they start (the CLI, browsers, engines, servers), so a file per core
    // keeps both busy.
    maxWorkers: availableParallelism(),
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
