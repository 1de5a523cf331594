import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createCatalog } from "../../src/catalog/index.js";
import { InvalidArgumentError } from "../../src/index.js";
import {
  createLanguageService,
  type DocumentSymbol,
  type OffsetRange,
  sampleJudge,
  sampleLensOffset,
  sampleLensTitle,
} from "../../src/service/index.js";

const service = createLanguageService({ dataset: "http_requests" });

/** A span as the text it covers: what a reader of the test checks. */
const shown = (text: string, range: OffsetRange) => text.slice(range.start, range.end);

/** The 0-based line of an offset. */
const lineOf = (text: string, offset: number) => text.slice(0, offset).split("\n").length - 1;

const FILTER = `# dataset: http_requests
# 5xx on the API host,
# excluding health checks
EdgeResponseStatus geq 500
  and ClientRequestHost eq "api.example.com"
  and not (
    ClientRequestPath startsWith "/health"
    or ClientRequestMethod in [
      "HEAD", "OPTIONS"
    ]
  )
`;

describe("the outline (document symbols)", () => {
  it("holds the dataset directive, then each group, not and comparison, nested as written", () => {
    const outline = (symbols: DocumentSymbol[]): unknown[] =>
      symbols.map((symbol) => [
        symbol.kind,
        symbol.name,
        symbol.detail,
        shown(FILTER, symbol.selectionRange),
        ...(symbol.children.length ? [outline(symbol.children)] : []),
      ]);
    expect(outline(service.documentSymbols(FILTER))).toEqual([
      ["dataset", "dataset http_requests", "123 fields", "http_requests"],
      [
        "group",
        "and",
        "3 parts",
        "and",
        [
          ["comparison", "EdgeResponseStatus geq 500", "int", "EdgeResponseStatus"],
          ["comparison", 'ClientRequestHost eq "api.example.com"', "string", "ClientRequestHost"],
          [
            "negation",
            "not",
            "",
            "not",
            [
              [
                "group",
                "or",
                "2 parts",
                "or",
                [
                  ["comparison", 'ClientRequestPath startsWith "/health"', "string", "ClientRequestPath"],
                  [
                    "comparison",
                    'ClientRequestMethod in [ "HEAD", "OPTIONS" ]',
                    "string",
                    "ClientRequestMethod",
                  ],
                ],
              ],
            ],
          ],
        ],
      ],
    ]);
    const [directive, tree] = service.documentSymbols(FILTER);
    expect(shown(FILTER, directive!.range)).toBe("# dataset: http_requests");
    expect(shown(FILTER, tree!.children[2]!.range)).toMatch(/^not \(\n[\s\S]*\n {2}\)$/);
  });

  it("names a group written with symbols by its word, cuts long comparisons, and skips what does not parse", () => {
    const text = `BotScore lt 30 || ClientRequestPath in [${Array.from({ length: 30 }, (_, i) => `"/p${i}"`).join(", ")}] || BotScore gt`;
    const [group] = service.documentSymbols(text);
    expect([group!.name, shown(text, group!.selectionRange)]).toEqual(["or", "||"]);
    expect(group!.children.map((child) => child.name)).toEqual([
      "BotScore lt 30",
      `ClientRequestPath in ["/p0", "/p1", "/p2", "/p3", "/p4", "/p5", "/p6", "/p7", "…`,
      // As far as the parser read it: its diagnostic says the value is missing.
      "BotScore gt",
    ]);
    expect(group!.children[1]!.name.length).toBe(80);
    expect(service.documentSymbols("# dataset: nope\nA eq 1")[0]).toMatchObject({
      name: "dataset nope",
      detail: "unknown dataset",
    });
    expect(service.documentSymbols("")).toEqual([]);
  });
});

describe("folding ranges", () => {
  it("folds comment runs, groups and lists over several lines, leaving a closing bracket on its line visible", () => {
    const folds = service
      .foldingRanges(FILTER)
      .map((fold) => [lineOf(FILTER, fold.start), lineOf(FILTER, fold.end), fold.kind ?? "region"]);
    // Lines 5-10 hold `not (` … `)`: the `not` and its group start on line 5, the outer one is kept.
    expect(folds).toEqual([
      [0, 2, "comment"],
      [5, 9, "region"],
      [7, 8, "region"],
    ]);
  });

  it("folds nothing on one line, nor the whole filter, nor a lone comment", () => {
    expect(service.foldingRanges("# one\nBotScore lt 30\n  and (A eq 1 or B eq 2)\n# two")).toEqual([]);
    expect(service.foldingRanges("(BotScore lt 30\n  or BotScore gt 90)")).toEqual([]);
    // A comment after code on its line does not join a run.
    expect(service.foldingRanges("BotScore lt 30 # a\n# b\nand BotScore gt 1")).toEqual([]);
  });
});

describe("selection ranges", () => {
  it("step out from a value to its list, comparison, parentheses, groups, the filter and the text", () => {
    const at = FILTER.indexOf("OPTIONS") + 2;
    const [steps] = service.selectionRanges(FILTER, [at]);
    expect(steps!.map((range) => shown(FILTER, range).replace(/\s+/g, " ").slice(0, 50))).toEqual([
      '"OPTIONS"',
      '[ "HEAD", "OPTIONS" ]',
      'ClientRequestMethod in [ "HEAD", "OPTIONS" ]',
      '( ClientRequestPath startsWith "/health" or Client',
      'not ( ClientRequestPath startsWith "/health" or Cl',
      "EdgeResponseStatus geq 500 and ClientRequestHost e",
      "# dataset: http_requests # 5xx on the API host, # ",
    ]);
    for (let i = 1; i < steps!.length; i++) {
      expect(steps![i]!.start).toBeLessThanOrEqual(steps![i - 1]!.start);
      expect(steps![i]!.end).toBeGreaterThanOrEqual(steps![i - 1]!.end);
    }
  });

  it("selects a parenthesized comparison without, then with, its parentheses; a comment, then the text", () => {
    const text = "(BotScore lt 30) and BotScore gt 1 # note";
    const [onField, onComment] = service.selectionRanges(text, [3, text.indexOf("note")]);
    expect(onField!.map((range) => shown(text, range))).toEqual([
      "BotScore",
      "BotScore lt 30",
      "(BotScore lt 30)",
      "(BotScore lt 30) and BotScore gt 1",
      text,
    ]);
    expect(onComment!.map((range) => shown(text, range))).toEqual(["# note", text]);
    expect(() => service.selectionRanges(text, [-1])).toThrow(InvalidArgumentError);
  });
});

describe("inlay hints", () => {
  it("show the operator each comparison runs as under not, and the word each and/or becomes", () => {
    const hints = service.inlayHints(FILTER);
    // Each label with the line up to where it stands.
    expect(
      hints.map((hint) => [FILTER.slice(0, hint.offset).split("\n").at(-1), hint.label, hint.kind]),
    ).toEqual([
      ["    ClientRequestPath startsWith", "→ !startsWith", "negation"],
      ["    or", "→ and", "negation"],
      ["    or ClientRequestMethod in", "→ !in", "negation"],
    ]);
    expect(hints[0]!.tooltip).toBe(
      "Under `not`, Logpush runs this comparison with `!startsWith`: its JSON has no `not`.",
    );
    // Two nots cancel; aliases run as their canonical negation.
    expect(service.inlayHints("not not BotScore lt 30")).toEqual([]);
    expect(
      service.inlayHints("not (BotScore < 30 && ClientCountry != 'us')").map((hint) => hint.label),
    ).toEqual(["→ geq", "→ or", "→ eq"]);
  });

  it("mark the end of the line whose comparison takes the filter past a limit, naming the setting", () => {
    const labelled = createLanguageService({
      maxOperators: 2,
      maxBytes: 100,
      optionLabels: { maxOperators: "setting filterc.maxOperators", maxBytes: "setting filterc.maxBytes" },
    });
    const text = 'BotScore lt 30\n  and ClientCountry eq "us"\n  and ClientRequestHost eq "example.com"\n';
    const hints = labelled.inlayHints(text);
    expect(
      hints.map((hint) => [lineOf(text, hint.offset), text.slice(hint.offset, hint.offset + 1), hint.label]),
    ).toEqual([
      [1, "\n", "◀ past 100 bytes of JSON (setting filterc.maxBytes)"],
      [2, "\n", "◀ comparison 3: past the limit of 2 (setting filterc.maxOperators)"],
    ]);
    expect(hints[1]!.tooltip).toMatch(/^the filter has 3 comparisons; Logpush accepts at most 2/);
    // Within a range only: the first line holds none.
    expect(labelled.inlayHints(text, { start: 0, end: 14 })).toEqual([]);
    expect(() => labelled.inlayHints(text, { start: 0 } as never)).toThrow(InvalidArgumentError);
  });
});

describe("document links", () => {
  it("link each known field to its heading on its dataset's page, deprecated ones included", () => {
    const text = '# dataset: firewall_events\nClientIP eq "1.2.3.4" and Nope eq 1';
    expect(service.documentLinks(text)).toEqual([
      {
        range: { start: 27, end: 35 },
        target:
          "https://developers.cloudflare.com/logs/logpush/logpush-job/datasets/zone/firewall_events/#clientip",
        tooltip: "ClientIP in the firewall_events dataset's documentation",
      },
    ]);
    const [deprecated] = service.documentLinks("CacheResponseStatus eq 200");
    expect(deprecated!.target).toBe(
      "https://developers.cloudflare.com/logs/logpush/logpush-job/datasets/zone/http_requests/#cacheresponsestatus-deprecated",
    );
    const [account] = service.documentLinks('# dataset: gateway_http\nHTTPHost eq "a"');
    expect(account!.target).toBe(
      "https://developers.cloudflare.com/logs/logpush/logpush-job/datasets/account/gateway_http/#httphost",
    );
  });

  it("link nothing for a catalog filterc does not ship", () => {
    const catalog = createCatalog("my_dataset", [{ name: "Thing", type: "string" }]);
    expect(createLanguageService({ catalog }).documentLinks('Thing eq "a"')).toEqual([]);
  });
});

describe("the evaluation lens's judgement", () => {
  it("keeps the lines the filter matches, as filterc eval does, and titles the counts", () => {
    const judged = sampleJudge(service.analyze('ClientCountry eq "us"'));
    if ("problem" in judged) throw new Error(judged.problem);
    expect(
      ['{"ClientCountry":"us"}', '{"ClientCountry":"ca"}', "not json", "{}"].map((line) =>
        judged.judge(line),
      ),
    ).toEqual(["kept", "dropped", "malformed", "dropped"]);
    expect(sampleLensTitle({ lines: 1200, kept: 1, malformed: 0 }, "logs/*.ndjson")).toBe(
      "▶ keeps 1 of 1,200 sample lines (logs/*.ndjson)",
    );
    expect(sampleLensTitle({ lines: 1, kept: 0, malformed: 1 }, "a.ndjson", "after 2 s")).toBe(
      "▶ keeps 0 of the first 1 sample line (a.ndjson, 1 malformed line; stopped: after 2 s)",
    );
  });

  it("evaluates no sample for a filter with errors, and stands above the filter", () => {
    expect(sampleJudge(service.analyze("Nope eq 1 and BotScore lt"))).toEqual({
      problem: "the filter has 2 errors: no sample is evaluated",
    });
    const text = "# dataset: http_requests\n\nBotScore lt 30";
    expect(sampleLensOffset(service.analyze(text))).toBe(text.indexOf("BotScore"));
    expect(sampleLensOffset(service.analyze(""))).toBe(0);
  });
});

/** Filter-like text from the language's own words, some of it broken: what an editor holds while typing. */
const filterText = fc
  .array(
    fc.constantFrom(
      "BotScore",
      "ClientCountry",
      "ClientRequestPath",
      "EdgeResponseStatus",
      "Nope",
      "eq",
      "lt",
      "startsWith",
      "in",
      "not",
      "!",
      "and",
      "or",
      "&&",
      "(",
      ")",
      "[",
      "]",
      ",",
      '"us"',
      "30",
      "true",
      "# note",
      "# dataset: gateway_http",
      "\n",
      "\r\n",
      "  ",
    ),
    { maxLength: 40 },
  )
  .map((words) => words.join(" "));

const inside = (inner: OffsetRange, outer: OffsetRange) =>
  outer.start <= inner.start && inner.end <= outer.end;

describe("the editor features on any text", () => {
  it("never throw, and give ranges inside the text, nested as they say", () => {
    fc.assert(
      fc.property(filterText, fc.nat(), (text, seed) => {
        const whole = { start: 0, end: text.length };
        const check = (symbol: DocumentSymbol, parent: OffsetRange) => {
          expect(inside(symbol.range, parent)).toBe(true);
          expect(inside(symbol.selectionRange, symbol.range)).toBe(true);
          for (const child of symbol.children) check(child, symbol.range);
        };
        for (const symbol of service.documentSymbols(text)) check(symbol, whole);
        let line = -1;
        for (const fold of service.foldingRanges(text)) {
          expect(lineOf(text, fold.start)).toBeGreaterThan(line);
          expect(lineOf(text, fold.end)).toBeGreaterThan(lineOf(text, fold.start));
          line = lineOf(text, fold.start);
        }
        const [steps] = service.selectionRanges(text, [seed % (text.length + 1)]);
        expect(steps!.at(-1)).toEqual(whole);
        for (let i = 1; i < steps!.length; i++) expect(inside(steps![i - 1]!, steps![i]!)).toBe(true);
        for (const hint of service.inlayHints(text))
          expect(inside({ start: hint.offset, end: hint.offset }, whole)).toBe(true);
        for (const link of service.documentLinks(text))
          expect(shown(text, link.range)).toMatch(/^[A-Za-z]+$/);
      }),
      { numRuns: 1000 },
    );
  });
});
