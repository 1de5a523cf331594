import { describe, expect, it } from "vitest";
import { getCatalog } from "../../src/catalog/index.js";
import { check, toNegationNormalForm } from "../../src/check/index.js";
import { compile } from "../../src/compile.js";
import { decompile } from "../../src/decompile/index.js";
import { createLanguageService } from "../../src/service/index.js";
import { withCursor } from "../service/cursor.js";

describe("one analysis, passed forward", () => {
  it("exposes the checked condition, its negation normal form and the catalog on the compile result", () => {
    const result = compile('not (EdgeResponseStatus eq 200 or ClientRequestHost eq "a")');
    expect(result.catalog).toBe(getCatalog("http_requests"));
    expect(result.condition?.kind).toBe("not");
    expect(result.meaning).toEqual(toNegationNormalForm(result.condition!));
    expect(result.meaning?.kind).toBe("and");
    expect(result.comparisons.map((leaf) => `${leaf.field.name} ${leaf.operator}`)).toEqual([
      "EdgeResponseStatus eq",
      "ClientRequestHost eq",
    ]);
    expect(result.filter).toBe(
      '{"where":{"and":[{"key":"EdgeResponseStatus","operator":"!eq","value":"200"},{"key":"ClientRequestHost","operator":"!eq","value":"a"}]}}',
    );
  });

  it("keeps the comparisons that checked when another one did not", () => {
    const result = check("BotScore lt 30 and NoSuchField eq 1");
    expect(result.condition).toBeNull();
    expect(result.meaning).toBeNull();
    expect(result.comparisons.map((leaf) => leaf.range.start.offset)).toEqual([0]);
  });

  it("gives the decompiler the compiler's warnings for the same filter", () => {
    const source = 'ClientRequestHost eq "1" and ClientRequestHost eq "2"';
    const compiled = compile(source);
    const decompiled = decompile(compiled.filter);
    expect(compiled.diagnostics.map((d) => d.code)).toEqual(["W0103"]);
    expect(decompiled.diagnostics.map((d) => d.code)).toEqual(["W0103"]);
  });

  it("shows a comparison's JSON on hover from the analysis, even where another comparison is broken", () => {
    const service = createLanguageService();
    const { text, offset } = withCursor("not (BotSc<|>ore lt 30) and NoSuchField eq 1");
    expect(service.hover(text, offset)?.contents).toBe(
      '**BotScore**: `int`\n\nBot Management score; low values suggest automation.\n\nEmits (negated by the enclosing `not`):\n```json\n{"key":"BotScore","operator":"geq","value":"30"}\n```',
    );
  });
});
