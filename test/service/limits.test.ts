import { describe, expect, it } from "vitest";
import { createLanguageService } from "../../src/service/index.js";
import { DEFAULT_MAX_SOURCE_LENGTH } from "../../src/syntax/index.js";

describe("the language service on a text longer than maxSourceLength", () => {
  const service = createLanguageService();
  const unit = 'ClientCountry eq "us" and ';
  const long = unit.repeat(Math.ceil((DEFAULT_MAX_SOURCE_LENGTH + 1) / unit.length));
  const justFits = unit.repeat(Math.floor(DEFAULT_MAX_SOURCE_LENGTH / unit.length));

  it("answers every request from nothing (regression: semantic tokens scanned the whole text)", () => {
    expect(service.semanticTokens(long)).toEqual([]);
    expect(service.completions(long, 3)).toEqual([]);
    expect(service.completions(long, long.length)).toEqual([]);
    expect(service.hover(long, 3)).toBeNull();
    expect(service.format(long)).toEqual([]);
    expect(service.codeActions(long, { start: 0, end: 3 })).toEqual([]);
    expect(service.diagnostics(long).map((d) => d.code)).toEqual(["E0001"]);
  });

  it("still serves a text of the longest length read", () => {
    expect(service.semanticTokens(justFits).length).toBe((justFits.length / unit.length) * 4);
    expect(service.completions(justFits, 3).length).toBeGreaterThan(0);
  });
});
