import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * The files that replace modules (`vi.mock`): they need a module graph of their own. Every other
 * file shares its worker's, so the sources are loaded once per worker rather than once per file
 * (the import phase was a fifth of the suite's time on CI's two cores).
 */
const mocking = [
  "test/cli/usage-constants.test.ts",
  "test/editors/extension.test.ts",
  "test/logs/read-ahead.test.ts",
];

export default defineConfig({
  test: {
    // Vitest's default leaves a core idle (cores - 1: one file at a time on CI's two). Most files
    // wait on the processes they start (the CLI, browsers, engines, servers), so a file per core
    // keeps both busy.
    maxWorkers: availableParallelism(),
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: "shared", include: ["test/**/*.test.ts"], exclude: mocking, isolate: false },
      },
      { extends: true, test: { name: "isolated", include: mocking } },
    ],
  },
});
