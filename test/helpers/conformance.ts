import { readdirSync, readFileSync } from "node:fs";
import { type CompileOptions, createCatalog, type Diagnostic, type FieldSpec } from "../../src/index.js";

/**
 * One conformance case: source and options in, the exact filter JSON (or null) and the exact
 * diagnostics out. A diagnostic is written `CODE L:C-L:C`, with ` → "replacement"` when it
 * suggests a fix. A source may be written as [text, count] pairs for inputs too long to read.
 */
export interface ConformanceCase {
  name: string;
  source: string | [string, number][];
  options?: Omit<CompileOptions, "catalog"> & { catalog?: string };
  filter: string | null;
  diagnostics: string[];
}

const conformanceDir = new URL("../conformance/", import.meta.url);
export const catalogFixturePath = (name: string) =>
  new URL(`../fixtures/catalogs/${name}.json`, import.meta.url).pathname;

export function loadConformance(): { file: string; cases: ConformanceCase[] }[] {
  return readdirSync(conformanceDir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => ({
      file,
      cases: JSON.parse(readFileSync(new URL(file, conformanceDir), "utf8")) as ConformanceCase[],
    }));
}

export function sourceOf(testCase: ConformanceCase): string {
  const { source } = testCase;
  return typeof source === "string" ? source : source.map(([text, count]) => text.repeat(count)).join("");
}

export function loadCatalogFixture(name: string) {
  return createCatalog(name, JSON.parse(readFileSync(catalogFixturePath(name), "utf8")) as FieldSpec[]);
}

export function compileOptionsOf(testCase: ConformanceCase): CompileOptions {
  const { catalog, ...options } = testCase.options ?? {};
  return catalog ? { ...options, catalog: loadCatalogFixture(catalog) } : options;
}

export function formatDiagnostic(diagnostic: Pick<Diagnostic, "code" | "range" | "suggestion">): string {
  const { start, end } = diagnostic.range;
  const place = `${start.line}:${start.column}-${end.line}:${end.column}`;
  const fix = diagnostic.suggestion ? ` → ${JSON.stringify(diagnostic.suggestion.replacement)}` : "";
  return `${diagnostic.code} ${place}${fix}`;
}
