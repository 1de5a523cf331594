import { describe, expect, it } from "vitest";
import { parseHcl } from "../../src/terraform/hcl-parser.js";
import { SourceFile } from "../../src/terraform/source-file.js";
import { evaluate, type Scope } from "../../src/terraform/values.js";

const file = (text: string) => new SourceFile("main.tf", "/main.tf", text);

/** The problems of a file, as `CODE L:C: message`. */
async function problems(text: string, maxDepth?: number): Promise<string[]> {
  const parsed = await parseHcl(file(text), maxDepth);
  return parsed.diagnostics.map(
    (d) => `${d.code} ${d.range.start.line}:${d.range.start.column}: ${d.message}`,
  );
}

const noScope: Scope = {
  variable: () => undefined,
  local: () => undefined,
  readFile: async () => "not here",
};

/** The value of `a = …` in the file, and for each character the text it is written as. */
async function attributeValue(text: string) {
  const source = file(text);
  const parsed = await parseHcl(source);
  expect(parsed.diagnostics).toEqual([]);
  const attribute = parsed.body.items[0]!;
  if (attribute.kind !== "attribute") throw new Error("not an attribute");
  const value = await evaluate(attribute.value, source, noScope);
  if (value.kind !== "string") return value;
  const written = [...value.value.text].map((_, i) => {
    const site = value.value.siteOf(i, i + 1);
    return text.slice(site.start, site.end);
  });
  return { text: value.value.text, written };
}

describe("the HCL reader", () => {
  it("reads a quoted string through its escapes, each character mapped to its escape", async () => {
    expect(await attributeValue('a = "x\\"\\u00e9$${\\n"\n')).toEqual({
      text: 'x"é${\n',
      written: ["x", '\\"', "\\u00e9", "$$", "{", "\\n"],
    });
  });

  it("reads an indented heredoc without its indentation, each character at its place", async () => {
    const text = 'a = <<-EOT\n    {"k":\n      1}\n  EOT\n';
    const value = await attributeValue(text);
    expect(value).toMatchObject({ text: '{"k":\n  1}\n' });
    const source = file(text);
    const parsed = await parseHcl(source);
    const attribute = parsed.body.items[0]!;
    if (attribute.kind !== "attribute") throw new Error("not an attribute");
    const evaluated = await evaluate(attribute.value, source, noScope);
    if (evaluated.kind !== "string") throw new Error("not a string");
    // The `1` on the heredoc's third line: line 3, column 7 of the file.
    const one = evaluated.value.text.indexOf("1");
    expect(source.rangeOf(evaluated.value.siteOf(one, one + 1).start, 0).start).toMatchObject({
      line: 3,
      column: 7,
    });
  });

  it("encodes an object as jsonencode does: compact, keys in order, < > & escaped", async () => {
    expect(await attributeValue('a = jsonencode({ z = 1, b = [true, null, "<&>"] })\n')).toMatchObject({
      text: '{"b":[true,null,"\\u003c\\u0026\\u003e"],"z":1}',
    });
  });

  it("names what cannot be read: a reference, a function, a conditional", async () => {
    expect(
      await attributeValue("a = jsonencode({ where = { value = aws_s3_bucket.logs.id } })\n"),
    ).toMatchObject({
      kind: "unread",
      what: "aws_s3_bucket.logs.id",
      reason: "Terraform knows its value only when it plans or applies",
    });
    expect(await attributeValue('a = jsonencode({ v = lower("X") })\n')).toMatchObject({
      kind: "unread",
      what: "lower(…)",
    });
    expect(await attributeValue("a = jsonencode({ v = var.on ? 1 : 2 })\n")).toMatchObject({
      kind: "unread",
      what: "a conditional expression",
    });
  });

  it("reports syntax errors at their place, with HCL's own rules", async () => {
    expect(await problems('a = "x\n')).toEqual([
      'E0900 1:5: invalid HCL: unterminated string: it has no closing `"` on its line',
    ]);
    expect(await problems('a = "\\q"\n')).toEqual([
      'E0900 1:6: invalid HCL: invalid escape `\\q` in a string; HCL takes \\n \\r \\t \\" \\\\ \\uNNNN \\UNNNNNNNN, and $${ or %%{ for a literal ${ or %{',
    ]);
    expect(await problems("a = 1 b = 2\n")).toEqual([
      "E0900 1:7: invalid HCL: each argument and block goes on its own line: put a newline before this one",
    ]);
    expect(await problems('resource "a" "b" {\n  x = 1\n')).toEqual([
      "E0900 1:18: invalid HCL: the `{` at 1:18 is never closed",
    ]);
  });

  it("bounds nesting: a file deeper than the limit is one error where it crosses it", async () => {
    const deep = `a = ${"[".repeat(5000)}${"]".repeat(5000)}\n`;
    expect(await problems(deep)).toEqual([
      "E0902 1:105: the file nests values deeper than 100 levels; it is not checked",
    ]);
    expect(await problems("a = [[[1]]]\n", 3)).toEqual([
      "E0902 1:8: the file nests values deeper than 3 levels; it is not checked",
    ]);
  });
});

describe("every expression form", () => {
  // Each form, and what the reader makes of it where it feeds a filter: a value, or what is not read.
  const forms: [string, unknown][] = [
    ["x[0]", { kind: "unread", what: "x[0]" }],
    ['each.value["filter"]', { kind: "unread", what: 'each.value["filter"]' }],
    ['data.a.b.account["Workers R2 Storage Write"]', { kind: "unread" }],
    ["x.0.b", { kind: "unread", what: "x.0.b" }],
    ["x[*].id", { kind: "unread", what: "a splat expression" }],
    ["x.*.id[0]", { kind: "unread", what: "a splat expression" }],
    ['[for k, v in m : v if k != ""]', { kind: "unread", what: "a for expression" }],
    ["{for k, v in m : k => v... if v}", { kind: "unread", what: "a for expression" }],
    ["!x || -y * (2 + z) >= 3", { kind: "unread", what: "an operation" }],
    ["f(x, [1]...)", { kind: "unread", what: "f(…)" }],
    ['"a%{ if x }b%{ else }c%{ endif }"', { kind: "unread", what: "a template directive (%{…})" }],
    ['("paren")', { text: "paren" }],
    ['("a")[0]', { kind: "unread" }],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: an HCL interpolation, not a JavaScript one
    ['"${"x"}y"', { text: "xy" }],
  ];
  for (const [form, expected] of forms)
    it(`reads ${form}`, async () => {
      expect(await attributeValue(`a = ${form}\n`)).toMatchObject(expected as object);
    });

  it("reads a file of index expressions in locals without an error", async () => {
    expect(await problems("locals { a = x[0] }\n")).toEqual([]);
  });
});
