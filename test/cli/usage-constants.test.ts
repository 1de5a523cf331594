import { describe, expect, it, vi } from "vitest";

/*
 * A usage text that quotes a limit or default builds it from the constant: each constant is given
 * another value here, and the usage texts must quote that value.
 */

vi.mock("../../src/emit/emit.js", async (original) => ({
  ...(await original<object>()),
  DEFAULT_MAX_OPERATORS: 31,
  DEFAULT_MAX_BYTES: 1001,
}));
vi.mock("../../src/api/transport.js", async (original) => ({
  ...(await original<object>()),
  DEFAULT_TIMEOUT_MS: 30001,
  DEFAULT_MAX_RETRIES: 3,
  DEFAULT_MAX_PAGES: 101,
  DEFAULT_BASE_URL: "https://api.example.com/client/v4",
  DEFAULT_MAX_CONFLICT_RETRIES: 9,
}));
vi.mock("../../src/print/print.js", async (original) => ({
  ...(await original<object>()),
  DEFAULT_LINE_WIDTH: 81,
}));
vi.mock("../../src/cli/args.js", async (original) => ({ ...(await original<object>()), MAX_THREADS: 257 }));
vi.mock("../../src/logs/parts.js", async (original) => ({
  ...(await original<object>()),
  RANGES_PER_WORKER: 4,
  GZIP_WORK_PER_BYTE: 17,
}));
vi.mock("../../src/sandbox/server.js", async (original) => ({
  ...(await original<object>()),
  DEFAULT_DATA_DIR: ".other-sandbox",
}));
vi.mock("../../src/api/custom-fields.js", async (original) => ({
  ...(await original<object>()),
  customFieldsLimitWords: (limit: string) =>
    limit === "service" ? "at most 101 in each list" : "at most 41 across all lists",
}));

const { apiFlagsUsage } = await import("../../src/cli/api-common.js");
const { usage: compileUsage } = await import("../../src/cli/commands/compile.js");
const { usage: consoleUsage } = await import("../../src/cli/commands/console.js");
const { usage: evalUsage } = await import("../../src/cli/commands/eval.js");
const { usage: fieldsUsage } = await import("../../src/cli/commands/fields.js");
const { usage: fmtUsage } = await import("../../src/cli/commands/fmt.js");
const { usage: jobsUsage } = await import("../../src/cli/commands/jobs.js");
const { usage: queryUsage } = await import("../../src/cli/commands/query.js");
const { usage: sandboxUsage } = await import("../../src/cli/commands/sandbox.js");
const { JOB_OPTIONS } = await import("../../src/api/index.js");

describe("usage texts", () => {
  it("quote the API client's defaults from its constants", () => {
    expect(apiFlagsUsage).toContain(
      "  --timeout-ms N        per-request timeout in ms (default 30001; at most",
    );
    expect(apiFlagsUsage).toContain("failures (default 3)");
    expect(apiFlagsUsage).toContain("(default 101)");
    expect(apiFlagsUsage).toContain("else https://api.example.com/client/v4");
    expect(jobsUsage).toContain(apiFlagsUsage);
    expect(fieldsUsage).toContain(apiFlagsUsage);
    expect(consoleUsage).toContain("(default 30001)");
    expect(consoleUsage).toContain("DELETE (default 3)");
    expect(consoleUsage).toContain("https://api.example.com/client/v4)");
  });

  it("quote the other commands' limits and defaults from their constants", () => {
    expect(compileUsage).toContain("  --max-operators N     comparison limit (default 31)");
    expect(compileUsage).toContain("  --max-bytes N         byte limit of the JSON (default 1001)");
    expect(fmtUsage).toContain("  --line-width N        wrap lines at N columns (default 81)");
    expect(evalUsage).toContain(
      "(default: the number of cores, at most 8;\n                        at most 257): one is started for each 4 ranges' worth of\n" +
        "                        input (a gzip byte counts as 17 plain ones)",
    );
    expect(queryUsage).toContain("(default: every core; at most 257)");
    expect(sandboxUsage).toContain("(default .other-sandbox)");
    expect(consoleUsage).toContain("(default .other-sandbox)");
    expect(fieldsUsage).toContain(
      "                        at most 101 in each list; seed, the older limit, at most 41 across all lists\n",
    );
    expect(fieldsUsage).toContain("got in between (default 9)");
  });

  it("show each upload limit's bounds as the table of job options holds them", () => {
    for (const { flag, value } of JOB_OPTIONS)
      if (flag && value.type === "limit")
        expect(jobsUsage).toContain(
          `  ${`${flag.name} ${flag.value}`.padEnd(29)}0 or ${value.min}-${value.max} ${value.unit}\n`,
        );
  });
});
