import type { CompileResult } from "../compile.js";
import { toHclStringLiteral } from "../emit/index.js";
import { explain } from "../print/index.js";
import type { CompileAnswer } from "./protocol.js";

/** The `filterc/compile` answer for a document's compile, checked against `dataset`. */
export function compileAnswer(compiled: CompileResult, dataset: string): CompileAnswer {
  const count = (severity: string) => compiled.diagnostics.filter((d) => d.severity === severity).length;
  return {
    dataset: compiled.catalog?.dataset ?? dataset,
    ok: compiled.ok,
    filter: compiled.filter,
    terraform: compiled.filter === null ? null : toHclStringLiteral(compiled.filter),
    explanation: compiled.ok ? explain(compiled.meaning, compiled.stats) : null,
    stats: { ...compiled.stats },
    errors: count("error"),
    warnings: count("warning"),
  };
}
