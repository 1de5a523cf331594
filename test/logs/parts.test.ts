import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { planParts } from "../../src/logs/parts.js";
import { temporaryFolder } from "../helpers/folders.js";

const folder = temporaryFolder("filterc-parts-");

describe("planParts", () => {
  it("cuts 200,000 lines into a part each (the parts, spread as call arguments, overflowed the stack)", async () => {
    const path = join(folder(), "short.ndjson");
    await writeFile(path, "{}\n".repeat(200_000));
    const parts = await planParts([{ name: path, size: 600_000 }], 1);
    expect(parts).toHaveLength(200_000);
    expect(parts[1]).toEqual({ input: path, start: 3, end: 6, whole: false });
    expect(parts.at(-1)).toEqual({ input: path, start: 599_997, end: 600_000, whole: false });
  });

  it("cuts only at line starts: the ranges a long line spans become one part", async () => {
    const path = join(folder(), "long.ndjson");
    const long = `{"a":"${"x".repeat(300_000)}"}\n`;
    await writeFile(path, `{}\n${long}{}\n`);
    const size = 3 + long.length + 3;
    // Four ranges of about 75,000 bytes: the first three cuts fall in the long line and move past it.
    expect(await planParts([{ name: path, size }], 70_000)).toEqual([
      { input: path, start: 0, end: 3 + long.length, whole: false },
      { input: path, start: 3 + long.length, end: size, whole: false },
    ]);
  });
});
