import { DEFAULT_DATASET, getCatalog } from "../catalog/index.js";
import { diagnose } from "../diagnostics/index.js";
import { checkFilter, type FileDiagnostic, type FilterCheckOptions } from "./filter-check.js";
import type { Body, Call, Expr, HclFile } from "./hcl-ast.js";
import { type SourceFile, siteRange } from "./source-file.js";
import { evaluate, type Scope } from "./values.js";

/** Where a filter is written: its `jsonencode` call's file and offset, to check each filter once. */
const filterPlace = (file: SourceFile, start: number) => `${file.path}:${start}`;

/** How many variables and locals a job's filter is followed through to its `jsonencode` call. */
const MAX_REFERENCES = 16;

/**
 * The place of the `jsonencode` call a job's filter argument is, directly or through variables
 * and locals (read or not: a filter a job names is the job's to report, never a loose one).
 */
export function jobFilterPlace(expr: Expr, file: SourceFile, scope: Scope): string | undefined {
  let at = { expr, file };
  for (let depth = 0; depth <= MAX_REFERENCES; depth++) {
    if (at.expr.kind === "call") return filterPlace(at.file, at.expr.start);
    const { expr: written } = at;
    if (written.kind !== "access" || written.target.kind !== "variable" || written.key.kind !== "attribute")
      return undefined;
    const root = written.target.name;
    const found =
      root === "var"
        ? scope.variable(written.key.name)
        : root === "local"
          ? scope.local(written.key.name)
          : undefined;
    if (!found) return undefined;
    at = found;
  }
  return undefined;
}

/** What stands beside a value: the other arguments of its body, or the other keys of its object. */
type Siblings = ReadonlyMap<string, Expr>;

/**
 * The filters written outside a job's `filter` argument: every `jsonencode({ where = … })` in the
 * files (a local, a module's argument, a variable's default, a map of jobs), those in `checked`
 * (already read as a job's filter) left out. Each is checked against the dataset that a `dataset`
 * beside it names as a string, or else against http_requests with a note (W0903) that says so.
 */
export async function checkLooseFilters(
  files: readonly HclFile[],
  scope: Scope,
  checked: ReadonlySet<string>,
  options: Omit<FilterCheckOptions, "dataset">,
): Promise<FileDiagnostic[]> {
  const found: FileDiagnostic[] = [];
  const check = async (call: Call, file: SourceFile, siblings: Siblings) => {
    if (checked.has(filterPlace(file, call.start))) return;
    const value = await evaluate(call, file, scope);
    if (value.kind === "unread") {
      found.push({
        file: value.site.file,
        diagnostic: diagnose("NotReadStatically", siteRange(value.site), {
          what: "the filter written as jsonencode({ where = … })",
          reason: `${value.what}: ${value.reason}`,
        }),
      });
      return;
    }
    if (value.kind !== "string") return;
    const dataset = await datasetBeside(siblings, file, scope);
    if (dataset === undefined)
      found.push({
        file,
        diagnostic: diagnose(
          "FilterDatasetUnknown",
          file.rangeOf(call.start, call.start + call.name.length),
          { dataset: DEFAULT_DATASET },
        ),
      });
    found.push(...checkFilter(value, { ...options, dataset: dataset ?? DEFAULT_DATASET }));
  };
  const walk = async (expr: Expr, file: SourceFile, siblings: Siblings): Promise<void> => {
    if (isFilterCall(expr)) return check(expr, file, siblings);
    for (const [inner, beside] of children(expr)) await walk(inner, file, beside);
  };
  const walkBody = async (body: Body, file: SourceFile): Promise<void> => {
    const siblings = new Map<string, Expr>();
    for (const item of body.items) if (item.kind === "attribute") siblings.set(item.name, item.value);
    for (const item of body.items)
      if (item.kind === "attribute") await walk(item.value, file, siblings);
      else await walkBody(item.body, file);
  };
  for (const hcl of files) await walkBody(hcl.body, hcl.source);
  return found;
}

/** `jsonencode({ where = … })`: an object with a `where` key, encoded. */
function isFilterCall(expr: Expr): expr is Call {
  if (expr.kind !== "call" || expr.name !== "jsonencode" || expr.args.length !== 1) return false;
  const [argument] = expr.args;
  return (
    argument?.kind === "object" &&
    argument.items.some((item) => item.key.kind === "name" && item.key.name.text === "where")
  );
}

const NONE: Siblings = new Map();

/** The expressions inside one, each with what stands beside it (an object's other keys). */
function children(expr: Expr): [Expr, Siblings][] {
  switch (expr.kind) {
    case "tuple":
      return expr.elements.map((element) => [element, NONE]);
    case "object": {
      const siblings = new Map<string, Expr>();
      for (const item of expr.items)
        if (item.key.kind === "name") siblings.set(item.key.name.text, item.value);
      return expr.items.flatMap((item): [Expr, Siblings][] => [
        ...(item.key.kind === "expression" ? [[item.key.expr, NONE] as [Expr, Siblings]] : []),
        [item.value, siblings],
      ]);
    }
    case "template":
      return expr.parts.flatMap((part): [Expr, Siblings][] =>
        part.kind === "interpolation"
          ? [[part.expr, NONE]]
          : part.kind === "directive"
            ? part.parts.map((inner) => [inner, NONE])
            : [],
      );
    case "call":
      return expr.args.map((argument) => [argument, NONE]);
    case "access":
      return [
        [expr.target, NONE],
        ...(expr.key.kind === "index" ? [[expr.key.expr, NONE] as [Expr, Siblings]] : []),
      ];
    case "dynamic":
      return expr.parts.map((part) => [part, NONE]);
    default:
      return [];
  }
}

/** The dataset a `dataset` beside the filter names, when it is a string known statically and a dataset's name. */
async function datasetBeside(
  siblings: Siblings,
  file: SourceFile,
  scope: Scope,
): Promise<string | undefined> {
  const written = siblings.get("dataset");
  const value = written && (await evaluate(written, file, scope));
  return value?.kind === "string" && getCatalog(value.value.text) ? value.value.text : undefined;
}
