import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { version } from "../../package.json";
import type { CommandName } from "../../src/cli/command-summaries.js";
import { commandSummaries } from "../../src/cli/command-summaries.js";
import { commands } from "../../src/cli/commands.js";
import { runCli } from "../helpers/cli.js";
import { temporaryFolder } from "../helpers/folders.js";

/* The manual page, rendered by Debian's man as a user's `man filterc` renders it. */

const folder = temporaryFolder("filterc-man-");

async function rendered(): Promise<string> {
  const run = await runCli(["help", "--man"]);
  expect(run).toMatchObject({ code: 0, stderr: "" });
  const page = join(folder(), "filterc.1");
  await writeFile(page, run.stdout);
  // --warnings: groff says what it cannot set; the page must give it nothing to say.
  const man = spawnSync("man", ["--warnings", "-P", "cat", "-l", page], {
    encoding: "utf8",
    env: { ...process.env, MANWIDTH: "100", LANG: "C.UTF-8" },
  });
  expect(man.stderr).toBe("");
  expect(man.status).toBe(0);
  return man.stdout;
}

describe("filterc help --man", () => {
  it("renders with man: name, synopsis, every command of the table with its whole help", async () => {
    const text = await rendered();
    expect(text.split("\n")[0]).toMatch(/^FILTERC\(1\) +filterc manual +FILTERC\(1\)$/);
    expect(text).toContain(
      "NAME\n       filterc - Cloudflare Logpush filters, checked before they are sent\n",
    );
    expect(text).toContain(`filterc ${version}`);
    for (const [name, entry] of Object.entries(commands)) {
      expect(text).toContain(`   filterc ${name}\n       ${commandSummaries[name as CommandName]}\n`);
      // Each line of the help, as --help prints it, indented under the command.
      for (const line of (await entry.load()).usage.split("\n"))
        if (line.trim() !== "") expect(text).toContain(`       ${line}`.trimEnd());
    }
  });

  it("writes every flag with ASCII hyphens, so that one copied from the page works", async () => {
    const text = await rendered();
    expect(text).toContain("--max-operators N");
    expect(text).not.toMatch(/[\u2010\u2011\u2212]/);
  });
});
