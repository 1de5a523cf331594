/**
 * The documentation's examples (test/helpers/doc-pages.ts runs them, and says how): the pages
 * test/docs/examples-service.test.ts and examples-library.test.ts leave, and the examples of
 * grammar/REFERENCE.md's tables.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliRun, runCli } from "../helpers/cli.js";
import { COMMAND_TIMEOUT_MS, describePages, PAGE_FILES, pages, root, run } from "../helpers/doc-pages.js";

describePages("examples");

describe("the pages' test files", () => {
  it("name only pages that have examples", () => {
    expect(Object.keys(PAGE_FILES).filter((name) => !pages.includes(name))).toEqual([]);
  });
});

/**
 * grammar/REFERENCE.md's table of diagnostics gives an example for each code, as its first code span:
 * filter source (checked by `filterc check`, against the dataset named in parentheses after it, if
 * any), `JSON` then Logpush JSON (read by `filterc decompile`), or a command line starting with
 * `filterc` or `node`, or holding `| filterc` or `&& filterc` (run by bash, where `require("filterc")` is this
 * package). Each must report that code: `error[CODE]`, `warning[CODE]`, `note[CODE]`, or `'CODE'` as Node prints
 * it in a list. Source and JSON are given to the CLI in-process, as standard input; the commands
 * are run by one bash, one after another, each in a directory of its own, while the in-process rows
 * run.
 */
describe("grammar/REFERENCE.md: each diagnostic's example reports it", () => {
  const rows = readFileSync(join(root, "grammar", "REFERENCE.md"), "utf8")
    .split("\n")
    .flatMap((line, index) => {
      const match = /^\| ([EW]\d{4}) \| .* \| (.*) \|$/.exec(line);
      return match ? [{ line: index + 1, code: match[1]!, example: match[2]! }] : [];
    })
    .map((row) => {
      const json = /^JSON `([^`]+)`/.exec(row.example);
      const span = /^`([^`]+)`(?: \((\w+)\))?/.exec(row.example);
      // In a table, a code span writes | as \|.
      const text = (json ?? span)?.[1]?.replaceAll("\\|", "|");
      const kind = json
        ? "json"
        : text && /^(filterc|node) |(\||&&) (\w+=\S+ )*filterc /.test(text)
          ? "command"
          : "source";
      return { ...row, text, kind, dataset: span?.[2] };
    });
  const commandRows = rows.filter((row) => row.kind === "command");

  let temp: string;
  let env: Record<string, string>;
  let commandRuns: Promise<CliRun>[];
  beforeAll(async () => {
    temp = await mkdtemp(join(tmpdir(), "filterc-reference-"));
    const bin = join(temp, "filterc");
    await writeFile(bin, `#!/bin/sh\nexec "${process.execPath}" "${join(root, "dist", "cli.cjs")}" "$@"\n`, {
      mode: 0o755,
    });
    await mkdir(join(temp, "node_modules"));
    await symlink(root, join(temp, "node_modules", "filterc"));
    await mkdir(join(temp, "stdin"));
    env = { PATH: `${temp}:${process.env.PATH ?? ""}`, HOME: temp, LANG: "C.UTF-8" };
    commandRuns = runInTurn(
      commandRows.map((row) => row.text!),
      join(temp, "commands"),
      env,
    );
    // A row that fails before its command is awaited leaves the promise rejected unobserved.
    for (const command of commandRuns) command.catch(() => {});
  });
  afterAll(async () => {
    await Promise.allSettled(commandRuns);
    await rm(temp, { recursive: true, force: true });
  });

  it("has a row per code", () => expect(rows.length).toBeGreaterThan(60));

  for (const row of rows)
    it(`${row.code} (grammar/REFERENCE.md:${row.line})`, async () => {
      expect(row.text, `${row.code}: the example is not a code span: ${row.example}`).toBeTruthy();
      const text = row.text!;
      const { command, result } =
        row.kind === "command"
          ? { command: text, result: await commandRuns[commandRows.indexOf(row)]! }
          : row.kind === "json"
            ? {
                command: "filterc decompile",
                result: await runCli(["decompile"], text, env, false, join(temp, "stdin")),
              }
            : {
                command: `filterc check${row.dataset ? ` --dataset ${row.dataset}` : ""}`,
                result: await runCli(
                  ["check", ...(row.dataset ? ["--dataset", row.dataset] : [])],
                  text,
                  env,
                  false,
                  join(temp, "stdin"),
                ),
              };
      expect(result.stdout + result.stderr, `${row.code}: ${command} (with ${text})`).toMatch(
        new RegExp(`(error|warning|note)\\[${row.code}\\]|'${row.code}'`),
      );
    });
});

/**
 * Runs the commands by one bash, one after another, each in a directory of its own under `dir`
 * (with no standard input, and at most COMMAND_TIMEOUT_MS each): each promise is the output of one,
 * settled as soon as it is done.
 */
function runInTurn(commands: string[], dir: string, env: Record<string, string>): Promise<CliRun>[] {
  const script = `n=0
for command in "$@"; do
  mkdir -p "${dir}/$n"
  (cd "${dir}/$n" && timeout -s KILL ${COMMAND_TIMEOUT_MS / 1000} bash -c "$command" >stdout 2>stderr </dev/null)
  echo "$n $?"
  n=$((n + 1))
done
`;
  const settle: { resolve: (run: CliRun) => void; reject: (error: Error) => void }[] = [];
  const runs = commands.map(
    () =>
      new Promise<CliRun>((resolve, reject) => {
        settle.push({ resolve, reject });
      }),
  );
  const child = spawn("bash", ["-c", script, "bash", ...commands], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let done = 0;
  let pending = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    pending += chunk;
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) {
      const [n, code] = line.split(" ").map(Number) as [number, number];
      const [stdout, stderr] = [
        readFileSync(join(dir, `${n}`, "stdout"), "utf8"),
        readFileSync(join(dir, `${n}`, "stderr"), "utf8"),
      ];
      settle[n]!.resolve({ code, stdout, stderr });
      done = n + 1;
    }
  });
  child.on("close", (code) => {
    for (const { reject } of settle.slice(done))
      reject(new Error(`the commands' bash exited (${code}) before this one ran`));
  });
  return runs;
}

/** grammar/REFERENCE.md's structure table: each example is a valid filter (`filterc check` exits 0, silently but for its figures). */
describe("grammar/REFERENCE.md: each structure example is a valid filter", () => {
  const text = readFileSync(join(root, "grammar", "REFERENCE.md"), "utf8");
  const section = text.slice(text.indexOf("## Structure"), text.indexOf("## Operators"));
  const examples = section.split("\n").flatMap((line) => {
    const match = /^\| .* \| .* \| `([^`]+)` \|$/.exec(line);
    return match ? [match[1]!] : [];
  });

  it("has the examples", () => expect(examples.length).toBe(6));

  for (const example of examples)
    it(example, async () => {
      const cli = join(root, "dist", "cli.cjs");
      const command = `printf '%s' "$0" | "$1" "$2" check`;
      const result = await run("bash", ["-c", command, example, process.execPath, cli], root, {
        PATH: process.env.PATH ?? "",
      });
      expect(result.stderr).toBe("");
      expect(result.stdout).toMatch(/^ok: \d+ of 30 comparisons, \d+ of 1000 bytes\n$/);
      expect(result.code).toBe(0);
    });
});
