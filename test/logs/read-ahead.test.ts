import { open, stat } from "node:fs/promises";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { fileChunksOf } from "../../src/logs/input.js";

vi.mock("node:fs/promises", async (original) => {
  const actual = await original<typeof import("node:fs/promises")>();
  return { ...actual, open: vi.fn(actual.open), stat: vi.fn(actual.stat) };
});

describe("reading a file ahead", () => {
  it("reports a read that fails, as a LogReadError, while the chunk before it is worked on, and closes the file", async () => {
    // A plain function, not a mock: a mock watches the promises it returns, which handles them.
    let reads = 0;
    const handle = {
      read: (buffer: Buffer) => {
        reads++;
        return reads === 1
          ? Promise.resolve({ bytesRead: buffer.write("{}\n") })
          : Promise.reject(Object.assign(new Error("EIO: i/o error, read"), { code: "EIO" }));
      },
      close: vi.fn(async () => undefined),
      stat: async () => file,
    };
    const file = { isDirectory: () => false, isFile: () => true, size: 1 << 21 };
    vi.mocked(stat).mockResolvedValueOnce(file as never);
    vi.mocked(open).mockResolvedValueOnce(handle as never);
    const unhandled = vi.fn();
    process.on("unhandledRejection", unhandled);
    onTestFinished(() => void process.off("unhandledRejection", unhandled));
    const chunks = fileChunksOf("logs.ndjson");
    const first = await chunks.next();
    expect(first.value?.toString()).toBe("{}\n");
    // The read of the next chunk fails while this one is worked on: nobody awaits it yet, and the
    // process must not take it for an unhandled rejection (which ends a Node process).
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).not.toHaveBeenCalled();
    await expect(chunks.next()).rejects.toMatchObject({
      name: "LogReadError",
      path: "logs.ndjson",
      reason: "EIO",
    });
    expect(reads).toBe(2);
    expect(handle.close).toHaveBeenCalledTimes(1);
  });
});
