import { describe, expect, it } from "vitest";
import { editBytes, type TextEdit } from "../../src/files/index.js";

/** The edit that replaces the first `find` of the bytes' text. */
function editOf(bytes: Buffer, find: string, replacement: string): TextEdit {
  const start = bytes.toString("utf8").indexOf(find);
  return { start, end: start + find.length, replacement };
}

const edited = (bytes: Buffer, edits: TextEdit[]) => editBytes(bytes, bytes.toString("utf8"), edits);

describe("editBytes: fixes applied to a file's bytes", () => {
  it("keeps every byte outside the edits, Latin-1 and other invalid UTF-8 included", () => {
    const bytes = Buffer.concat([
      Buffer.from('name = "caf'),
      Buffer.from([0xe9]), // é in Latin-1
      Buffer.from('"\nfilter = "neq" # \u{1F600} '),
      Buffer.from([0xed, 0xa0, 0x80]), // a lone surrogate, encoded
      Buffer.from([0xf0, 0x9f, 0x98]), // a four-byte sequence cut short
      Buffer.from(' x = "neq"\n'),
    ]);
    const text = bytes.toString("utf8");
    expect(text).toContain("caf\uFFFD");
    const first = editOf(bytes, "neq", "!eq");
    const last = { start: text.lastIndexOf("neq"), end: text.lastIndexOf("neq") + 3, replacement: "ünë" };
    const result = edited(bytes, [first, last])!;
    const expected = Buffer.concat([
      Buffer.from('name = "caf'),
      Buffer.from([0xe9]),
      Buffer.from('"\nfilter = "!eq" # \u{1F600} '),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from([0xf0, 0x9f, 0x98]),
      Buffer.from(' x = "ünë"\n'),
    ]);
    expect(result.equals(expected)).toBe(true);
  });

  it("places an edit after characters of every width (two UTF-16 units for one past U+FFFF)", () => {
    const bytes = Buffer.from("é€\u{1F600}a=b");
    const result = edited(bytes, [editOf(bytes, "b", "cd")])!;
    expect(result.toString("utf8")).toBe("é€\u{1F600}a=cd");
  });

  it("refuses an edit inside a character, a text the bytes do not read as, and bytes that would read otherwise", () => {
    const emoji = Buffer.from("a\u{1F600}b");
    // Between the two halves of the surrogate pair.
    expect(edited(emoji, [{ start: 2, end: 2, replacement: "x" }])).toBeUndefined();
    expect(editBytes(emoji, "a?b", [{ start: 0, end: 1, replacement: "x" }])).toBeUndefined();
    // Removing the x between a cut-short lead byte and the bytes that would complete it makes "€".
    const cut = Buffer.concat([Buffer.from([0xe2]), Buffer.from("x"), Buffer.from([0x82, 0xac])]);
    expect(cut.toString("utf8")).toBe("\uFFFDx\uFFFD\uFFFD");
    expect(edited(cut, [editOf(cut, "x", "")])).toBeUndefined();
    expect(edited(cut, [editOf(cut, "x", "y")])!.equals(Buffer.from([0xe2, 0x79, 0x82, 0xac]))).toBe(true);
  });

  it("edits at the very start and end, and with no edit gives the bytes back", () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("ab"), Buffer.from([0xff])]);
    const text = bytes.toString("utf8");
    const result = edited(bytes, [
      { start: 0, end: 1, replacement: "" },
      { start: text.length, end: text.length, replacement: "\n" },
    ])!;
    expect(result.equals(Buffer.from([0x61, 0x62, 0xff, 0x0a]))).toBe(true);
    expect(edited(bytes, [])!.equals(bytes)).toBe(true);
  });
});
