import { describe, expect, it } from "vitest";
import { createCatalog } from "../../src/catalog/index.js";
import { applySettings, SETTING_LABELS } from "../../src/lsp/settings.js";

describe("LSP settings", () => {
  const base = { dataset: "http_requests", maxOperators: 30 };
  // Messages name the settings, whatever the base named.
  const optionLabels = SETTING_LABELS;

  it("reads the section itself or an object holding it under filterc", () => {
    expect(applySettings(base, { dataset: "dns_logs", maxBytes: 500 })).toEqual({
      options: { dataset: "dns_logs", maxOperators: 30, maxBytes: 500, optionLabels },
      ignored: [],
    });
    expect(applySettings(base, { filterc: { maxOperators: 5 } })).toEqual({
      options: { dataset: "http_requests", maxOperators: 5, optionLabels },
      ignored: [],
    });
  });

  it("keeps the base for missing settings and names the ones of the wrong type", () => {
    expect(applySettings(base, null)).toEqual({ options: { ...base, optionLabels }, ignored: [] });
    expect(applySettings({ ...base, optionLabels: { maxOperators: "--max-operators" } }, {})).toEqual({
      options: { ...base, optionLabels },
      ignored: [],
    });
    expect(applySettings(base, { dataset: 7, maxOperators: -1, maxBytes: "1000" })).toEqual({
      options: { ...base, optionLabels },
      ignored: ["filterc.dataset", "filterc.maxOperators", "filterc.maxBytes"],
    });
  });

  it("lets a dataset setting replace a catalog from the command line", () => {
    const catalog = createCatalog("custom", [{ name: "Colour", type: "string" }]);
    expect(applySettings({ catalog }, { dataset: "nel_reports" }).options).toEqual({
      dataset: "nel_reports",
      optionLabels,
    });
    expect(applySettings({ catalog }, { maxBytes: 10 }).options).toEqual({
      catalog,
      maxBytes: 10,
      optionLabels,
    });
  });
});
