import { describe, expect, it } from "vitest";
import { createCatalog } from "../../src/catalog/index.js";
import { createLanguageService, semanticTokenLegend } from "../../src/service/index.js";
import { withCursor, withMarks } from "./cursor.js";

const service = createLanguageService({ dataset: "http_requests" });

function hoverAt(marked: string) {
  const { text, offset } = withCursor(marked);
  return service.hover(text, offset);
}

describe("hover", () => {
  it("shows a field's type, description and the comparison's JSON", () => {
    const { text, offset, range } = withMarks("<|EdgeResp<|>onseStatus|> geq 500");
    expect(service.hover(text, offset)).toEqual({
      contents:
        '**EdgeResponseStatus**: `int`\n\nHTTP status returned to the client.\n\nEmits:\n```json\n{"key":"EdgeResponseStatus","operator":"geq","value":"500"}\n```',
      range,
    });
  });

  it("explains an alias operator and shows the leaf negated by an enclosing not", () => {
    const { text, offset, range } = withMarks('not (ClientRequestPath <|!<|>=|> "/health")');
    expect(service.hover(text, offset)).toEqual({
      contents:
        '**!eq**: does not equal the value.\n\n`!=` is written `!eq` in Logpush JSON.\n\nEmits (negated by the enclosing `not`):\n```json\n{"key":"ClientRequestPath","operator":"eq","value":"/health"}\n```',
      range,
    });
  });

  it("shows the list JSON of an in comparison on a value, with numbers for int fields", () => {
    const { text, offset, range } = withMarks("EdgeResponseStatus in <|[500, 5<|>02]|>");
    expect(service.hover(text, offset)).toEqual({
      contents:
        '**EdgeResponseStatus**: `int`\n\nHTTP status returned to the client.\n\nEmits:\n```json\n{"key":"EdgeResponseStatus","operator":"in","value":[500,502]}\n```',
      range,
    });
  });

  it("marks deprecated fields", () => {
    expect(hoverAt("CacheResponse<|>Status eq 200")?.contents).toBe(
      '**CacheResponseStatus**: `int`\n\nHTTP status from cache to edge.\n\n*Deprecated.*\n\nEmits:\n```json\n{"key":"CacheResponseStatus","operator":"eq","value":"200"}\n```',
    );
  });

  it("explains keywords", () => {
    const { text, offset, range } = withMarks("BotScore lt 30 <|a<|>nd|> BotScore gt 1");
    expect(service.hover(text, offset)).toEqual({
      contents: "**and**: both sides must hold. Binds tighter than `or`.",
      range,
    });
  });

  it("says that `not` means its push-down, which a record without the field fails", () => {
    const { text, offset, range } = withMarks("<|n<|>ot|> BotScore lt 30");
    expect(service.hover(text, offset)).toEqual({
      contents:
        "**not**: negates what follows, as the JSON a job runs does: Logpush JSON has no `not`, so the negation is pushed down to the comparisons (De Morgan), `eq` becoming `!eq`, `lt` becoming `geq` and so on. `not X lt 5` is `X geq 5`, which a record without `X` fails.",
      range,
    });
  });

  it("leaves out the JSON of a comparison that does not check, and says nothing on unknown fields", () => {
    expect(hoverAt('BotScore e<|>q "high"')?.contents).toBe("**eq**: equals the value.");
    expect(hoverAt("NoSuch<|>Field eq 1")).toBeNull();
    expect(hoverAt("BotScore eq 1 <|>  ")).toBeNull();
  });
});

describe("diagnostics", () => {
  it("reports every problem of half-typed text with codes and offsets", () => {
    const text = 'ClientIp eq "1" and EdgeResponseStatus geq';
    expect(
      service.diagnostics(text).map((d) => [d.code, d.severity, d.range.start.offset, d.range.end.offset]),
    ).toEqual([
      ["E0202", "error", 0, 8],
      ["E0104", "error", 42, 42],
    ]);
  });

  it("applies the limits of the settings, and the new ones after configure", () => {
    const limited = createLanguageService({ maxOperators: 1 });
    const text = "BotScore lt 30 and EdgeResponseStatus eq 200";
    expect(limited.diagnostics(text).map((d) => d.code)).toEqual(["E0401"]);
    limited.configure({ maxOperators: 2 });
    expect(limited.diagnostics(text)).toEqual([]);
  });

  it("checks against a catalog the caller brings", () => {
    const custom = createLanguageService({
      catalog: createCatalog("custom", [{ name: "Colour", type: "string" }]),
    });
    expect(custom.diagnostics('Colour eq "red"')).toEqual([]);
    expect(custom.completions("Co", 2).map((item) => item.label)).toEqual(["Colour"]);
  });

  it("analyses one text once for a burst of requests, and again after configure", () => {
    const fresh = createLanguageService();
    const text = "BotScore lt 30";
    const analysis = fresh.analyze(text);
    fresh.diagnostics(text);
    fresh.completions(text, 3);
    expect(fresh.analyze(text)).toBe(analysis);
    fresh.configure({ dataset: "firewall_events" });
    expect(fresh.analyze(text)).not.toBe(analysis);
  });
});

describe("quick fixes", () => {
  it("turns every suggestion in the range into an edit", () => {
    const text = 'ClientIp eq "1" and EdgeResponseStatus == 0500 and ClientRequestPath startswith "/a"';
    const actions = service.codeActions(text, { start: 0, end: text.length });
    expect(actions.map((a) => [a.title, a.kind, a.diagnostic.code, a.edit])).toEqual([
      ["replace with `ClientIP`", "quickfix", "E0202", { range: { start: 0, end: 8 }, newText: "ClientIP" }],
      ["write 500", "quickfix", "E0106", { range: { start: 42, end: 46 }, newText: "500" }],
      [
        "replace with `startsWith`",
        "quickfix",
        "E0205",
        { range: { start: 69, end: 79 }, newText: "startsWith" },
      ],
    ]);
  });

  it("offers only the fixes of diagnostics the range meets", () => {
    const text = 'ClientIp eq "1" and EdgeResponseStatus == 0500';
    expect(service.codeActions(text, { start: 44, end: 44 }).map((a) => a.title)).toEqual(["write 500"]);
    expect(service.codeActions(text, { start: 12, end: 15 })).toEqual([]);
  });
});

describe("semantic tokens", () => {
  it("classifies fields, operators, keywords, strings, numbers and comments in source order", () => {
    const text =
      '# hosts\nnot CacheResponseStatus in [200] && ClientRequestHost == "a" or CacheReserveUsed eq true # end';
    const tokens = service
      .semanticTokens(text)
      .map((t) => [text.slice(t.offset, t.offset + t.length), t.type, ...t.modifiers]);
    expect(tokens).toEqual([
      ["# hosts", "comment"],
      ["not", "keyword"],
      ["CacheResponseStatus", "property", "deprecated"],
      ["in", "operator"],
      ["200", "number"],
      ["&&", "keyword"],
      ["ClientRequestHost", "property"],
      ["==", "operator"],
      ['"a"', "string"],
      ["or", "keyword"],
      ["CacheReserveUsed", "property"],
      ["eq", "operator"],
      ["true", "keyword"],
      ["# end", "comment"],
    ]);
  });

  it("has a legend whose names the tokens use", () => {
    expect(semanticTokenLegend).toEqual({
      tokenTypes: ["property", "operator", "keyword", "string", "number", "comment"],
      tokenModifiers: ["deprecated"],
    });
  });
});

describe("formatting", () => {
  it("replaces only the part that changes with the canonical text", () => {
    expect(service.format("BotScore  <  30 AND EdgeResponseStatus==200")).toEqual([
      { range: { start: 9, end: 43 }, newText: "lt 30 and EdgeResponseStatus eq 200\n" },
    ]);
    expect(service.format("BotScore lt 30 and EdgeResponseStatus eq 200\n", { lineWidth: 20 })).toEqual([
      { range: { start: 14, end: 14 }, newText: "\n " },
    ]);
  });

  it("leaves canonical text and text with syntax errors alone", () => {
    expect(service.format("BotScore lt 30 and EdgeResponseStatus eq 200\n")).toEqual([]);
    expect(service.format("BotScore  lt")).toEqual([]);
  });
});
