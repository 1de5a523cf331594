import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { getCatalog } from "../../src/catalog/index.js";
import { readUsage } from "../../src/cli/command-reference.js";
import type { CommandName } from "../../src/cli/command-summaries.js";
import { commandSummaries } from "../../src/cli/command-summaries.js";
import { commands } from "../../src/cli/commands.js";
import { runCli } from "../helpers/cli.js";
import { temporaryFolder } from "../helpers/folders.js";

/*
 * The completion scripts, run in the real shells: bash's through its completion function with
 * COMP_WORDS and COMP_CWORD set as readline sets them, fish's through `complete -C`, zsh's loaded
 * with compinit and checked for syntax. Every flag a help names is held to the command's parser.
 */

const folder = temporaryFolder("filterc-completion-");
let dir: string;
const scripts: Record<string, string> = {};
beforeAll(async () => {
  dir = folder();
  for (const shell of ["bash", "zsh", "fish"]) {
    const run = await runCli(["completion", shell]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    scripts[shell] = join(dir, `filterc.${shell}`);
    await writeFile(scripts[shell]!, run.stdout);
  }
  await mkdir(join(dir, "logs"));
  await writeFile(join(dir, "logs", "a.ndjson"), "");
  await writeFile(join(dir, "errors.lpf"), "");
});

/** What bash's completion offers for the words of a line, the last one being completed. */
function bash(...words: string[]): string[] {
  const script = [
    `source ${JSON.stringify(scripts["bash"])}`,
    `COMP_WORDS=(${words.map((word) => `'${word}'`).join(" ")})`,
    `COMP_CWORD=${words.length - 1}`,
    "_filterc",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own expansion
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join("\n");
  const out = execFileSync("bash", ["--norc", "-c", script], { cwd: dir, encoding: "utf8" });
  return out.split("\n").filter((line) => line !== "");
}

const httpFields = [...getCatalog("http_requests")!.fields.keys()];

describe("filterc completion bash, in bash", () => {
  it("registers _filterc for filterc", () => {
    expect(
      execFileSync(
        "bash",
        ["--norc", "-c", `source ${JSON.stringify(scripts["bash"])}; complete -p filterc`],
        {
          encoding: "utf8",
        },
      ),
    ).toBe("complete -F _filterc filterc\n");
  });

  it("completes commands, from the command table", () => {
    expect(bash("filterc", "comp")).toEqual(["compile", "completion"]);
    expect(bash("filterc", "")).toEqual(Object.keys(commands));
    expect(bash("filterc", "--v")).toEqual(["--version"]);
  });

  it("completes subcommands, and the command after help", () => {
    expect(bash("filterc", "jobs", "d")).toEqual(["delete", "disable", "diff"]);
    expect(bash("filterc", "fields", "")).toEqual(["get", "set", "add", "remove", "clear"]);
    expect(bash("filterc", "completion", "")).toEqual(["bash", "zsh", "fish"]);
    expect(bash("filterc", "help", "sa")).toEqual(["sandbox"]);
    expect(bash("filterc", "datasets", "gateway_")).toEqual([
      "gateway_dns",
      "gateway_http",
      "gateway_network",
    ]);
  });

  it("completes a command's flags, and the words a flag takes", () => {
    expect(bash("filterc", "compile", "--max")).toEqual(["--max-operators", "--max-bytes"]);
    expect(bash("filterc", "jobs", "create", "--max-upload-")).toEqual([
      "--max-upload-bytes",
      "--max-upload-records",
      "--max-upload-interval",
    ]);
    expect(bash("filterc", "sql", "--dialect", "")).toEqual(["duckdb", "clickhouse"]);
    expect(bash("filterc", "datasets", "--scope", "a")).toEqual(["account"]);
    expect(bash("filterc", "jobs", "update", "--frequency", "")).toEqual(["high", "low"]);
    // A value that is anything (a number) gets no guesses.
    expect(bash("filterc", "check", "--max-bytes", "")).toEqual([]);
  });

  it("completes dataset names after --dataset, also written --dataset=", () => {
    expect(bash("filterc", "check", "--dataset", "gateway_h")).toEqual(["gateway_http"]);
    expect(bash("filterc", "check", "--dataset", "=", "dns_")).toEqual(["dns_firewall_logs", "dns_logs"]);
    expect(bash("filterc", "check", "--dataset", "=")).toHaveLength(37);
  });

  it("completes the named dataset's fields after --fields, each after the last comma", () => {
    expect(bash("filterc", "jobs", "create", "--fields", "ClientRequestP")).toEqual([
      "ClientRequestPath",
      "ClientRequestProtocol",
    ]);
    expect(bash("filterc", "jobs", "create", "--fields", "")).toEqual(httpFields);
    expect(bash("filterc", "jobs", "create", "--fields", "RayID,EdgeResponseS")).toEqual([
      "RayID,EdgeResponseStatus",
    ]);
    expect(bash("filterc", "sql", "--dataset", "dns_logs", "--fields", "Query")).toEqual([
      "QueryName",
      "QueryType",
    ]);
  });

  it("completes files where a command or flag takes one, folders for --dir", () => {
    expect(bash("filterc", "compile", "err")).toEqual(["errors.lpf"]);
    expect(bash("filterc", "eval", "--filter", "e")).toEqual(["errors.lpf"]);
    expect(bash("filterc", "jobs", "pull", "--dir", "")).toEqual(["logs"]);
    // A command that takes no file offers none.
    expect(bash("filterc", "sandbox", "e")).toEqual([]);
  });
});

describe("filterc completion fish and zsh", () => {
  const hasShell = (shell: string) => {
    try {
      execFileSync(shell, ["-c", "true"]);
      return true;
    } catch {
      return false;
    }
  };

  it("fish: completes commands, subcommands, flags, datasets and fields", () => {
    expect(hasShell("fish")).toBe(true);
    const fish = (line: string) =>
      execFileSync(
        "fish",
        ["--no-config", "-c", `source ${scripts["fish"]}; complete -C ${JSON.stringify(line)}`],
        {
          cwd: dir,
          encoding: "utf8",
        },
      )
        .split("\n")
        .filter((entry) => entry !== "");
    expect(fish("filterc comp")).toEqual([
      "compile\tcompile filter source to Logpush JSON",
      "completion\tprint a shell completion script (bash, zsh, fish)",
    ]);
    expect(fish("filterc jobs di")).toEqual(["diff", "disable"]);
    expect(fish("filterc compile --max-b")).toEqual(["--max-bytes\tbyte limit of the JSON (default 1000)"]);
    expect(fish("filterc check --dataset gateway_h")).toEqual(["gateway_http"]);
    expect(fish("filterc jobs create --dataset dns_logs --fields ColoCode,Query")).toEqual([
      // fish gives a value the flag's description.
      "ColoCode,QueryName\tthe fields each record carries (output_options.field_names)",
      "ColoCode,QueryType\tthe fields each record carries (output_options.field_names)",
    ]);
    expect(fish("filterc compile err")).toEqual(["errors.lpf"]);
  });

  it("zsh: _filterc offers commands, subcommands, flags, words, datasets and fields", () => {
    expect(hasShell("zsh")).toBe(true);
    const stub = fileURLToPath(new URL("../fixtures/completion/run-zsh-completion.zsh", import.meta.url));
    const zsh = (...words: string[]) =>
      execFileSync("zsh", ["-f", stub, scripts["zsh"]!, ...words], { encoding: "utf8" })
        .split("\n")
        .filter((line) => line !== "");
    expect(zsh("filterc", "comp")).toEqual(["compile", "completion"]);
    expect(zsh("filterc", "jobs", "d")).toEqual(["delete", "disable", "diff"]);
    expect(zsh("filterc", "compile", "--max")).toEqual(["--max-operators", "--max-bytes"]);
    expect(zsh("filterc", "sql", "--dialect", "")).toEqual(["duckdb", "clickhouse"]);
    expect(zsh("filterc", "check", "--dataset", "gateway_h")).toEqual(["gateway_http"]);
    expect(zsh("filterc", "check", "--dataset=dns_")).toEqual([
      "--dataset=dns_firewall_logs",
      "--dataset=dns_logs",
    ]);
    expect(zsh("filterc", "jobs", "create", "--fields", "RayID,EdgeResponseS")).toEqual([
      "RayID,EdgeResponseStatus",
    ]);
    expect(zsh("filterc", "datasets", "gateway_")).toEqual([
      "gateway_dns",
      "gateway_http",
      "gateway_network",
    ]);
    expect(zsh("filterc", "compile", "err")).toEqual(["(files)"]);
    expect(zsh("filterc", "jobs", "pull", "--dir", "")).toEqual(["(files-/)"]);
    expect(zsh("filterc", "sandbox", "e")).toEqual([]);
  });

  it("zsh: the script reads, and defines _filterc under compinit", () => {
    expect(hasShell("zsh")).toBe(true);
    execFileSync("zsh", ["-n", scripts["zsh"]!]);
    const loaded = execFileSync(
      "zsh",
      [
        "-f",
        "-c",
        `autoload -Uz compinit && compinit -u -D && source ${scripts["zsh"]} && print -r -- $_comps[filterc]`,
      ],
      { encoding: "utf8" },
    );
    expect(loaded).toBe("_filterc\n");
  });
});

describe("the command references the scripts and the manual page are made from", () => {
  it("name only flags each command takes, with a value where the help writes one", async () => {
    const refused: string[] = [];
    for (const [name, entry] of Object.entries(commands)) {
      const usage = (await entry.load()).usage;
      const reference = readUsage(name, commandSummaries[name as CommandName], usage);
      const subcommands = reference.subcommands.length > 0 ? reference.subcommands : [undefined];
      for (const flag of reference.flags) {
        if (flag.name === "--help") continue;
        const value =
          flag.value === undefined ? [] : [flag.value.kind === "word" ? flag.value.words[0]! : "x"];
        // A flag the parser takes stops at the probe after it; one it refuses, or whose value
        // it reads otherwise, at itself or the value.
        let accepted = false;
        for (const sub of subcommands) {
          const args = [name, ...(sub ? [sub] : []), flag.name, ...value, "--zz-probe"];
          const run = await runCli(args, "", { CLOUDFLARE_API_TOKEN: "t".repeat(40) });
          // Under --json the usage error is JSON on stdout.
          const said = flag.name === "--json" ? JSON.parse(run.stdout).message : run.stderr.split("\n")[0];
          if (said === "unknown option --zz-probe" || said === `filterc ${name}: unknown option --zz-probe`)
            accepted = true;
        }
        if (!accepted) refused.push(`${name} ${flag.name}`);
      }
    }
    expect(refused).toEqual([]);
  }, 60_000);
});
