import { describe, expect, it } from "vitest";
import { parseRecordTemplate } from "../../src/api/record-template.js";

/** The template's text with each field written as <Field>, and its problems. */
function read(template: string): { text: string; problems: string[] } {
  const { parts, problems } = parseRecordTemplate(template);
  return {
    text: parts.map((part) => ("text" in part ? part.text : `<${part.field}>`)).join(""),
    problems: problems.map((problem) => problem.message),
  };
}

describe("record templates read as Go's text/template reads them", () => {
  it.each([
    // The escapes of a Go string that JSON lacks (JSON.parse threw on each, and the sandbox with it).
    ['{{ "\\x41" }}', "A"],
    ['{{ "\\a" }}', "\x07"],
    ['{{ "a\tb" }}', "a\tb"],
    ['{{ "\\v\\101\\x42\\u00e9\\U0001F600" }}', "\vABé😀"],
    ['{{ "\\a\\b\\f\\n\\r\\t\\v\\\\\\"" }}', '\x07\b\f\n\r\t\v\\"'],
    ['{{ "\\303\\251\\xc3\\xa9" }}', "éé"],
    // A constant may hold the delimiters; a raw string drops carriage returns, as strconv.Unquote does.
    ['{{ "}}" }}x', "}}x"],
    ["{{ `a\r\n}}b` }}", "a\n}}b"],
    ["{{.RayID}},{{ .EdgeResponseStatus }}", "<RayID>,<EdgeResponseStatus>"],
    // Trim markers take spaces, tabs, CR and LF only (not \v, not a no-break space).
    ['a \t\r\n {{- "x" -}} \n b', "axb"],
    ['a\v\u00a0 {{- "x" }}', "a\v\u00a0x"],
    ["{{/* a }} comment */}}x", "x"],
    ["a  {{- /* trimmed */ -}}  b", "ab"],
    ["no actions }} at all", "no actions }} at all"],
  ])("reads %j as %j", (template, text) => {
    expect(read(template)).toEqual({ text, problems: [] });
  });

  it.each([
    [
      '{{ "\\q" }}',
      '"{{ \\"\\\\q\\" }}" at offset 0 holds a string Go cannot write: \\q is not an escape of a Go string',
    ],
    [
      '{{ "\\\'" }}',
      `"{{ \\"\\\\'\\" }}" at offset 0 holds a string Go cannot write: \\' is not an escape of a Go string`,
    ],
    [
      '{{ "\\x4" }}',
      '"{{ \\"\\\\x4\\" }}" at offset 0 holds a string Go cannot write: \\x takes 2 hex digits',
    ],
    [
      '{{ "\\u12" }}',
      '"{{ \\"\\\\u12\\" }}" at offset 0 holds a string Go cannot write: \\u takes 4 hex digits',
    ],
    [
      '{{ "\\400" }}',
      '"{{ \\"\\\\400\\" }}" at offset 0 holds a string Go cannot write: \\400 is more than a byte',
    ],
    [
      '{{ "\\19" }}',
      '"{{ \\"\\\\19\\" }}" at offset 0 holds a string Go cannot write: an octal escape takes 3 digits, as in \\101',
    ],
    [
      '{{ "\\ud800" }}',
      '"{{ \\"\\\\ud800\\" }}" at offset 0 holds a string Go cannot write: \\ud800 is not a Unicode character',
    ],
    [
      '{{ "\\U00110000" }}',
      '"{{ \\"\\\\U00110000\\" }}" at offset 0 holds a string Go cannot write: \\U00110000 is not a Unicode character',
    ],
    [
      '{{ "\\xff" }}',
      '"{{ \\"\\\\xff\\" }}" at offset 0 holds a string Go cannot write: its bytes \\xff are not UTF-8 text',
    ],
    [
      '{{ "\\xc3é" }}',
      '"{{ \\"\\\\xc3é\\" }}" at offset 0 holds a string Go cannot write: its bytes \\xc3 are not UTF-8 text',
    ],
    [
      "{{ /* a comment away from the delimiter */ }}",
      '"{{ /* a comment away from the delimiter */ }}" at offset 0 is neither a field nor a constant',
    ],
    ["{{ .A .B }}", '"{{ .A .B }}" at offset 0 is neither a field nor a constant'],
    ["{{}}", '"{{}}" at offset 0 is neither a field nor a constant'],
    ['{{-"x"}}', '"{{-\\"x\\"}}" at offset 0 is neither a field nor a constant'],
  ])("refuses %j", (template, problem) => {
    expect(read(template).problems).toEqual([problem]);
  });

  it("stops at a problem that leaves the end of its action unknown, and reads on after one that does not", () => {
    expect(read('{{ .A }}{{ "\\q" }}{{ .B }}{{ "open\n" }}{{ .C }}')).toEqual({
      text: "<A><B>",
      problems: [
        '"{{ \\"\\\\q\\" }}" at offset 8 holds a string Go cannot write: \\q is not an escape of a Go string',
        "the string at offset 29 is not closed on its line",
      ],
    });
    expect(read("{{ `open }}").problems).toEqual(["the raw string at offset 3 is not closed with `"]);
    expect(read("{{/* open }}").problems).toEqual(["the comment opened at offset 0 is not closed with */"]);
    expect(read("{{/* c */ }}").problems).toEqual([
      "the comment opened at offset 0 does not end at }}: write {{/* … */}}",
    ]);
    expect(read("x {{ .A").problems).toEqual(["the action opened at offset 2 is not closed with }}"]);
  });
});
