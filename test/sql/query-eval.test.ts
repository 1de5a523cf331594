import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIO } from "../../src/cli/io.js";
import { main } from "../../src/cli/main.js";
import { compile, toSql } from "../../src/index.js";
import type { ByteRun } from "../helpers/cli.js";
import { closeEngines, engines } from "./engines.js";

/*
 * filterc query answers what filterc eval answers on the files DuckDB's reader reads otherwise than
 * eval: a byte order mark, a form feed or vertical tab about the object, gzip padding and bytes after
 * the last member, lines that are not UTF-8 or hold half a surrogate pair, and numbers a double does
 * not hold. Each case runs every mode (lines, --count, --group-by, --stats) beside eval.
 */

let dir: string;
const startedIn = process.cwd();
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "filterc-query-eval-"));
  process.chdir(dir);
});
afterAll(async () => {
  process.chdir(startedIn);
  await closeEngines();
  await rm(dir, { recursive: true, force: true });
});

/**
 * Runs filterc in-process in the test's folder, stdout as the bytes it wrote (DuckDB is loaded once
 * for the file, not once per run: a process each cost a second of the test's time per run).
 */
async function run(args: string[]): Promise<ByteRun> {
  const chunks: Buffer[] = [];
  let stderr = "";
  const io: CliIO = {
    stdout: (text) => {
      chunks.push(Buffer.from(text));
    },
    stderr: (text) => {
      stderr += text;
    },
    readStdin: async () => "",
    writeStdout: async (bytes) => {
      chunks.push(Buffer.from(bytes));
    },
    env: { ...process.env, NO_COLOR: "1" },
    stderrIsTTY: false,
    cwd: dir,
  };
  const code = await main(args, io);
  return { code, stdout: Buffer.concat(chunks), stderr };
}

/** Each test of every mode runs dozens of commands, on shared cores. */
const SLOW = 120_000;

const bytes = (text: string) => Buffer.from(text, "latin1");

/** A file of the test's folder, written from latin1 text (each character one byte) or bytes. */
async function file(name: string, content: string | Buffer): Promise<string> {
  await writeFile(join(dir, name), typeof content === "string" ? bytes(content) : content);
  return name;
}

/** query's answer in one mode: exit code, stdout as latin1 text (byte for byte), stderr. */
async function query(filter: string, files: string[], ...mode: string[]) {
  const { code, stdout, stderr } = await run(["query", "--expr", filter, ...files, ...mode]);
  return { code, stdout: stdout.toString("latin1"), stderr };
}

/** eval's answer in the same mode, its summary line (which query does not print) left out. */
async function evaluated(filter: string, files: string[], ...mode: string[]) {
  const { code, stdout, stderr } = await run(["eval", "--expr", filter, ...files, ...mode]);
  const told = stderr.split("\n").filter((line) => line !== "" && !line.startsWith("read "));
  return {
    code,
    stdout: stdout.toString("latin1"),
    stderr: told.map((line) => `${line.replace(/^filterc eval:/, "filterc query:")}\n`).join(""),
  };
}

/** Holds query to eval for each filter, counting and printing the lines. */
async function sameAsEval(filters: readonly string[], files: string[]): Promise<void> {
  for (const filter of filters)
    for (const mode of [["--count"], []]) {
      const [answered, expected] = await Promise.all([
        query(filter, files, ...mode),
        evaluated(filter, files, ...mode),
      ]);
      expect([filter, mode, answered]).toEqual([filter, mode, expected]);
    }
}

const filters = [
  "EdgeResponseStatus geq 500",
  'ClientRequestHost !eq "x" or EdgeResponseStatus !eq 1',
  'not ClientRequestHost startsWith "b" and EdgeResponseCompressionRatio !eq 1.5',
];

describe("filterc query beside eval", () => {
  it(
    "reads the first record of a file that starts with a byte order mark, plain or gzip",
    async () => {
      const text =
        '\xef\xbb\xbf{"EdgeResponseStatus":503,"ClientRequestHost":"a"}\n{"EdgeResponseStatus":200,"ClientRequestHost":"b"}\n';
      const plain = await file("bom.ndjson", text);
      const gzip = await file("bom.ndjson.gz", gzipSync(bytes(text)));
      // A mark at the start of the second member is inside the text: that line is malformed.
      const second = await file(
        "bom-member.ndjson.gz",
        Buffer.concat([gzipSync(bytes('{"EdgeResponseStatus":503}\n')), gzipSync(bytes(text))]),
      );
      for (const path of [plain, gzip]) {
        const filter = "EdgeResponseStatus geq 500";
        expect(await query(filter, [path], "--count")).toEqual({ code: 0, stdout: "1\n", stderr: "" });
        expect(await query(filter, [path])).toEqual({
          code: 0,
          stdout: '{"EdgeResponseStatus":503,"ClientRequestHost":"a"}\n',
          stderr: "",
        });
        expect(await query("EdgeResponseStatus geq 0", [path], "--group-by", "ClientRequestHost")).toEqual({
          code: 0,
          stdout: '1\t"a"\n1\t"b"\n',
          stderr: "",
        });
        // The mark is no byte of the record, as eval counts them.
        const stats = "kept 1 of 2 well-formed lines (50.0%), 51 of 102 bytes (50.0%)\n";
        expect(await query(filter, [path], "--count", "--stats")).toEqual({
          code: 0,
          stdout: "1\n",
          stderr: stats,
        });
        expect((await evaluated(filter, [path], "--count", "--stats")).stderr).toBe(stats);
      }
      expect(await query("EdgeResponseStatus geq 0", [second], "--count")).toEqual({
        code: 0,
        stdout: "2\n",
        stderr: "",
      });
      await sameAsEval(filters, [plain]);
      await sameAsEval(filters, [gzip, second]);
    },
    SLOW,
  );

  it(
    "counts a line with a form feed or vertical tab about its object as malformed, as eval",
    async () => {
      const record = '{"EdgeResponseStatus":503,"ClientRequestHost":"a"}';
      const escaped = '{"EdgeResponseStatus":503,"ClientRequestHost":"a\\fb\\u000bc"}';
      const lines = [
        `${record}\f`,
        `\f${record}`,
        `${record}\v`,
        `\v${record}`,
        ` \f ${record}`,
        // Raw, a form feed inside a string is malformed JSON too; escaped, it is a character.
        '{"EdgeResponseStatus":503,"ClientRequestHost":"a\fb"}',
        escaped,
      ];
      const plain = await file("ff.ndjson", `${lines.join("\n")}\n`);
      const gzip = await file("ff.ndjson.gz", gzipSync(bytes(`${lines.join("\r\n")}\r\n`)));
      for (const path of [plain, gzip]) {
        expect(await query("EdgeResponseStatus eq 503", [path], "--count")).toEqual({
          code: 0,
          stdout: "1\n",
          stderr: "",
        });
        expect(await query("EdgeResponseStatus eq 503", [path], "--group-by", "ClientRequestHost")).toEqual({
          code: 0,
          stdout: '1\t"a\\fb\\u000Bc"\n',
          stderr: "",
        });
      }
      expect(await query("EdgeResponseStatus eq 503", [plain])).toEqual({
        code: 0,
        stdout: `${escaped}\n`,
        stderr: "",
      });
      const stats = "kept 1 of 1 well-formed lines (100.0%), 61 of 61 bytes (100.0%)\n";
      expect(await query("EdgeResponseStatus eq 503", [plain], "--stats")).toEqual({
        code: 0,
        stdout: `${escaped}\n`,
        stderr: stats,
      });
      expect((await evaluated("EdgeResponseStatus eq 503", [plain], "--stats")).stderr).toBe(stats);
      await sameAsEval(filters, [plain]);
      await sameAsEval(filters, [gzip]);
    },
    SLOW,
  );

  it(
    "reads a gzip file padded with zeros after its last member, and counts before bytes after it",
    async () => {
      const text = '{"EdgeResponseStatus":503,"ClientRequestHost":"a"}\n{"EdgeResponseStatus":200}\n';
      const member = gzipSync(bytes(text));
      const zeros = (n: number) => Buffer.alloc(n);
      const padded = [
        await file("pad-1.ndjson.gz", Buffer.concat([member, zeros(1)])),
        await file("pad-4096.ndjson.gz", Buffer.concat([member, zeros(4096)])),
        await file("pad-two.ndjson.gz", Buffer.concat([member, member, zeros(512)])),
      ];
      for (const path of padded) {
        const count = path === "pad-two.ndjson.gz" ? "2\n" : "1\n";
        expect(await query("EdgeResponseStatus geq 500", [path], "--count")).toEqual({
          code: 0,
          stdout: count,
          stderr: "",
        });
      }
      expect(await query("EdgeResponseStatus geq 0", padded.slice(0, 1))).toEqual({
        code: 0,
        stdout: text,
        stderr: "",
      });
      const junk = await file("junk.ndjson.gz", Buffer.concat([member, bytes("junk")]));
      const paddedJunk = await file("pad-junk.ndjson.gz", Buffer.concat([member, zeros(10), bytes("junk")]));
      const damage = (path: string, at: number) =>
        `filterc query: ${path}: damaged: bytes after the last gzip member at byte ${at}; the lines before it were read\n`;
      expect(await query("EdgeResponseStatus geq 500", [junk], "--count")).toEqual({
        code: 1,
        stdout: "1\n",
        stderr: damage(junk, member.length),
      });
      expect(await query("EdgeResponseStatus geq 500", [paddedJunk], "--count")).toEqual({
        code: 1,
        stdout: "1\n",
        stderr: damage(paddedJunk, member.length + 10),
      });
      expect(await query("EdgeResponseStatus geq 500", [paddedJunk])).toEqual({
        code: 1,
        stdout: '{"EdgeResponseStatus":503,"ClientRequestHost":"a"}\n',
        stderr: damage(paddedJunk, member.length + 10),
      });
      expect(
        await query("EdgeResponseStatus geq 0", [paddedJunk], "--group-by", "EdgeResponseStatus"),
      ).toEqual({
        code: 1,
        stdout: "1\t200\n1\t503\n",
        stderr: damage(paddedJunk, member.length + 10),
      });
      await sameAsEval(filters, padded);
      await sameAsEval(filters, [paddedJunk]);
      await sameAsEval(filters, [junk, padded[1]!]);
    },
    SLOW,
  );

  it(
    "answers eval's reading of lines that are not UTF-8 or hold half a surrogate pair, named or not",
    async () => {
      const lines = [
        '{"EdgeResponseStatus":503,"ClientRequestHost":"a\xffb"}',
        '{"EdgeResponseStatus":503,"ClientRequestUserAgent":"\xc3(","ClientRequestHost":"a"}',
        '{"EdgeResponseStatus":503,"ClientRequestHost":"\\ud800"}',
        '{"EdgeResponseStatus":200,"ClientRequestUserAgent":"\\udc00x","ClientRequestHost":"b"}',
        '{"EdgeResponseStatus":503,"ClientRequestHost":"\xed\xa0\x80"}',
        '{"EdgeResponseStatus":503,"ClientRequestHost":"c"}',
      ];
      const plain = await file("utf.ndjson", `${lines.join("\n")}\n`);
      const unnamed = await file(
        "utf-unnamed.ndjson.gz",
        gzipSync(bytes(`${lines[1]}\n${lines[3]}\n${lines[5]}\n`)),
      );
      expect(await query("EdgeResponseStatus eq 503", [plain], "--count")).toEqual({
        code: 0,
        stdout: "5\n",
        stderr: "",
      });
      // Bytes that are not UTF-8 are read as U+FFFD, and the lines printed as the file holds them.
      expect(
        await query(
          'ClientRequestHost startsWith "a" and ClientRequestHost endsWith "b"',
          [plain],
          "--count",
        ),
      ).toEqual({
        code: 0,
        stdout: "1\n",
        stderr: "",
      });
      expect(await query('ClientRequestHost !eq "a"', [plain])).toEqual({
        code: 0,
        stdout: [0, 2, 3, 4, 5].map((i) => `${lines[i]}\n`).join(""),
        stderr: "",
      });
      expect(await query("EdgeResponseStatus eq 503", [unnamed], "--group-by", "ClientRequestHost")).toEqual({
        code: 0,
        stdout: '1\t"a"\n1\t"c"\n',
        stderr: "",
      });
      await sameAsEval([...filters, 'ClientRequestUserAgent endsWith "x"'], [plain]);
      await sameAsEval(filters, [unnamed]);
    },
    SLOW,
  );

  it(
    "compares numbers of 16 and 17 significant digits in local files as eval, exactly",
    async () => {
      const lines = [
        '{"EdgeResponseCompressionRatio":0.12345678901234567}',
        '{"EdgeResponseCompressionRatio":9007199254740993.0}',
        '{"EdgeResponseCompressionRatio":0.12345678901234566}',
        '{"EdgeResponseCompressionRatio":9007199254740992}',
      ];
      const path = await file("digits.ndjson", `${lines.join("\n")}\n`);
      const cases: [string, number[]][] = [
        ["EdgeResponseCompressionRatio eq 0.12345678901234567", [0]],
        ["EdgeResponseCompressionRatio eq 0.12345678901234566", [2]],
        ["EdgeResponseCompressionRatio gt 0.12345678901234566 and EdgeResponseCompressionRatio lt 1", [0]],
        ["EdgeResponseCompressionRatio eq 9007199254740993.0", [1]],
        ["EdgeResponseCompressionRatio eq 9007199254740992", [3]],
        ["EdgeResponseCompressionRatio gt 9007199254740992", [1]],
      ];
      for (const [filter, kept] of cases) {
        expect([filter, await query(filter, [path], "--count")]).toEqual([
          filter,
          { code: 0, stdout: `${kept.length}\n`, stderr: "" },
        ]);
        expect([filter, await query(filter, [path])]).toEqual([
          filter,
          { code: 0, stdout: kept.map((i) => `${lines[i]}\n`).join(""), stderr: "" },
        ]);
      }
      await sameAsEval(
        cases.map(([filter]) => filter),
        [path],
      );
    },
    SLOW,
  );

  it("leaves the SQL of JSON text, which reads a number with a point as a double, to differ there", async () => {
    // What docs/sql.md says of "more than 15 significant digits": both engines' JSON parsers read
    // these as the nearest double (0.12345678901234566, 9007199254740992) before any comparison.
    const lines = [
      '{"EdgeResponseCompressionRatio":0.12345678901234567}',
      '{"EdgeResponseCompressionRatio":9007199254740993.0}',
      '{"EdgeResponseCompressionRatio":0.12345678901234566}',
      '{"EdgeResponseCompressionRatio":9007199254740992}',
      '{"EdgeResponseCompressionRatio":0.123456789012345}',
      '{"EdgeResponseCompressionRatio":"0.12345678901234567"}',
    ];
    const cases: [string, number[]][] = [
      ["EdgeResponseCompressionRatio eq 0.12345678901234567", [5]],
      ["EdgeResponseCompressionRatio eq 0.12345678901234566", [0, 2]],
      ["EdgeResponseCompressionRatio eq 9007199254740993.0", []],
      ["EdgeResponseCompressionRatio eq 9007199254740992", [1, 3]],
      ["EdgeResponseCompressionRatio eq 0.123456789012345", [4]],
    ];
    for (const engine of engines)
      await engine.expectKept(
        cases.map(([filter, kept]) => ({
          name: `${engine.name}: ${filter}`,
          wheres: [toSql(compile(filter).condition, { dialect: engine.dialect }).sql!],
          lines,
          expected: [kept],
        })),
      );
  });

  it("names the first timestamp values that are no time as eval does, where eval's reading told them", async () => {
    const bom = "\xef\xbb\xbf";
    const first = await file("times-a.ndjson", `${bom}{"EdgeStartTimestamp":1700000000}\n`);
    const second = await file(
      "times-b.ndjson",
      `${bom}{"EdgeStartTimestamp":1700000000}\n{"EdgeStartTimestamp":"nope"}\n`,
    );
    const plain = await file("times-c.ndjson", '{"EdgeStartTimestamp":"no time"}\n');
    const filter = "EdgeStartTimestamp geq 1600000000000000000";
    // Both files read by eval: the places, each with its file, as eval gives them.
    const both = await query(filter, [first, second], "--count");
    expect(both).toEqual({
      code: 0,
      stdout: "2\n",
      stderr:
        "filterc query: 1 value of a timestamp field cannot be read as a time, so it compares as a missing field " +
        '(line times-b.ndjson:2: EdgeStartTimestamp "nope")\n',
    });
    expect(both).toEqual(await evaluated(filter, [first, second], "--count"));
    // DuckDB reads the third, with no line numbers: no place is named as the first.
    expect(await query(filter, [second, plain], "--count")).toEqual({
      code: 0,
      stdout: "1\n",
      stderr:
        "filterc query: 2 values of timestamp fields cannot be read as a time, so they compare as missing fields " +
        '(one is EdgeStartTimestamp "nope")\n',
    });
  });
});
