import { describe, expect, it } from "vitest";
import { getCatalog } from "../../src/catalog/index.js";
import { createLanguageService } from "../../src/service/index.js";
import cases from "./completion-cases.json";
import { withMarks } from "./cursor.js";

interface Case {
  source: string;
  dataset?: string;
  labels: string[];
}

function completions(marked: string, dataset = "http_requests") {
  const { text, offset } = withMarks(marked);
  return createLanguageService({ dataset }).completions(text, offset);
}

/** The range marked `<|`…`|>` in a test source: the word a completion replaces. */
const markedRange = (marked: string) => withMarks(marked).range;

describe("completion", () => {
  it.each(cases as Case[])("$source ($dataset)", ({ source, dataset, labels }) => {
    const items = completions(source, dataset);
    expect(items.map((item) => item.label)).toEqual(labels);
    // Items come best first, and sortText keeps that order in editors that sort.
    const sortTexts = items.map((item) => item.sortText);
    expect([...sortTexts].sort()).toEqual(sortTexts);
  });

  it("offers every filterable field at the start, then not and (, then deprecated fields", () => {
    const catalog = getCatalog("http_requests")!;
    const fields = [...catalog.fields.values()].filter((field) => field.filterable);
    const current = fields.filter((field) => !field.deprecated).map((field) => field.name);
    const deprecated = fields.filter((field) => field.deprecated).map((field) => field.name);
    const labels = completions("<|>").map((item) => item.label);
    expect(labels).toEqual([...current, "not", "(", ...deprecated]);
    expect(labels).not.toContain("RequestHeaders");
    expect(deprecated.length).toBeGreaterThan(0);
  });

  it("replaces the whole word under the cursor and describes the field", () => {
    const source = "<|EdgeResponseS<|>tat|> eq 200";
    const [first] = completions(source);
    expect(first).toEqual({
      label: "EdgeResponseStatus",
      kind: "field",
      detail: "int",
      documentation: "HTTP status returned to the client.",
      sortText: "00000",
      filterText: "EdgeResponseStatus",
      edit: { range: markedRange(source), newText: "EdgeResponseStatus" },
    });
  });

  it("marks deprecated fields in their detail and documentation", () => {
    const item = completions("CacheResponseSt<|>").find((i) => i.label === "CacheResponseStatus");
    expect(item).toMatchObject({ detail: "int (deprecated)", sortText: "40000" });
    expect(item?.documentation).toBe("HTTP status from cache to edge.\n\nDeprecated.");
  });

  it("replaces `!st` with the negated operator and says what it means", () => {
    const source = 'ClientRequestPath <|!st<|>|> "/a"';
    const [item] = completions(source);
    expect(item).toEqual({
      label: "!startsWith",
      kind: "operator",
      detail: "does not start with the text",
      sortText: "00000",
      filterText: "!startsWith",
      edit: { range: markedRange(source), newText: "!startsWith" },
    });
  });

  it("quotes values with the quote the string was started with, replacing the unfinished string", () => {
    const source = "ClientRequestMethod eq <|'P<|>|>";
    const range = markedRange(source);
    expect(completions(source).map((item) => [item.label, item.filterText, item.edit])).toEqual([
      ['"POST"', "'POST", { range, newText: "'POST'" }],
      ['"PUT"', "'PUT", { range, newText: "'PUT'" }],
      ['"PATCH"', "'PATCH", { range, newText: "'PATCH'" }],
    ]);
  });

  it("inserts values after an operator at the cursor", () => {
    const [first] = completions("ClientRequestScheme !eq <|>");
    expect(first).toEqual({
      label: '"http"',
      kind: "value",
      detail: "ClientRequestScheme value",
      sortText: "00000",
      filterText: "http",
      edit: { range: markedRange("ClientRequestScheme !eq <|>"), newText: '"http"' },
    });
  });

  it("completes keywords typed in any letter case with the lower-case keyword", () => {
    const source = "BotScore lt 30 <|AN<|>|>";
    const [item] = completions(source);
    expect(item).toMatchObject({
      label: "and",
      kind: "keyword",
      edit: { range: markedRange(source), newText: "and" },
    });
  });

  it("offers nothing for an unknown dataset's fields but still offers keywords", () => {
    expect(completions("<|>", "no_such_dataset").map((item) => item.label)).toEqual(["not", "("]);
  });
});
