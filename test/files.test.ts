import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTextUpTo, readUpTo } from "../src/files/index.js";
import { temporaryFolder } from "./helpers/folders.js";

const folder = temporaryFolder("filterc-files-");

describe("reading a file to a bound", () => {
  it("gives a file at or under the bound whole, and nothing of a longer one", async () => {
    const file = join(folder(), "ten.txt");
    await writeFile(file, "0123456789");
    expect((await readUpTo(file, 10))?.toString()).toBe("0123456789");
    expect((await readUpTo(file, 1_000_000_000))?.toString()).toBe("0123456789");
    expect(await readUpTo(file, 9)).toBeUndefined();
    expect(await readUpTo(join(folder(), "empty.txt"), 5).catch((error) => error.code)).toBe("ENOENT");
  });

  it("stops a device that never ends at the bound (the language server's test lenses and `filterc test` read so)", async () => {
    expect(await readUpTo("/dev/zero", 200_000)).toBeUndefined();
    await expect(readTextUpTo("/dev/zero", 1000)).rejects.toThrow("larger than 1000 bytes; not read");
  });
});
