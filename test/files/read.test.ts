import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fileChunks, readTextUpTo, readUpTo, regularFileChunks } from "../../src/files/index.js";
import { makeFifo, writeTo } from "../helpers/fifo.js";
import { temporaryFolder } from "../helpers/folders.js";

const folder = temporaryFolder("filterc-files-");

describe("reading a file to a bound", () => {
  it("gives a file at or under the bound whole, and nothing of a longer one", async () => {
    const file = join(folder(), "ten.txt");
    await writeFile(file, "0123456789");
    expect((await readUpTo(file, 10, "regular"))?.toString()).toBe("0123456789");
    expect((await readUpTo(file, 1_000_000_000, "regular"))?.toString()).toBe("0123456789");
    expect(await readUpTo(file, 9, "regular")).toBeUndefined();
    expect(await readUpTo(join(folder(), "empty.txt"), 5, "regular").catch((error) => error.code)).toBe(
      "ENOENT",
    );
  });

  it("reads a file whose size says nothing to its end, though its reads come short before it", async () => {
    // /proc's files are regular files of size 0, given a page or so a read: /proc/kallsyms holds
    // megabytes, and its text does not change while it is read.
    const file = "/proc/kallsyms";
    const whole = readFileSync(file);
    expect(whole.length).toBeGreaterThan(100_000);
    expect((await readUpTo(file, 64 * 1024 * 1024, "regular"))?.equals(whole)).toBe(true);
  });

  it("stops a device that never ends at the bound (the language server's test lenses and `filterc test` read so)", async () => {
    expect(await readUpTo("/dev/zero", 200_000, "stream")).toBeUndefined();
    await expect(readTextUpTo("/dev/zero", 1000, "stream")).rejects.toThrow(
      "larger than 1000 bytes; not read",
    );
  });
});

describe("reading only regular files where a stream would wait", () => {
  it("refuses a fifo with no writer, a device and a directory where a regular file is required, at once", async () => {
    const fifo = makeFifo(join(folder(), "waits.test.json"));
    // Opened the usual way, a fifo without a writer waits for one: this read never ended.
    await expect(readTextUpTo(fifo, 1000, "regular")).rejects.toThrow(
      "a fifo (named pipe), not a regular file",
    );
    await expect(readTextUpTo("/dev/zero", 1000, "regular")).rejects.toThrow(
      "a character device, not a regular file",
    );
    await expect(readTextUpTo(folder(), 1000, "regular")).rejects.toThrow("is a directory");
    await expect(readTextUpTo(folder(), 1000, "stream")).rejects.toThrow("is a directory");
    const chunks = regularFileChunks(fifo);
    await expect(chunks.next()).rejects.toThrow("a fifo (named pipe), not a regular file");
  });

  it("reads a fifo where a stream is accepted, in order, as its writer writes it", async () => {
    const fifo = makeFifo(join(folder(), "stream.ndjson"));
    const written = writeTo(fifo, "one\ntwo\n");
    expect((await readUpTo(fifo, 1000, "stream"))?.toString()).toBe("one\ntwo\n");
    await written;
  });

  it("reads a regular file's chunks at their offsets, and a fifo's in order (it has none)", async () => {
    const file = join(folder(), "plain.ndjson");
    await writeFile(file, "0123456789");
    const read = async (chunks: AsyncIterable<Buffer>) => {
      let text = "";
      for await (const chunk of chunks) text += chunk.toString();
      return text;
    };
    expect(await read(fileChunks(file, "regular", 3, 7))).toBe("3456");
    const fifo = makeFifo(join(folder(), "piped.ndjson"));
    const written = writeTo(fifo, "0123456789");
    // Read at an offset, a pipe fails with ESPIPE (`eval <(cat x)` once did).
    expect(await read(fileChunks(fifo, "stream"))).toBe("0123456789");
    await written;
  });
});
