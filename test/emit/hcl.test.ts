import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { toHclStringLiteral } from "../../src/emit/index.js";
import { compile } from "../../src/index.js";
import { runCli } from "../helpers/cli.js";

/**
 * Reads an HCL quoted string as Terraform does, by its documented escapes
 * (developer.hashicorp.com/terraform/language/expressions/strings): `\n \r \t \" \\ \uNNNN
 * \UNNNNNNNN`, `$${` for a literal `${` and `%%{` for `%{`. An unescaped `${` or `%{` starts a
 * template sequence, and any other backslash escape is invalid: both throw.
 */
function readHclString(literal: string): string {
  expect(literal.startsWith('"') && literal.endsWith('"')).toBe(true);
  const body = literal.slice(1, -1);
  let out = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === "\\") {
      const next = body[i + 1];
      const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };
      if (next !== undefined && next in simple) {
        out += simple[next];
        i++;
      } else if (next === "u" && /^[0-9a-fA-F]{4}$/.test(body.slice(i + 2, i + 6))) {
        out += String.fromCharCode(Number.parseInt(body.slice(i + 2, i + 6), 16));
        i += 5;
      } else if (next === "U" && /^[0-9a-fA-F]{8}$/.test(body.slice(i + 2, i + 10))) {
        out += String.fromCodePoint(Number.parseInt(body.slice(i + 2, i + 10), 16));
        i += 9;
      } else throw new Error(`invalid escape \\${next} at ${i}`);
    } else if ((c === "$" || c === "%") && body[i + 1] === c && body[i + 2] === "{") {
      out += `${c}{`;
      i += 2;
    } else if ((c === "$" || c === "%") && body[i + 1] === "{") {
      throw new Error(`template sequence ${c}{ at ${i}`);
    } else if (c === '"') {
      throw new Error(`unescaped quote at ${i}`);
    } else out += c;
  }
  return out;
}

describe("--hcl", () => {
  it("escapes ${ as $${ (the replacement string $${ meant one $)", async () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the filter holds a Terraform template on purpose
    const run = await runCli(["compile", "--hcl"], 'ClientRequestPath eq "${var.x}"');
    expect(run).toEqual({
      code: 0,
      stdout:
        '"{\\"where\\":{\\"key\\":\\"ClientRequestPath\\",\\"operator\\":\\"eq\\",\\"value\\":\\"$${var.x}\\"}}"\n',
      stderr: "",
    });
  });

  it("escapes %{ as %%{, and leaves $$ and a lone $ or % alone", () => {
    const filter = compile('ClientRequestPath in ["%{if x}", "$${", "$", "%", "$$"]').filter!;
    const literal = toHclStringLiteral(filter);
    expect(literal).toContain("%%{if x}");
    expect(literal).toContain("$$${");
    expect(readHclString(literal)).toBe(filter);
  });

  it("reads back as the filter for any text in the values", () => {
    const text = fc.string({
      unit: fc.constantFrom("$", "%", "{", "}", "\\", '"', "a", "\n", "\t", "é", "😀", "\u0001"),
    });
    fc.assert(
      fc.property(text, (value) => {
        const filter = compile(`ClientRequestPath eq ${JSON.stringify(value)}`).filter!;
        expect(readHclString(toHclStringLiteral(filter))).toBe(filter);
      }),
      { numRuns: 1000 },
    );
  });
});
