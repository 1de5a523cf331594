import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "./helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "filterc-edges-"));
const file = (name: string, content: string | Uint8Array) => {
  writeFileSync(join(dir, name), content);
  return join(dir, name);
};
const logs = '{"BotScore":1}\n{"BotScore":90}\n';

describe("eval with an empty filter", () => {
  it("says on stderr that every line is selected", async () => {
    // The summary line after the notice is the eval command's own.
    const inline = await runCli(["eval", "--expr", "  # nothing yet\n"], logs);
    expect([inline.code, inline.stdout, inline.stderr.split("\n")[0]]).toEqual([
      0,
      logs,
      "filterc eval: the filter <expr> is empty: every line is selected",
    ]);
    const empty = file("empty.flt", "");
    const run = await runCli(["eval", "--filter", empty], logs);
    expect(run.stderr.split("\n")[0]).toBe(
      `filterc eval: the filter ${empty} is empty: every line is selected`,
    );
  });

  it("a filter that selects something says nothing of the kind", async () => {
    const run = await runCli(["eval", "--expr", "BotScore lt 30"], logs);
    expect([run.code, run.stdout, run.stderr.includes("empty")]).toEqual([0, '{"BotScore":1}\n', false]);
  });
});
