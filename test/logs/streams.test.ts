import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { builtCli, ensureBundles } from "../helpers/bundles.js";
import { jobsNote, runCli } from "../helpers/cli.js";
import { makeFifo, writeTo } from "../helpers/fifo.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

const dir = mkdtempSync(join(tmpdir(), "filterc-eval-streams-"));
const lines = Array.from({ length: 3000 }, (_, i) => `{"ClientCountry":"${i % 3 ? "fr" : "us"}","n":${i}}`);
const text = `${lines.join("\n")}\n`;
const us = lines.filter((_, i) => i % 3 === 0);
const expr = ["--expr", 'ClientCountry eq "us"'];

describe("filterc eval on streams named as files", () => {
  it("reads a fifo in order, plain or gzip (regression: ESPIPE, as it was read at offsets)", async () => {
    const plain = makeFifo(join(dir, "plain.fifo"));
    const gzip = makeFifo(join(dir, "gzip.fifo"));
    const written = Promise.all([writeTo(plain, text), writeTo(gzip, gzipSync(text))]);
    expect(await runCli(["eval", ...expr, plain, gzip])).toEqual({
      code: 0,
      stdout: `${[...us, ...us].join("\n")}\n`,
      stderr: `read 6000 lines, matched 2000, malformed 0\n`,
    });
    await written;
  });

  it("reads a fifo beside plain files on one thread, with the output of --jobs 1", async () => {
    const file = join(dir, "beside.ndjson");
    writeFileSync(file, text);
    const fifo = makeFifo(join(dir, "beside.fifo"));
    const written = writeTo(fifo, text);
    const run = await runCli(["eval", ...expr, "--jobs", "3", "--range-bytes", "65536", file, fifo]);
    await written;
    expect(run).toEqual({
      code: 0,
      stdout: `${[...us, ...us].join("\n")}\n`,
      stderr: `${jobsNote(3)}read 6000 lines, matched 2000, malformed 0\n`,
    });
  });

  it("reads `<(…)`, as the shell gives it (the issue's command)", async () => {
    const file = join(dir, "substituted.ndjson");
    writeFileSync(file, text);
    const run = await new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
      execFile(
        "bash",
        [
          "-c",
          `"${process.execPath}" "${builtCli()}" eval --expr 'ClientCountry eq "us"' --count <(cat "${file}")`,
        ],
        (error, stdout, stderr) => (error ? reject(error) : resolve({ stdout, stderr })),
      ),
    );
    expect(run).toEqual({ stdout: "1000\n", stderr: "read 3000 lines, matched 1000, malformed 0\n" });
  });
});
