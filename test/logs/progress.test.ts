import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

it("draws a progress bar with throughput on a terminal, then clears it", async () => {
  const dir = fileURLToPath(new URL("../out/eval-progress/", import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "logs.ndjson"), '{"ClientCountry":"us"}\n{"ClientCountry":"ca"}\n');
  const { code, stdout, stderr } = await runCli(
    ["eval", "--expr", 'ClientCountry eq "us"', join(dir, "logs.ndjson")],
    "",
    {},
    true,
  );
  expect(code).toBe(0);
  expect(stdout).toBe('{"ClientCountry":"us"}\n');
  expect(stderr).toMatch(
    /^\r\x1b\[K\[#{24}\] 100% {2}0\.0 MB {2}\d+\.\d MB\/s {2}\d+ lines\/s\r\x1b\[Kread 2 lines, matched 1, malformed 0\n$/,
  );
});
