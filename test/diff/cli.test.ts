import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const dir = mkdtempSync(join(tmpdir(), "filterc-diff-"));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const bounds = file("bounds.lpf", "BotScore gt 10 and BotScore lt 12\n");
const eleven = file("eleven.lpf", "BotScore eq 11\n");
const notLt = file("not-lt.lpf", "not BotScore lt 5\n");
const geq = file("geq.lpf", "BotScore geq 5\n");
const notEq = file("not-eq.lpf", "not BotScore eq 3\n");
const job = file(
  "job.json",
  JSON.stringify({
    id: 1,
    dataset: "http_requests",
    filter: '{"where":{"key":"BotScore","operator":"eq","value":"11"}}',
  }),
);
const dnsJob = file(
  "dns.json",
  JSON.stringify(
    { dataset: "dns_logs", filter: '{"where":{"key":"QueryName","operator":"eq","value":"a"}}' },
    null,
    2,
  ),
);

describe("filterc diff", () => {
  it("prints equivalent and exits 0 for the same meaning written apart", async () => {
    expect(await runCli(["diff", bounds, eleven])).toEqual({ code: 0, stdout: "equivalent\n", stderr: "" });
    expect(await runCli(["diff", bounds, job])).toEqual({ code: 0, stdout: "equivalent\n", stderr: "" });
    // `not` means its push-down: both compile to `BotScore geq 5`, and no record tells them apart.
    expect(await runCli(["diff", notLt, geq])).toEqual({ code: 0, stdout: "equivalent\n", stderr: "" });
  });

  it("gives the relation and the record each side keeps alone, exit 1", async () => {
    expect(await runCli(["diff", notEq, geq])).toEqual({
      code: 1,
      stdout: `A ⊃ B: A lets strictly more through\nonly A (${notEq}) keeps: {}\n`,
      stderr: "",
    });
    expect(await runCli(["diff", geq, "-"], "BotScore gt 5 or ClientCountry eq 'us'")).toEqual({
      code: 1,
      stdout: `overlapping: each lets through records the other drops\nonly A (${geq}) keeps: {"BotScore":5}\nonly B (<stdin>) keeps: {"ClientCountry":"us"}\n`,
      stderr: "",
    });
  });

  it("writes {equivalent, relation, onlyA, onlyB} with --json", async () => {
    expect(await runCli(["diff", geq, notEq, "--json"])).toEqual({
      code: 1,
      stdout: '{"equivalent":false,"relation":"subset","onlyA":null,"onlyB":{}}\n',
      stderr: "",
    });
    expect(await runCli(["diff", "--json", eleven, bounds])).toEqual({
      code: 0,
      stdout: '{"equivalent":true,"relation":"equivalent","onlyA":null,"onlyB":null}\n',
      stderr: "",
    });
  });

  it("refuses filters of different datasets, naming the file and place, exit 2", async () => {
    const run = await runCli(["diff", eleven, dnsJob]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      [
        `error[E0700]: this filter is read with the dataset dns_logs, and ${eleven} with http_requests: filters of different datasets select different records`,
        ` --> ${dnsJob}:2:3`,
        "  |",
        '2 |   "dataset": "dns_logs",',
        "  |   ^^^^^^^^^",
        "1 error",
        "",
      ].join("\n"),
    );
  });

  it("reports errors in either filter with their place, exit 2", async () => {
    const run = await runCli(["diff", eleven, "-"], "BotScor eq 1");
    expect(run).toEqual({
      code: 2,
      stdout: "",
      stderr: [
        "error[E0201]: unknown field `BotScor` in dataset http_requests; did you mean `BotScore`?",
        " --> <stdin>:1:1",
        "  |",
        "1 | BotScor eq 1",
        "  | ^^^^^^^",
        "  = help: replace with `BotScore`: BotScore",
        "1 error",
        "",
      ].join("\n"),
    });
  });

  it("holds Logpush JSON to the limits too, which also bound the comparison, exit 2", async () => {
    const paths = Array.from({ length: 40 }, (_, i) => ({
      key: "ClientRequestPath",
      operator: "startsWith",
      value: `/p${i}`,
    }));
    const big = file("big.json", JSON.stringify({ where: { or: paths } }));
    const run = await runCli(["diff", eleven, big]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(
      "error[E0401]: the filter has 40 comparisons; Logpush accepts at most 30 (option maxOperators); this comparison crosses the limit\n",
    );
  });

  it("is a usage error without two filters, or with both on standard input", async () => {
    const one = await runCli(["diff", eleven]);
    expect(one.code).toBe(2);
    expect(one.stderr.split("\n")[0]).toBe("filterc diff: diff compares two filters, A and B; got 1");
    const both = await runCli(["diff", "-", "-"]);
    expect(both.code).toBe(2);
    expect(both.stderr.split("\n")[0]).toBe("filterc diff: only one of A and B can be - (standard input)");
  });

  it("exits 2 on a file it cannot read and when the search budget runs out", async () => {
    const missing = await runCli(["diff", eleven, join(dir, "nope.lpf")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^filterc diff: cannot read .*nope\.lpf/);
    const budget = await runCli(["diff", bounds, geq, "--max-steps", "1"]);
    expect(budget).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "filterc diff: comparing these filters takes more than 1 search steps (--max-steps); nothing was decided\n",
    });
  });
});
