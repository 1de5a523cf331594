import type { Leaf, Meaning, ScalarValue } from "../check/ir.js";
import { unreachable } from "../diagnostics/arguments.js";
import { isNegativeOperator, isOperatorOn, OPERATORS } from "../syntax/vocabulary.js";

/**
 * A test on the raw text of a log line that rejects lines which cannot match, before any JSON
 * parsing. A filter that needs `ClientCountry eq "us"` cannot match a line without the text
 * `"us"`. This is certain only when the line has no backslash: then every JSON string in it is
 * written literally, so a value the record holds appears verbatim in the line.
 *
 * The requirement is a conjunction of clauses; a clause is a list of texts of which at least
 * one must appear. Numbers get no clause (500 can be written "500", 500 or 5e2).
 */
type Clause = string[];

/** Returns a function that is true for lines that certainly do not match, or undefined when the filter gives no clue. */
export function compileLineRejecter(meaning: Meaning): ((line: string) => boolean) | undefined {
  const clauses = requiredTexts(meaning);
  if (clauses.length === 0) return undefined;
  if (clauses.length === 1 && clauses[0]!.length === 1) {
    const needle = clauses[0]![0]!;
    return (line) => !line.includes(needle) && !line.includes("\\");
  }
  return (line) => {
    for (let c = 0; c < clauses.length; c++) {
      const clause = clauses[c]!;
      let found = false;
      for (let n = 0; n < clause.length; n++) {
        if (line.includes(clause[n]!)) {
          found = true;
          break;
        }
      }
      if (!found) return !line.includes("\\");
    }
    return false;
  };
}

/** The clauses every matching line satisfies: only a positive comparison needs a text (a `!` one holds without the field). */
function requiredTexts(cond: Meaning): Clause[] {
  switch (cond.kind) {
    case "leaf": {
      const clause = isNegativeOperator(cond.operator) ? undefined : leafClause(cond);
      return clause ? [clause] : [];
    }
    case "and":
    case "or": {
      const children = cond.operands.map(requiredTexts);
      // `and` needs every child's clauses; `or` needs one of them: the union of one clause each.
      if (cond.kind === "and") return children.flat();
      if (children.some((clauses) => clauses.length === 0)) return [];
      return [children.flatMap((clauses) => clauses[0]!)];
    }
  }
}

/** Characters a JSON string must escape: a value holding one never appears verbatim. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/;

/** The texts one of which a line passing a positive comparison holds. */
function leafClause(leaf: Leaf): Clause | undefined {
  const values = Array.isArray(leaf.value) ? leaf.value : [leaf.value];
  if (leaf.field.type === "bool") return [boolText(values[0]!)];
  const stringElements = leaf.field.type === "string" || leaf.field.elementType === "string";
  if (!stringElements) return undefined;
  const texts = values.map((value) => (value.kind === "string" ? value.value : ""));
  if (texts.some((text) => NEEDS_ESCAPE.test(text))) return undefined;
  if (leaf.field.type === "array") return texts.map((text) => `"${text}"`);
  const { positive } = OPERATORS[leaf.operator];
  if (!isOperatorOn(positive, "string")) return undefined;
  switch (positive) {
    case "eq":
    case "in":
      return texts.map((text) => `"${text}"`);
    case "startsWith":
      return [`"${texts[0]}`];
    case "endsWith":
      return [`${texts[0]}"`];
    case "contains":
      return texts[0] === "" ? undefined : [texts[0]!];
    default:
      return unreachable(positive);
  }
}

const boolText = (value: ScalarValue) => (value.kind === "bool" && value.value ? "true" : "false");
