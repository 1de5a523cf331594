import { mkdirSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBundles } from "../helpers/bundles.js";
import { runCli, spawnBytes } from "../helpers/cli.js";

// Built while the file is collected, outside any test's time limit.
ensureBundles();

const out = fileURLToPath(new URL("../out/eval-cli/", import.meta.url));

const lines = [
  '{"ClientCountry":"us","EdgeResponseStatus":500,"ClientRequestPath":"/caf\u00e9"}',
  '{"ClientCountry":"ca","EdgeResponseStatus":200}',
  '{"ClientCountry":"us","EdgeResponseStatus":"503"}',
  "not json",
  '{"ClientCountry":"fr","EdgeResponseStatus":404}',
  "[1,2]",
  '{"ClientCountry":"us","EdgeResponseStatus":200}',
];
const ndjson = `${lines.join("\n")}\n`;
const expr = ["--expr", 'EdgeResponseStatus geq 500 and ClientCountry eq "us"'];

beforeAll(() => {
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "logs.ndjson"), ndjson);
  // Compressed, with a name that does not say so: detected by the magic bytes.
  writeFileSync(join(out, "logs.txt"), gzipSync(ndjson));
  writeFileSync(join(out, "more.log.gz"), gzipSync('{"ClientCountry":"us","EdgeResponseStatus":502}\n'));
  writeFileSync(join(out, "truncated.gz"), gzipSync(ndjson).subarray(0, 30));
  writeFileSync(
    join(out, "filter.json"),
    '{"where":{"and":[{"key":"EdgeResponseStatus","operator":"geq","value":"500"},{"key":"ClientCountry","operator":"eq","value":"us"}]}}',
  );
  writeFileSync(
    join(out, "job.json"),
    JSON.stringify({
      id: 1,
      dataset: "http_requests",
      filter: '{"where":{"key":"ClientCountry","operator":"eq","value":"fr"}}',
    }),
  );
  writeFileSync(
    join(out, "errors.lpf"),
    '# 5xx from the US\nEdgeResponseStatus geq 500 and ClientCountry eq "us"\n',
  );
});

describe("filterc eval", () => {
  it("writes the matching lines and a summary with the malformed line numbers", async () => {
    const run = await runCli(["eval", ...expr], ndjson);
    expect(run).toEqual({
      code: 0,
      stdout: `${lines[0]}\n${lines[2]}\n`,
      stderr: "read 7 lines, matched 2, malformed 2 (first at lines 4, 6)\n",
    });
  });

  it("notes a --jobs above the machine's cores, and runs it all the same", async () => {
    const cores = availableParallelism();
    const run = await runCli(["eval", ...expr, "--jobs", String(cores + 1)], ndjson);
    expect(run).toEqual({
      code: 0,
      stdout: `${lines[0]}\n${lines[2]}\n`,
      stderr:
        `filterc eval: --jobs ${cores + 1} is more than the ${cores} cores here: the workers share them\n` +
        "read 7 lines, matched 2, malformed 2 (first at lines 4, 6)\n",
    });
    expect((await runCli(["eval", ...expr, "--jobs", String(cores)], ndjson)).stderr).toBe(
      "read 7 lines, matched 2, malformed 2 (first at lines 4, 6)\n",
    );
  });

  it("reads a gzip file by its content, whatever its name, and several inputs in order", async () => {
    const run = await runCli(["eval", ...expr, join(out, "logs.txt"), join(out, "more.log.gz")]);
    expect(run.stdout).toBe(`${lines[0]}\n${lines[2]}\n{"ClientCountry":"us","EdgeResponseStatus":502}\n`);
    expect(run.stderr).toBe(
      `read 8 lines, matched 3, malformed 2 (first at lines ${join(out, "logs.txt")}:4, ${join(out, "logs.txt")}:6)\n`,
    );
    expect(run.code).toBe(0);
  });

  it("reads gzip from standard input and keeps the bytes of every line (CRLF, unicode, no final newline)", async () => {
    const raw = Buffer.from(
      '{"ClientCountry":"us","EdgeResponseStatus":500,"ClientRequestPath":"/\\u00e9t\u00e9"}\r\n' +
        '{"ClientCountry":"ca","EdgeResponseStatus":500}\n' +
        '{ "ClientCountry" : "us" , "EdgeResponseStatus" : 599 }',
    );
    const run = await spawnBytes(["eval", ...expr], gzipSync(raw));
    expect(run.stdout.toString("hex")).toBe(
      Buffer.from(
        '{"ClientCountry":"us","EdgeResponseStatus":500,"ClientRequestPath":"/\\u00e9t\u00e9"}\r\n' +
          '{ "ClientCountry" : "us" , "EdgeResponseStatus" : 599 }\n',
      ).toString("hex"),
    );
    expect(run.stderr).toBe("read 3 lines, matched 2, malformed 0\n");
    expect(run.code).toBe(0);
  });

  it("writes invalid UTF-8 back unchanged", async () => {
    const raw = Buffer.concat([
      Buffer.from('{"ClientCountry":"us","EdgeResponseStatus":500,"ClientRequestPath":"/'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}\n'),
    ]);
    const run = await spawnBytes(["eval", ...expr], raw);
    expect(run.stdout.equals(raw)).toBe(true);
  });

  it("counts with --count, and selects the other lines with --invert", async () => {
    expect(await runCli(["eval", ...expr, "--count"], ndjson)).toEqual({
      code: 0,
      stdout: "2\n",
      stderr: "read 7 lines, matched 2, malformed 2 (first at lines 4, 6)\n",
    });
    const inverted = await runCli(["eval", ...expr, "--invert"], ndjson);
    expect(inverted.stdout).toBe(`${lines[1]}\n${lines[4]}\n${lines[6]}\n`);
    expect((await runCli(["eval", ...expr, "--invert", "--count"], ndjson)).stdout).toBe("3\n");
  });

  it("stops at the first malformed line with --strict", async () => {
    expect(await runCli(["eval", ...expr, "--strict"], ndjson)).toEqual({
      code: 1,
      stdout: `${lines[0]}\n${lines[2]}\n`,
      stderr:
        "read 4 lines, matched 2, malformed 1 (first at line 4)\nfilterc eval: stopped at malformed line 4 of <stdin> (--strict)\n",
    });
  });

  it("keeps what the JSON keeps: `not BotScore leq 10` is `BotScore gt 10`, which drops a record without BotScore", async () => {
    const logs = '{}\n{"BotScore":11}\n{"BotScore":10}\n{"BotScore":null}\n';
    expect(await runCli(["eval", "--expr", "not BotScore leq 10"], logs)).toEqual({
      code: 0,
      stdout: '{"BotScore":11}\n',
      stderr: "read 4 lines, matched 1, malformed 0\n",
    });
  });

  it("reads filter source from a file, and keeps every line with the empty filter", async () => {
    const run = await runCli(["eval", "--filter", join(out, "errors.lpf"), join(out, "logs.ndjson")]);
    expect(run.stdout).toBe(`${lines[0]}\n${lines[2]}\n`);
    const all = await runCli(["eval", "--expr", "# nothing", "--count"], ndjson);
    expect(all.stdout).toBe("5\n");
  });

  it("reads Logpush filter JSON, or a job record holding it, by content", async () => {
    const fromJson = await runCli(["eval", "--filter", join(out, "filter.json"), join(out, "logs.ndjson")]);
    expect(fromJson.stdout).toBe(`${lines[0]}\n${lines[2]}\n`);
    const fromJob = await runCli(["eval", "--filter", join(out, "job.json")], ndjson);
    expect(fromJob.stdout).toBe(`${lines[4]}\n`);
  });

  it("reports filter errors with exit 1 and usage mistakes with exit 2", async () => {
    const bad = await runCli(["eval", "--expr", "ClientCountri eq 1"], ndjson);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toContain("E0");
    expect(bad.stderr).toContain("ClientCountry");
    const neither = await runCli(["eval"], ndjson);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toMatch(
      /^filterc eval: give the filter with exactly one of --filter FILE and --expr SOURCE\n/,
    );
    expect((await runCli(["eval", ...expr, "--filter", "x"], ndjson)).code).toBe(2);
    expect((await runCli(["eval", ...expr, "--bogus"], ndjson)).code).toBe(2);
  });

  it("reports unreadable inputs without a stack trace", async () => {
    expect(await runCli(["eval", ...expr, join(out, "missing.ndjson")])).toEqual({
      code: 1,
      stdout: "",
      stderr: `filterc eval: cannot read ${join(out, "missing.ndjson")}: no such file\n`,
    });
    expect(await runCli(["eval", ...expr, out])).toEqual({
      code: 1,
      stdout: "",
      stderr: `filterc eval: cannot read ${out}: is a directory\n`,
    });
    // A file found, opened, and failing to read (Linux answers EIO at offset 0 of a process's
    // memory): once a stack trace from the read (regression), on one thread and on workers alike.
    expect(await runCli(["eval", ...expr, "/proc/self/mem"])).toEqual({
      code: 1,
      stdout: "",
      stderr: "filterc eval: cannot read /proc/self/mem: EIO\n",
    });
    const workers = await runCli(["eval", ...expr, "--jobs", "2", "/proc/self/mem", "/proc/self/mem"]);
    expect(workers).toEqual({
      code: 1,
      stdout: "",
      stderr: "filterc eval: cannot read /proc/self/mem: EIO\n",
    });
    const truncated = await runCli(["eval", ...expr, join(out, "truncated.gz")]);
    expect(truncated.code).toBe(1);
    expect(truncated.stderr).toMatch(
      /^filterc eval: \S+truncated.gz: damaged: unexpected end of file inside a gzip member at byte 30; /,
    );
  });

  it("keeps every byte across chunks and decoding blocks (long lines, UTF-8 split between chunks, CRLF)", async () => {
    // About 5 MB: read in 1 MB chunks and decoded in blocks of whole lines, some ASCII, some not.
    // The first chunk ends inside the two bytes of an é.
    const head = '{"ClientCountry":"us","ClientRequestPath":"';
    const fillerLength = (1 << 20) - 1 - head.length;
    const filler = `${head.replace("us", "fr")}${"f".repeat(fillerLength - head.length - 3)}"}\n`;
    const parts: Buffer[] = [Buffer.from(filler), Buffer.from(`${head}\u00e9\u{1f600}"}\n`)];
    expect(parts[0]!.length + head.length).toBe((1 << 20) - 1);
    for (let i = 0; parts.reduce((sum, part) => sum + part.length, 0) < 5_000_000; i++) {
      const country = i % 3 === 0 ? "us" : "fr";
      const path =
        i % 97 === 0
          ? "/".repeat(70_000 + i) // longer than a decoding block
          : i % 1001 === 0
            ? "x".repeat(1_100_000) // longer than a chunk
            : i % 5 === 0
              ? `/caf\u00e9/\u{1f600}/${"\u00e9".repeat(i % 700)}` // two- and four-byte characters
              : `/p/${i}`;
      const end = i % 7 === 0 ? "\r\n" : "\n";
      const line =
        i % 211 === 0 ? "{not json" : JSON.stringify({ ClientCountry: country, ClientRequestPath: path });
      parts.push(Buffer.from(line + end));
    }
    const raw = Buffer.concat([...parts, Buffer.from([0xff, 0x0a]), Buffer.from('{"ClientCountry":"us"}')]);
    const file = join(out, "chunks.ndjson");
    writeFileSync(file, raw);
    const selected = (match: (record: { ClientCountry?: string; ClientRequestPath?: string }) => boolean) => {
      const kept: Buffer[] = [];
      for (let start = 0; start < raw.length; ) {
        const newline = raw.indexOf(10, start);
        const end = newline === -1 ? raw.length : newline;
        const text = raw.toString("utf8", start, end);
        let record: { ClientCountry?: string; ClientRequestPath?: string } | undefined;
        try {
          record = JSON.parse(text);
        } catch {}
        if (record && match(record)) kept.push(raw.subarray(start, end), Buffer.from("\n"));
        start = end + 1;
      }
      return Buffer.concat(kept);
    };
    const filter = ["--expr", 'ClientCountry eq "us" or ClientRequestPath contains "\u00e9/"'];
    const matches = (record: { ClientCountry?: string; ClientRequestPath?: string }) =>
      record.ClientCountry === "us" || record.ClientRequestPath?.includes("\u00e9/") === true;
    const run = await spawnBytes(["eval", ...filter, file]);
    expect(run.stdout.equals(selected(matches))).toBe(true);
    const inverted = await spawnBytes(["eval", ...filter, "--invert", file]);
    expect(inverted.stdout.equals(selected((record) => !matches(record)))).toBe(true);
    expect(run.stderr).toMatch(/^read \d+ lines, matched \d+, malformed \d+ \(first at lines 3, 214, /);
  }, 60_000);

  it("compares integers beyond 2^53 exactly, also when the log writes them as JSON numbers", async () => {
    const logs = '{"EdgeStartTimestamp":1700000000000000001}\n{"EdgeStartTimestamp":1700000000000000000}\n';
    const run = await runCli(["eval", "--expr", "EdgeStartTimestamp eq 1700000000000000001"], logs);
    expect(run.stdout).toBe('{"EdgeStartTimestamp":1700000000000000001}\n');
  });
});

describe("filterc eval and a UTF-8 byte order mark", () => {
  const bom = "\ufeff";
  const first = '{"ClientCountry":"us","EdgeResponseStatus":500}';
  const second = '{"ClientCountry":"ca","EdgeResponseStatus":500}';

  it("drops a mark before the first line of each input, plain or gzip (regression: counted malformed)", async () => {
    expect(await runCli(["eval", "--expr", 'ClientCountry eq "us"'], `${bom}${first}\n${second}\n`)).toEqual({
      code: 0,
      stdout: `${first}\n`,
      stderr: "read 2 lines, matched 1, malformed 0\n",
    });
    writeFileSync(join(out, "bom.ndjson"), `${bom}${second}\n`);
    writeFileSync(join(out, "bom.gz"), gzipSync(`${bom}${first}\n`));
    const run = await spawnBytes([
      "eval",
      "--expr",
      "EdgeResponseStatus eq 500",
      "--strict",
      join(out, "bom.ndjson"),
      join(out, "bom.gz"),
    ]);
    expect(run.stdout.toString()).toBe(`${second}\n${first}\n`);
    expect(run.stderr).toBe("read 2 lines, matched 2, malformed 0\n");
    expect(run.code).toBe(0);
  });

  it("keeps a mark that is not at the start of an input, and inputs shorter than a mark", async () => {
    expect(
      await runCli(["eval", "--expr", "not BotScore eq 1", "--count"], `${first}\n${bom}${second}\n`),
    ).toEqual({
      code: 0,
      stdout: "1\n",
      stderr: "read 2 lines, matched 1, malformed 1 (first at line 2)\n",
    });
    const short = await spawnBytes(["eval", "--expr", "not BotScore eq 1"], Buffer.from([0xef, 0xbb]));
    expect(short.stderr).toBe("read 1 line, matched 0, malformed 1 (first at line 1)\n");
    const bomOnly = await spawnBytes(
      ["eval", "--expr", "not BotScore eq 1"],
      Buffer.from([0xef, 0xbb, 0xbf, 0x0a]),
    );
    expect(bomOnly.stderr).toBe("read 0 lines, matched 0, malformed 0\n");
  });
});

describe("filterc eval --stats", () => {
  it("tells the share of well-formed lines and of their bytes the filter keeps", async () => {
    // The 5 well-formed lines of `ndjson`; the 2 matching ones are lines 1 and 3.
    const wellFormed = [lines[0], lines[1], lines[2], lines[4], lines[6]];
    const bytes = wellFormed.reduce((sum, line) => sum + Buffer.byteLength(line!) + 1, 0);
    const kept = Buffer.byteLength(lines[0]!) + 1 + Buffer.byteLength(lines[2]!) + 1;
    const share = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
    for (const flags of [["--stats"], ["--stats", "--invert", "--count"]]) {
      const run = await runCli(["eval", ...expr, ...flags], ndjson);
      expect(run.stderr).toBe(
        "read 7 lines, matched 2, malformed 2 (first at lines 4, 6)\n" +
          `kept 2 of 5 well-formed lines (40.0%), ${kept} of ${bytes} bytes (${share(kept, bytes)})\n`,
      );
      expect(run.code).toBe(0);
    }
    expect((await runCli(["eval", ...expr, "--stats"], "")).stderr).toBe(
      "read 0 lines, matched 0, malformed 0\nkept 0 of 0 well-formed lines (-), 0 of 0 bytes (-)\n",
    );
  });
});
