import { describe, expect, it } from "vitest";
import { datasetNames } from "../../src/catalog/index.js";
import { createLanguageService } from "../../src/service/index.js";
import { withCursor, withMarks } from "./cursor.js";

/** An editor whose setting is http_requests: a text's own `# dataset:` wins over it. */
const service = createLanguageService({ dataset: "http_requests" });

const labels = (marked: string) => {
  const { text, offset } = withCursor(marked);
  return service.completions(text, offset).map((item) => item.label);
};

describe("a text that names its dataset", () => {
  it("is checked against that dataset, whatever the editor's setting", () => {
    expect(service.diagnostics('# dataset: gateway_http\nAction eq "block"')).toEqual([]);
    expect(service.diagnostics('Action eq "block"').map((d) => d.code)).toEqual(["E0201"]);
    expect(createLanguageService({ dataset: "gateway_http" }).diagnostics('Action eq "block"')).toEqual([]);
  });

  it("completes, hovers and colours the fields of its dataset", () => {
    expect(labels("# dataset: gateway_http\nHTTPH<|>")).toEqual(["HTTPHost"]);
    const { text, offset } = withCursor('# dataset: gateway_http\nAct<|>ion eq "block"');
    expect(service.hover(text, offset)?.contents).toMatch(/^\*\*Action\*\*: `string`/);
    expect(service.semanticTokens('# dataset: gateway_http\nAction eq "block"')[0]).toEqual({
      offset: 24,
      length: 6,
      type: "property",
      modifiers: [],
    });
  });

  it("leaves its directive to the editor's grammar: no comment token over it, unlike other comments", () => {
    const tokens = service.semanticTokens('# dataset: gateway_http\n# a note\nAction eq "block"');
    expect(tokens.filter((token) => token.type === "comment")).toEqual([
      { offset: 24, length: 8, type: "comment", modifiers: [] },
    ]);
  });

  it("completes the dataset's name after `# dataset:`, replacing the name written", () => {
    const { text, offset, range } = withMarks("# dataset: <|gate<|>way|>\nAction eq 1");
    const items = service.completions(text, offset);
    expect(items.map((item) => item.label)).toEqual(["gateway_dns", "gateway_http", "gateway_network"]);
    expect(items[1]).toEqual({
      label: "gateway_http",
      kind: "value",
      detail: "Logpush dataset (account)",
      sortText: "0001",
      filterText: "gateway_http",
      edit: { range, newText: "gateway_http" },
    });
    expect(labels("# dataset: <|>")).toEqual([...datasetNames]);
    // Names that hold the typed text come after those that start with it.
    expect(labels("# dataset: dns<|>")).toEqual(["dns_firewall_logs", "dns_logs", "gateway_dns"]);
    // Before the colon, and in other comments, nothing is completed.
    expect(labels("# data<|>set: gateway_http")).toEqual([]);
    expect(labels("# the <|>")).toEqual([]);
  });

  it("offers the fixes of a near miss and of an unknown name", () => {
    const nearMiss = "# dataset gateway_http\nAction eq 1";
    expect(service.codeActions(nearMiss, { start: 0, end: 0 }).map((action) => action.edit)).toEqual([
      { range: { start: 0, end: 22 }, newText: "# dataset: gateway_http" },
    ]);
    const unknown = '# dataset: gatway_http\nAction eq "block"';
    expect(service.codeActions(unknown, { start: 14, end: 14 }).map((action) => action.edit)).toEqual([
      { range: { start: 11, end: 22 }, newText: "gateway_http" },
    ]);
  });
});
