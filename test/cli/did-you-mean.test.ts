import { describe, expect, it } from "vitest";
import { version } from "../../package.json";
import { runCli } from "../helpers/cli.js";

/*
 * The habits of well-kept CLIs: a mistyped command or subcommand gets the nearest name, the words
 * people type for a read are taken, the version answers to -v and -V, and a usage error is short.
 */

describe("a mistyped command", () => {
  it.each([
    ["compil", "compile"],
    ["complie", "compile"],
    ["COMPILE", "compile"],
    ["chekc", "check"],
    ["datset", "datasets"],
    ["sandbx", "sandbox"],
    ["play", "playground"],
  ])("%s: did you mean %s?", async (typed, meant) => {
    expect(await runCli([typed])).toEqual({
      code: 2,
      stdout: "",
      stderr: `filterc: unknown command "${typed}"; did you mean ${meant}?\nRun filterc --help for the commands.\n`,
    });
  });

  it("is told without a guess when no command is near, in one line and a pointer", async () => {
    expect(await runCli(["frobnicate"])).toEqual({
      code: 2,
      stdout: "",
      stderr: 'filterc: unknown command "frobnicate"\nRun filterc --help for the commands.\n',
    });
    // A prefix that starts several commands is no guess (compile, check, console).
    expect((await runCli(["c"])).stderr).toBe(
      'filterc: unknown command "c"\nRun filterc --help for the commands.\n',
    );
  });

  it("is suggested under --json too, and by filterc help", async () => {
    expect(await runCli(["compil", "--json"])).toEqual({
      code: 2,
      stdout:
        '{"ok":false,"failure":"usage","message":"unknown command \\"compil\\"; did you mean compile?"}\n',
      stderr: "",
    });
    expect((await runCli(["help", "compil"])).stderr).toBe(
      'filterc: unknown command "compil"; did you mean compile?\nRun filterc --help for the commands.\n',
    );
  });
});

describe("subcommands", () => {
  it("takes list and ls for fields get, and ls for jobs list", async () => {
    // Without --zone each stops at the same usage error, named by the subcommand it ran.
    for (const word of ["get", "list", "ls"])
      expect((await runCli(["fields", word])).stderr.split("\n")[0]).toBe(
        (await runCli(["fields", "get"])).stderr.split("\n")[0],
      );
    // A closed port: each asks for the listing and names the subcommand it ran.
    const env = { CLOUDFLARE_API_TOKEN: "t".repeat(40), CLOUDFLARE_BASE_URL: "http://127.0.0.1:9" };
    const listing = (word: string) =>
      runCli(["jobs", word, "--zone", "023e105f4ecef8ad9ca31a8372d0c353"], "", env);
    const listed = await listing("list");
    expect(listed.code).toBe(1);
    expect(listed.stderr).toMatch(
      /^filterc jobs list: list jobs: cannot reach http:\/\/127\.0\.0\.1:9\/zones\//,
    );
    expect(await listing("ls")).toEqual(listed);
  });

  it("does not take rm for a deletion, and says the word", async () => {
    const run = await runCli(["jobs", "rm", "--id", "1"]);
    expect(run.code).toBe(2);
    expect(run.stderr.split("\n")[0]).toBe(
      'filterc jobs: unknown subcommand "rm"; did you mean delete? (jobs delete --id N)',
    );
  });

  it("suggests the nearest subcommand", async () => {
    expect((await runCli(["jobs", "lsit"])).stderr.split("\n")[0]).toBe(
      'filterc jobs: unknown subcommand "lsit"; did you mean list? (list, get, create, update, delete, enable, disable, ownership, validate, pull, diff)',
    );
    expect((await runCli(["fields", "sett"])).stderr.split("\n")[0]).toBe(
      'filterc fields: unknown subcommand "sett"; did you mean set? (get, set, add, remove, clear)',
    );
    expect((await runCli(["fields", "bogus"])).stderr.split("\n")[0]).toBe(
      'filterc fields: unknown subcommand "bogus"; use get, set, add, remove, clear',
    );
  });
});

describe("small things", () => {
  it.each(["-v", "-V", "--version"])("%s prints the version", async (flag) => {
    expect(await runCli([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  it("indents every synopsis line of a usage error once", async () => {
    expect(await runCli(["check", "--bogus"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "filterc check: unknown option --bogus\n" +
        "Usage: filterc check [FILE…|-] [--fix] [options]\n" +
        "       filterc check PATH.tf|FOLDER... [--fix] [--json]\n" +
        "       filterc check FILE|PATH.tf|FOLDER... --format sarif|github\n" +
        "Run filterc check --help for the options.\n",
    });
  });

  it("answers a wrong dataset name with the nearest few names and one line", async () => {
    expect(await runCli(["datasets", "gatway_http"])).toEqual({
      code: 2,
      stdout: "",
      stderr:
        'filterc datasets: unknown dataset "gatway_http"; known datasets: gateway_http, gateway_dns, gateway_network, audit_logs, zaraz_events and 32 more (did you mean gateway_http?)\n' +
        "Run filterc datasets for every name.\n",
    });
    // The names that start with the word first, then those that hold it; no guess when none is near.
    expect((await runCli(["eval", "--dataset", "http", "--expr", "BotScore lt 1"])).stderr).toBe(
      'filterc eval: unknown dataset "http"; known datasets: http_requests, gateway_http, sinkhole_http_logs, ssh_logs, dns_logs and 32 more\n' +
        "Run filterc datasets for every name.\n",
    );
    // jobs' usage (eight synopsis lines) is not repeated for it either.
    const jobs = await runCli(
      [
        "jobs",
        "create",
        "--zone",
        "023e105f4ecef8ad9ca31a8372d0c353",
        "--destination",
        "s3://b/l",
        "--fields",
        "A",
        "--dataset",
        "dns_log",
      ],
      "",
      { CLOUDFLARE_API_TOKEN: "t".repeat(40) },
    );
    expect(jobs.stderr).toBe(
      'filterc jobs: unknown dataset "dns_log"; known datasets: dns_logs, ssh_logs, audit_logs, ipsec_logs, audit_logs_v2 and 32 more (did you mean dns_logs?)\n' +
        "Run filterc datasets for every name.\n",
    );
  });
});
