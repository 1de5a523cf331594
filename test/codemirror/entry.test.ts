import { Compartment, EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { ensureBundles } from "../helpers/bundles.js";

ensureBundles();

/** The package's own subpath export, as an app imports it: the built dist/codemirror.js. */
const { filterResult, languageService, logpushFilter } = await import("filterc/codemirror");

describe("filterc/codemirror", () => {
  it("compiles the document against the dataset given as an option", () => {
    const state = EditorState.create({
      doc: 'QueryName endsWith ".example.com"',
      extensions: logpushFilter({ dataset: "dns_logs" }),
    });
    expect(filterResult(state).filter).toBe(
      '{"where":{"key":"QueryName","operator":"endsWith","value":".example.com"}}',
    );
    expect(languageService(state).settings).toEqual({ dataset: "dns_logs" });
  });

  it("follows a change of dataset and limits through a compartment", () => {
    const settings = new Compartment();
    const start = EditorState.create({
      doc: 'QueryName endsWith ".example.com"',
      extensions: settings.of(logpushFilter({ dataset: "dns_logs" })),
    });
    const next = start.update({
      effects: settings.reconfigure(logpushFilter({ dataset: "http_requests", maxBytes: 10 })),
    }).state;
    const result = filterResult(next);
    expect(result.filter).toBeNull();
    expect(result.diagnostics.map((d) => [d.code, d.range.start.offset, d.range.end.offset])).toEqual([
      ["E0201", 0, 9],
    ]);
    expect(result.stats.maxBytes).toBe(10);
  });

  it("recompiles on edits and keeps the result while only the selection moves", () => {
    const state = EditorState.create({
      doc: "ResponseCached eq true",
      extensions: logpushFilter({ dataset: "dns_logs" }),
    });
    const moved = state.update({ selection: { anchor: 3 } }).state;
    expect(filterResult(moved)).toBe(filterResult(state));
    const edited = state.update({ changes: { from: 18, to: 22, insert: "false" } }).state;
    expect(filterResult(edited).filter).toBe(
      '{"where":{"key":"ResponseCached","operator":"eq","value":"false"}}',
    );
  });
});
