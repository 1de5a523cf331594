import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { crc32, gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { builtCli } from "../helpers/bundles.js";
import { runCli } from "../helpers/cli.js";
import { seededHex } from "../helpers/random-text.js";

const out = fileURLToPath(new URL("../out/eval-gzip/", import.meta.url));
const lines = Array.from({ length: 2000 }, (_, i) => `{"ClientCountry":"${i % 2 ? "us" : "fr"}","n":${i}}`);
const text = `${lines.join("\n")}\n`;
const member = gzipSync(text);
const us = lines.filter((_, i) => i % 2).join("\n");
const expr = ["--expr", 'ClientCountry eq "us"'];

function file(name: string, bytes: Buffer): string {
  const path = join(out, name);
  writeFileSync(path, bytes);
  return path;
}

beforeAll(() => mkdirSync(out, { recursive: true }));

describe("filterc eval on damaged gzip", () => {
  it("keeps every line before bytes after the last member, names their offset and exits 1 (regression: the whole file failed)", async () => {
    const path = file("junk.gz", Buffer.concat([member, Buffer.from("junk\n")]));
    expect(await runCli(["eval", ...expr, path])).toEqual({
      code: 1,
      stdout: `${us}\n`,
      stderr:
        `filterc eval: ${path}: damaged: bytes after the last gzip member at byte ${member.length}; the lines before it were read\n` +
        "read 2000 lines, matched 1000, malformed 0; 1 damaged input, read up to the damage\n",
    });
  });

  it("reads a file cut inside a member up to the cut, counts the cut line as malformed, and goes on to the next input", async () => {
    const cutAt = Math.floor(member.length / 2);
    const path = file("cut.gz", member.subarray(0, cutAt));
    const next = file("next.gz", gzipSync('{"ClientCountry":"us","n":"next"}\n'));
    const run = await runCli(["eval", ...expr, "--count", path, next]);
    const read = Number(/read (\d+) lines/.exec(run.stderr)?.[1]);
    // The lines of the cut file (the last one cut), then the next file's line.
    const cutLine = read - 1;
    const matched = Math.floor((cutLine - 1) / 2) + 1;
    expect(cutLine).toBeGreaterThan(100);
    expect(run).toEqual({
      code: 1,
      stdout: `${matched}\n`,
      stderr:
        `filterc eval: ${path}: damaged: unexpected end of file inside a gzip member at byte ${cutAt}; the lines before it were read; line ${cutLine}, cut there, is counted as malformed\n` +
        `read ${read} lines, matched ${matched}, malformed 1 (first at line ${path}:${cutLine}); 1 damaged input, read up to the damage\n`,
    });
  });

  it("reports a cut trailer, a CRC that does not match, and a header cut short, each with its offset", async () => {
    const cutTrailer = file("trailer.gz", member.subarray(0, member.length - 3));
    const run = await runCli(["eval", ...expr, "--count", cutTrailer]);
    expect(run.stderr).toBe(
      `filterc eval: ${cutTrailer}: damaged: unexpected end of file in a gzip trailer at byte ${member.length - 3}; the lines before it were read\n` +
        "read 2000 lines, matched 1000, malformed 0; 1 damaged input, read up to the damage\n",
    );
    expect(run.code).toBe(1);
    const badCrc = Buffer.from(member);
    badCrc.writeUInt8(badCrc.readUInt8(member.length - 8) ^ 1, member.length - 8);
    const crc = file("crc.gz", badCrc);
    expect((await runCli(["eval", ...expr, "--count", crc])).stderr).toBe(
      `filterc eval: ${crc}: damaged: gzip CRC mismatch at byte ${member.length - 8}; the lines before it were read\n` +
        "read 2000 lines, matched 1000, malformed 0; 1 damaged input, read up to the damage\n",
    );
    const header = file("header.gz", Buffer.concat([member, member.subarray(0, 6)]));
    expect((await runCli(["eval", ...expr, "--count", header])).stderr).toBe(
      `filterc eval: ${header}: damaged: unexpected end of file in a gzip header at byte ${member.length + 6}; the lines before it were read\n` +
        "read 2000 lines, matched 1000, malformed 0; 1 damaged input, read up to the damage\n",
    );
  });

  it("reads several members, and zero bytes after the last one as padding", async () => {
    const two = file(
      "two.gz",
      Buffer.concat([member, gzipSync('{"ClientCountry":"us"}\n'), Buffer.alloc(512)]),
    );
    expect(await runCli(["eval", ...expr, "--count", two])).toEqual({
      code: 0,
      stdout: "1001\n",
      stderr: "read 2001 lines, matched 1001, malformed 0\n",
    });
  });

  it("reads a member with the optional header fields (name, comment, extra, header CRC)", async () => {
    const body = member.subarray(10);
    const header = Buffer.from([0x1f, 0x8b, 8, 2 | 4 | 8 | 16, 0, 0, 0, 0, 0, 3]);
    const extra = Buffer.from([3, 0, 1, 2, 3]);
    const fields = Buffer.concat([header, extra, Buffer.from("logs.ndjson\0a comment\0")]);
    const headerCrc = Buffer.alloc(2);
    headerCrc.writeUInt16LE(crc32(fields) & 0xffff);
    const good = file("fields.gz", Buffer.concat([fields, headerCrc, body]));
    expect(await runCli(["eval", ...expr, "--count", good])).toEqual({
      code: 0,
      stdout: "1000\n",
      stderr: "read 2000 lines, matched 1000, malformed 0\n",
    });
    headerCrc.writeUInt16LE(headerCrc.readUInt16LE(0) ^ 1);
    const bad = file("header-crc.gz", Buffer.concat([fields, headerCrc, body]));
    expect((await runCli(["eval", ...expr, "--count", bad])).stderr).toBe(
      `filterc eval: ${bad}: damaged: gzip header CRC mismatch at byte ${fields.length}; the lines before it were read\n` +
        "read 0 lines, matched 0, malformed 0; 1 damaged input, read up to the damage\n",
    );
  });
});

describe("filterc eval on a gzip member of many pieces (inflated while the lines before are read)", () => {
  // Lines that compress poorly (a random hex tail), so the member spans several of the inflater's
  // 256 KiB pieces: 40,000 lines, about 0.9 MB compressed.
  const hex = seededHex(7);
  const big = Array.from(
    { length: 40_000 },
    (_, i) => `{"ClientCountry":"${i % 3 ? "us" : "fr"}","n":${i},"r":"${hex()}${hex()}${hex()}${hex()}"}`,
  );
  const bigText = `${big.join("\n")}\n`;
  const bigMember = gzipSync(bigText);
  const bigUs = big.filter((_, i) => i % 3);

  it("writes exactly the lines the plain file gives", async () => {
    expect(bigMember.length).toBeGreaterThan(3 * 256 * 1024);
    const gz = file("big.gz", bigMember);
    const plain = file("big.ndjson", Buffer.from(bigText));
    const fromGzip = await runCli(["eval", ...expr, gz]);
    expect(fromGzip).toEqual(await runCli(["eval", ...expr, plain]));
    expect(fromGzip).toEqual({
      code: 0,
      stdout: `${bigUs.join("\n")}\n`,
      stderr: `read 40000 lines, matched ${bigUs.length}, malformed 0\n`,
    });
  });

  it("stops with --strict at a malformed line near the start, a piece still in flight", async () => {
    const broken = [...big];
    broken[9] = "{not json";
    const gz = file("big-strict.gz", gzipSync(`${broken.join("\n")}\n`));
    expect(await runCli(["eval", ...expr, "--strict", "--count", gz])).toEqual({
      code: 1,
      stdout: "6\n",
      stderr: `read 10 lines, matched 6, malformed 1 (first at line 10)\nfilterc eval: stopped at malformed line 10 of ${gz} (--strict)\n`,
    });
  });

  it("reads every line before damage deep in the member, and names where the damage is", async () => {
    const damaged = Buffer.from(bigMember);
    const at = 3 * 256 * 1024 + 1000;
    damaged.fill(0xff, at, at + 64);
    const gz = file("big-damaged.gz", damaged);
    const run = await runCli(["eval", ...expr, gz]);
    expect(run.code).toBe(1);
    // Where the inflater stood when it found the data wrong: in the piece that holds the damage.
    const where = /damaged: (.+) at byte (\d+); the lines before it were read/.exec(run.stderr);
    expect(Number(where?.[2])).toBeGreaterThan(at - 256 * 1024);
    expect(Number(where?.[2])).toBeLessThanOrEqual(at + 64);
    // The lines written are the first of the matching ones, in order: many pieces' worth.
    const written = run.stdout.split("\n").filter(Boolean);
    expect(written.length).toBeGreaterThan(10_000);
    expect(written.slice(0, -1)).toEqual(bigUs.slice(0, written.length - 1));
  });
});

describe("the built filterc when a command waits for what never comes", () => {
  it("says so and exits 70 instead of ending with status 0 and nothing written", async () => {
    const hook = fileURLToPath(new URL("../fixtures/hooks/inflater-never-calls-back.cjs", import.meta.url));
    const path = file("waits.gz", member);
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ["--require", hook, builtCli(), "eval", ...expr, path],
        (_, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
      );
    });
    expect(run).toEqual({
      code: 70,
      stdout: "",
      stderr:
        "filterc: internal error: the command ended before it finished (it waited for something that never came)\nPlease report this with the input that caused it.\n",
    });
  });
});
