import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";
import { makeFifo, writeTo } from "../helpers/fifo.js";

const dir = mkdtempSync(join(tmpdir(), "filterc-cli-streams-"));

describe("commands given a fifo or a device as a file", () => {
  it("read a fifo named on the command line in order, as `cat` does (`compile <(…)`)", async () => {
    const fifo = makeFifo(join(dir, "filter.fifo"));
    const written = writeTo(fifo, "BotScore lt 30\n");
    expect(await runCli(["compile", fifo])).toEqual({
      code: 0,
      stdout: '{"where":{"key":"BotScore","operator":"lt","value":"30"}}\n',
      stderr: "",
    });
    await written;
  });

  it("refuse to rewrite a fifo or a device in place with fmt --write, before reading it (regression: waited for a writer)", async () => {
    const fifo = makeFifo(join(dir, "rewrite.lpf"));
    expect(await runCli(["fmt", "--write", fifo])).toEqual({
      code: 1,
      stdout: "",
      stderr: `filterc fmt: cannot read ${fifo}: a fifo (named pipe), not a regular file\n`,
    });
    expect((await runCli(["fmt", "--write", "/dev/null"])).stderr).toBe(
      "filterc fmt: cannot read /dev/null: a character device, not a regular file\n",
    );
  });
});
