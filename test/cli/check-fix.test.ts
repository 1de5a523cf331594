import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "filterc-check-fix-"));
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

/** Writes a file of the test's folder; returns its path, which the CLI is given and names. */
const write = (name: string, text: string | Buffer) => {
  writeFileSync(join(folder, name), text);
  return join(folder, name);
};
const read = (path: string) => readFileSync(path, "utf8");
const check = (args: string[], stdin = "") => runCli(["check", ...args], stdin, {}, false, folder);

describe("filterc check --fix on filter files", () => {
  it("rewrites the file with its safe fixes, prints each, and checks what is left", async () => {
    const file = write(
      "errors.lpf",
      '# 5xx on the API\nClientRequestPath startswith "/api"\n  and EdgeResponseStatus eq 5xx\n  and ClientIp eq 1.2.3.4\n  and ClientCountry eq "US"\n',
    );
    const run = await check(["--fix", file]);
    expect(run.stdout).toBe(
      [
        `fixed ${file}:2:19: replace with \`startsWith\` (E0205)`,
        `fixed ${file}:3:29: write EdgeResponseStatus geq 500 and EdgeResponseStatus lt 600 (E0311)`,
        `fixed ${file}:4:7: replace with \`ClientIP\` (E0202)`,
        `fixed ${file}:4:19: write "1.2.3.4" (E0303)`,
        "ok: 5 of 30 comparisons, 311 of 1000 bytes",
        "",
      ].join("\n"),
    );
    // The case of a value changes what a filter selects: it is reported, not applied.
    expect(run.stderr).toContain(
      'warning[W0126]: `ClientCountry` holds two-letter country codes in small letters ("us")',
    );
    expect(run.code).toBe(0);
    expect(read(file)).toBe(
      '# 5xx on the API\nClientRequestPath startsWith "/api"\n  and EdgeResponseStatus geq 500 and EdgeResponseStatus lt 600\n  and ClientIP eq "1.2.3.4"\n  and ClientCountry eq "US"\n',
    );
  });

  it("applies fixes inside others in later rounds", async () => {
    const file = write("list.lpf", "ClientCountry in us,ca\n");
    const run = await check(["--fix", file]);
    expect(run.stdout.split("\n").filter((line) => line.startsWith("fixed"))).toEqual([
      `fixed ${file}:1:18: write "us" (E0303)`,
      `fixed ${file}:1:21: write "ca" (E0303)`,
      `fixed ${file}:1:18: write ["us", "ca"] (E0111)`,
    ]);
    expect(read(file)).toBe('ClientCountry in ["us", "ca"]\n');
    expect(run.code).toBe(0);
  });

  it("leaves a file with nothing to fix as it is, and keeps a byte order mark and CRLF line ends", async () => {
    const clean = write("clean.lpf", "BotScore lt 30\n");
    const before = statSync(clean);
    const run = await check(["--fix", clean]);
    expect([run.code, run.stdout, run.stderr]).toEqual([
      0,
      "ok: 1 of 30 comparisons, 57 of 1000 bytes\n",
      "",
    ]);
    expect(statSync(clean).mtimeMs).toBe(before.mtimeMs);
    const marked = write("marked.lpf", Buffer.from("\uFEFFBotScore lt 30 adn\r\n  BotScore gt 1\r\n"));
    expect((await check(["--fix", marked])).code).toBe(0);
    expect(readFileSync(marked)).toEqual(Buffer.from("\uFEFFBotScore lt 30 and\r\n  BotScore gt 1\r\n"));
  });

  it("keeps a file whose errors have no safe fix, and says what is wrong", async () => {
    const file = write("guess.lpf", 'ClientRequestHst eq "a"\n');
    const run = await check(["--fix", file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("error[E0201]: unknown field `ClientRequestHst` in dataset http_requests");
    expect(read(file)).toBe('ClientRequestHst eq "a"\n');
  });

  it("prints the fixed filter for standard input, with the fixes and what is left on stderr", async () => {
    const run = await check(
      ["--fix", "-", "--dataset", "dns_logs"],
      'QueryType eq "AAAA" ＆＆ ResponseCode eq "NXDOMAIN"\n',
    );
    expect(run.stdout).toBe("QueryType eq 28 && ResponseCode eq 3\n");
    expect(run.stderr).toBe(
      [
        "fixed <stdin>:1:14: write 28 (E0309)",
        "fixed <stdin>:1:21: use `&&` (E0101)",
        "fixed <stdin>:1:36: write 3 (E0309)",
        "ok: 2 of 30 comparisons, 119 of 1000 bytes",
        "",
      ].join("\n"),
    );
    expect(run.code).toBe(0);
    // Without a file, standard input is read too.
    expect((await check(["--fix"], "BotScore lt 30 adn BotScore gt 1")).stdout).toBe(
      "BotScore lt 30 and BotScore gt 1",
    );
  });

  it("gives the fixes in --json, with the fixed text for standard input", async () => {
    const run = await check(["--fix", "--json", "--dataset", "workers_trace_events"], "CPUTimeMs gt 1.5s");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      ok: true,
      stats: { operators: 1, bytes: 60, maxOperators: 30, maxBytes: 1000 },
      diagnostics: [],
      fixed: [{ code: "E0310", line: 1, column: 14, message: "write 1500" }],
      text: "CPUTimeMs gt 1500",
    });
    const file = write("w.lpf", "CPUTimeMs gt 50ms\n");
    const inFile = await check(["--fix", "--json", "--dataset", "workers_trace_events", file]);
    expect(JSON.parse(inFile.stdout)).toMatchObject({
      ok: true,
      fixed: [{ code: "E0310", message: "write 50" }],
    });
    expect(JSON.parse(inFile.stdout)).not.toHaveProperty("text");
    expect(read(file)).toBe("CPUTimeMs gt 50\n");
  });

  it("refuses to rewrite what is no regular file, without a stack trace", async () => {
    const missing = join(folder, "missing.lpf");
    const run = await check(["--fix", missing]);
    expect(run.code).toBe(1);
    expect(run.stderr.startsWith(`filterc check: cannot read ${missing}: `)).toBe(true);
    expect(run.stderr).not.toContain("    at ");
  });
});
