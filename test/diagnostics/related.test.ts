import { describe, expect, it } from "vitest";
import { TextDocument } from "vscode-languageserver-textdocument";
import { compile } from "../../src/compile.js";
import { decompile } from "../../src/decompile/index.js";
import { renderDiagnostics } from "../../src/diagnostics/index.js";
import { toLspDiagnostic } from "../../src/lsp/convert.js";

/** Each diagnostic as its code, the text it points at, and the text and note of each related place. */
function places(source: string, diagnostics = compile(source).diagnostics) {
  const text = (range: { start: { offset: number }; end: { offset: number } }) =>
    source.slice(range.start.offset, range.end.offset);
  return diagnostics.map((d) => ({
    code: d.code,
    at: text(d.range),
    ...(d.pointer === undefined ? {} : { pointer: d.pointer }),
    related: (d.related ?? []).map((r) => [text(r.range), r.message, ...(r.pointer ? [r.pointer] : [])]),
  }));
}

describe("never/always-true warnings point at each comparison involved", () => {
  it("names only the comparisons that conflict, the first as the place, the others as related", () => {
    expect(places("EdgeResponseStatus eq 1 and EdgeResponseStatus gt 0 and EdgeResponseStatus eq 2")).toEqual(
      [
        {
          code: "W0103",
          at: "EdgeResponseStatus eq 1",
          related: [
            [
              "EdgeResponseStatus eq 2",
              "another comparison of `EdgeResponseStatus` that cannot hold with it",
            ],
          ],
        },
      ],
    );
  });

  it("does the same for an or that always holds, through not", () => {
    expect(places("not (BotScore lt 5 and BotScore geq 5)")).toEqual([
      {
        code: "W0104",
        at: "BotScore lt 5",
        related: [["BotScore geq 5", "another comparison of `BotScore` that together with it always holds"]],
      },
    ]);
  });

  it("prints the related comparisons as notes under the warning", () => {
    const source = "BotScore lt 10 and\n  BotScore gt 20";
    expect(renderDiagnostics(compile(source).diagnostics, source)).toBe(
      [
        "warning[W0103]: these comparisons of `BotScore` can never all hold, so this part of the filter is always false",
        " --> <input>:1:1",
        "  |",
        "1 | BotScore lt 10 and",
        "  | ^^^^^^^^^^^^^^",
        "  = note: another comparison of `BotScore` that cannot hold with it",
        " --> <input>:2:3",
        "  |",
        "2 |   BotScore gt 20",
        "  |   --------------",
        "",
      ].join("\n"),
    );
  });

  it("gives every decompiled warning and each related place its JSON pointer", () => {
    const json =
      '{"where":{"and":[{"key":"ClientRequestHost","operator":"eq","value":"1"},{"key":"ClientRequestHost","operator":"eq","value":"2"}]}}';
    expect(places(json, decompile(json).diagnostics)).toEqual([
      {
        code: "W0103",
        at: '{"key":"ClientRequestHost","operator":"eq","value":"1"}',
        pointer: "/where/and/0",
        related: [
          [
            '{"key":"ClientRequestHost","operator":"eq","value":"2"}',
            "another comparison of `ClientRequestHost` that cannot hold with it",
            "/where/and/1",
          ],
        ],
      },
    ]);
    expect(decompile(json).diagnostics[0]!.message).toBe(
      "/where/and/0: these comparisons of `ClientRequestHost` can never all hold, so this part of the filter is always false",
    );
  });

  it("sends the related comparisons to editors as LSP related information", () => {
    const source = "BotScore lt 10 and\n  BotScore gt 20";
    const document = TextDocument.create("file:///f.lpf", "logpush-filter", 1, source);
    expect(toLspDiagnostic(document, compile(source).diagnostics[0]!).relatedInformation).toEqual([
      {
        location: {
          uri: "file:///f.lpf",
          range: { start: { line: 1, character: 2 }, end: { line: 1, character: 16 } },
        },
        message: "another comparison of `BotScore` that cannot hold with it",
      },
    ]);
  });
});
