import { describe, expect, it } from "vitest";
import { check, compile, decompile, loadFilter } from "../../src/index.js";

/*
 * The loader: one filter in, as source, Logpush JSON (text or parsed, or the string a job stores)
 * or a job record; its written form, meaning, JSON, catalog, dataset and every diagnostic out.
 */

const json = '{"where":{"key":"BotScore","operator":"geq","value":"30"}}';
const codes = (loaded: { diagnostics: { code: string }[] }) => loaded.diagnostics.map((d) => d.code);

describe("loadFilter", () => {
  it("reads source and gives what compile gives, the meaning with `not` pushed down", () => {
    const loaded = loadFilter("not BotScore lt 30");
    const compiled = compile("not BotScore lt 30");
    expect(loaded.form).toBe("source");
    expect(loaded.ok).toBe(true);
    expect(loaded.source).toBe("not BotScore lt 30");
    expect(loaded.condition?.kind).toBe("not");
    expect(loaded.meaning).toEqual(check("not BotScore lt 30").meaning);
    expect(loaded.meaning).toMatchObject({ kind: "leaf", operator: "geq" });
    expect(loaded.filter).toBe(compiled.filter);
    expect(loaded.filter).toBe(json);
    expect([loaded.dataset, loaded.catalog?.dataset]).toEqual(["http_requests", "http_requests"]);
  });

  it("reads JSON as text, parsed, or inside the string a job stores, to the same meaning and JSON", () => {
    for (const input of [json, JSON.parse(json), JSON.stringify(json), ` \n${json}`]) {
      const loaded = loadFilter(input);
      expect(loaded.form).toBe("json");
      expect(loaded.source).toBe("BotScore geq 30");
      expect(loaded.meaning).toMatchObject({ kind: "leaf", operator: "geq", value: { text: "30" } });
      expect(loaded.filter).toBe(json);
    }
  });

  it("gives the meaning of JSON flattened, and the condition as the JSON nests it", () => {
    const nested =
      '{"where":{"and":[{"and":[{"key":"BotScore","operator":"lt","value":1},{"key":"BotScore","operator":"gt","value":0}]}]}}';
    const loaded = loadFilter(nested);
    expect(loaded.condition).toMatchObject({ kind: "and", operands: [{ kind: "and" }] });
    expect(loaded.meaning).toMatchObject({ kind: "and", operands: [{ kind: "leaf" }, { kind: "leaf" }] });
    expect(loaded.condition).toEqual(decompile(nested).condition);
  });

  it("reads a job record with its own dataset, unless `dataset` is given, or a record's comes first", () => {
    const record = JSON.stringify({
      dataset: "dns_logs",
      filter: '{"where":{"key":"QueryName","operator":"eq","value":"a"}}',
    });
    const own = loadFilter(record);
    expect([own.ok, own.dataset, own.catalog?.dataset]).toEqual([true, "dns_logs", "dns_logs"]);
    expect(own.datasetRange.start).toMatchObject({ offset: 1, line: 1, column: 2 });
    expect(own.datasetRange.end.offset).toBe(10);
    const given = loadFilter(record, { dataset: "http_requests" });
    expect([given.dataset, codes(given)]).toEqual(["http_requests", ["E0201"]]);
    const recordFirst = loadFilter(record, { dataset: "http_requests", recordDatasetFirst: true });
    expect([recordFirst.ok, recordFirst.dataset]).toEqual([true, "dns_logs"]);
    expect(loadFilter(record, { form: "json", defaultDataset: "gateway_dns" }).dataset).toBe("dns_logs");
  });

  it("takes a source's # dataset: and the default dataset of a filter that names none", () => {
    const named = loadFilter('# dataset: gateway_http\nAction eq "block"');
    expect([named.dataset, named.datasetRange.start.line]).toEqual(["gateway_http", 1]);
    expect(loadFilter('Action eq "block"', { defaultDataset: "gateway_http" }).dataset).toBe("gateway_http");
    expect(loadFilter(json, { defaultDataset: "firewall_events" }).dataset).toBe("firewall_events");
  });

  it("holds JSON to the limits as compile holds source, and to none given Infinity", () => {
    const many = JSON.stringify({
      where: { or: Array.from({ length: 3 }, (_, i) => ({ key: "BotScore", operator: "eq", value: i })) },
    });
    expect(codes(loadFilter(many, { maxOperators: 2, optimize: false }))).toEqual(["E0401"]);
    expect(loadFilter(many, { maxOperators: 2, optimize: false }).filter).toBeNull();
    expect(loadFilter(many, { maxOperators: 2 }).ok).toBe(true);
    const none = loadFilter(many, { maxOperators: Number.POSITIVE_INFINITY, optimize: false });
    expect([none.ok, none.meaning?.kind]).toEqual([true, "or"]);
  });

  it("gives the empty filter as no meaning and no JSON, in every form", () => {
    for (const input of ["", "# nothing\n", '""', null, undefined, '{"filter":null}']) {
      const loaded = loadFilter(input);
      expect([loaded.ok, loaded.condition, loaded.meaning, loaded.filter]).toEqual([true, null, null, null]);
    }
    // Text is JSON by its first character: `null` is JSON only when said (source, it is a field).
    expect(loadFilter("null", { form: "json" }).ok).toBe(true);
    expect(codes(loadFilter("null"))[0]).toBe("E0201");
  });

  it("reads what `form` says, and reports a form or record switch of the wrong kind (E0006)", () => {
    expect(codes(loadFilter("{", { form: "source" }))[0]).toMatch(/^E01/);
    expect(codes(loadFilter("BotScore lt 1", { form: "json" }))[0]).toMatch(/^E05/);
    expect(codes(loadFilter(json, { form: "xml" as never }))).toEqual(["E0006"]);
    expect(codes(loadFilter("BotScore lt 1", { recordDatasetFirst: "yes" as never }))).toEqual(["E0006"]);
    expect(codes(loadFilter(42))).toEqual(["E0503"]);
  });
});
