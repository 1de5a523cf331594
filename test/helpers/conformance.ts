import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { type CompileOptions, createCatalog, type Diagnostic, type FieldSpec } from "../../src/index.js";

/**
 * One conformance case: source and options in, the exact filter JSON (or null) and the exact
 * diagnostics out. A diagnostic is written `CODE L:C-L:C`, with ` → "replacement"` when it
 * suggests a fix and ` (and L:C-L:C …)` for the other places it involves, then `: ` and its
 * message. A source may be written as [text, count] pairs for inputs too long to read, and as a
 * value that is no string (a JavaScript caller's mistake, run in the library only).
 */
export interface ConformanceCase {
  name: string;
  /** A value that is no string nor such pairs (`null`, `42`) is given as it is: a JavaScript caller's mistake (E0113). */
  source: string | [string, number][] | number | boolean | null;
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

/** The case's source as text, or as the value that is no string it gives (`null`, `42`). */
export function sourceOf(testCase: ConformanceCase): string | number | boolean | null {
  const { source } = testCase;
  if (!Array.isArray(source)) return source;
  return source.map(([text, count]) => text.repeat(count)).join("");
}

/** The case's source, for the cases whose source is text (every front end but the library reads text). */
export function textOf(testCase: ConformanceCase): string | undefined {
  const source = sourceOf(testCase);
  return typeof source === "string" ? source : undefined;
}

export function loadCatalogFixture(name: string) {
  return createCatalog(name, JSON.parse(readFileSync(catalogFixturePath(name), "utf8")) as FieldSpec[]);
}

export function compileOptionsOf(testCase: ConformanceCase): CompileOptions {
  const { catalog, ...options } = testCase.options ?? {};
  return catalog ? { ...options, catalog: loadCatalogFixture(catalog) } : options;
}

const placeOf = ({ start, end }: Diagnostic["range"]) =>
  `${start.line}:${start.column}-${end.line}:${end.column}`;

/** `CODE L:C-L:C` and the fix: what a diagnostic is and where, message aside. */
export function formatDiagnostic(diagnostic: Pick<Diagnostic, "code" | "range" | "suggestion">): string {
  const fix = diagnostic.suggestion ? ` → ${JSON.stringify(diagnostic.suggestion.replacement)}` : "";
  return `${diagnostic.code} ${placeOf(diagnostic.range)}${fix}`;
}

/** A diagnostic as conformance cases write it: `formatDiagnostic`, the related places, the message. */
export function conformanceDiagnostic(
  diagnostic: Pick<Diagnostic, "code" | "range" | "suggestion" | "message" | "related">,
): string {
  const related = diagnostic.related?.length
    ? ` (and ${diagnostic.related.map((place) => placeOf(place.range)).join(", ")})`
    : "";
  return `${formatDiagnostic(diagnostic)}${related}: ${diagnostic.message}`;
}

/**
 * Writes the cases back as they are stored, one per line. `FILTERC_REWRITE_CONFORMANCE=1 npx vitest
 * run test/compile/conformance.test.ts` uses it to record what the compiler says now, after a message or
 * range was changed on purpose: the change then shows in review as a diff of these files.
 */
export function writeConformance(file: string, cases: ConformanceCase[]): void {
  const lines = cases.map((testCase) => `  ${JSON.stringify(testCase)}`);
  writeFileSync(new URL(file, conformanceDir), `[\n${lines.join(",\n")}\n]\n`);
}
