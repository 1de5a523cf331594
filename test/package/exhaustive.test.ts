import { relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { sourceFiles, src } from "../helpers/sources.js";

/*
 * An operator, a node kind, a field type or a column kind is declared once, and the compiler finds
 * every place that must handle a new one: every switch over such a set names each member in a case
 * and hides none behind a `default:`, whose only use is the never check (`unreachable(x)`, which
 * does not type-check while a member lacks its case). Type-checked, so a switch over a narrowed
 * operator (the string operators, say) is held to that narrower set.
 */

const program = ts.createProgram(sourceFiles(src), {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  resolveJsonModule: true,
  skipLibCheck: true,
  types: [],
});
const checker = program.getTypeChecker();

/** The string literals a type is a union of. */
const literalsOf = (type: ts.Type): string[] =>
  (type.isUnion() ? type.types : [type]).flatMap((member) =>
    member.isStringLiteral() ? [member.value] : [],
  );

/** The literals of an exported type of a module of src/, or of its members' `property`. */
function declared(file: string, name: string, property?: string): string[] {
  const source = program.getSourceFile(`${src}${file}`)!;
  const symbol = checker
    .getExportsOfModule(checker.getSymbolAtLocation(source)!)
    .find((s) => s.name === name)!;
  const type = checker.getDeclaredTypeOfSymbol(symbol);
  if (property === undefined) return literalsOf(type);
  return (type.isUnion() ? type.types : [type]).flatMap((member) => {
    const kind = member.getProperty(property);
    return kind ? literalsOf(checker.getTypeOfSymbol(kind)) : [];
  });
}

/** The closed sets whose switches must be exhaustive, by name. */
const closedSets: Record<string, Set<string>> = {
  operators: new Set(declared("syntax/vocabulary.ts", "CanonicalOperator")),
  "condition kinds": new Set(declared("check/ir.ts", "Cond", "kind")),
  "scalar kinds": new Set(declared("check/ir.ts", "ScalarValue", "kind")),
  "AST node kinds": new Set(declared("syntax/ast.ts", "Node", "kind")),
  "field types": new Set(declared("catalog/catalog.ts", "FieldType")),
  "column kinds": new Set(declared("sql/columns.ts", "ColumnKind")),
};

interface Finding {
  place: string;
  set: string;
  missing: string[];
  hiddenByDefault: boolean;
}

/** Whether a default clause is the never check alone. */
function isNeverCheck(clause: ts.DefaultClause): boolean {
  if (clause.statements.length !== 1) return false;
  const statement = clause.statements[0]!;
  const call = ts.isReturnStatement(statement)
    ? statement.expression
    : ts.isExpressionStatement(statement)
      ? statement.expression
      : undefined;
  return call !== undefined && ts.isCallExpression(call) && call.expression.getText() === "unreachable";
}

const findings: Finding[] = [];
let switches = 0;
for (const file of program.getSourceFiles()) {
  if (!file.fileName.startsWith(src)) continue;
  const visit = (node: ts.Node): void => {
    if (ts.isSwitchStatement(node)) {
      const members = literalsOf(checker.getTypeAtLocation(node.expression));
      const set = Object.entries(closedSets).find(
        ([, closed]) => members.length > 1 && members.every((member) => closed.has(member)),
      )?.[0];
      if (set !== undefined) {
        switches++;
        const cases = node.caseBlock.clauses.flatMap((clause) =>
          ts.isCaseClause(clause) ? literalsOf(checker.getTypeAtLocation(clause.expression)) : [],
        );
        const fallback = node.caseBlock.clauses.find(ts.isDefaultClause);
        const missing = members.filter((member) => !cases.includes(member));
        const hiddenByDefault = fallback !== undefined && !isNeverCheck(fallback);
        if (missing.length > 0 || hiddenByDefault) {
          const { line } = file.getLineAndCharacterOfPosition(node.getStart());
          findings.push({
            place: `${relative(src, file.fileName)}:${line + 1}`,
            set,
            missing,
            hiddenByDefault,
          });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

describe("switches over what the vocabulary and the types declare", () => {
  it("finds the closed sets in the source", () => {
    expect(closedSets["operators"]!.size).toBeGreaterThan(10);
    expect([...closedSets["condition kinds"]!].sort()).toEqual(["and", "leaf", "not", "or"]);
    expect(switches).toBeGreaterThan(30);
  });

  it("names every member in a case, with no default but the never check", () => {
    expect(findings).toEqual([]);
  });
});
