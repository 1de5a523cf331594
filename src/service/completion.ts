import type { Catalog, FieldInfo } from "../catalog/index.js";
import { operatorsFor } from "../check/index.js";
import { CANONICAL_OPERATORS, INFIX_NOT_OPERATORS, OPERATORS } from "../syntax/index.js";
import type { Analysis } from "./analysis.js";
import { type CompletionContext, completionContext, type GrammarState } from "./completion-context.js";
import { datasetCompletions } from "./dataset-completion.js";
import { knownValues } from "./enumerations.js";
import type { CompletionItem, CompletionKind } from "./types.js";

/*
 * Ranking, as the first character of sortText: fields whose name starts with the typed text in
 * the same letter case, then in another case, then keywords, then fields that contain the typed
 * text (from three characters on: shorter runs match too much by chance), then deprecated fields.
 * Within a rank the catalog's (alphabetical) or the grammar's order holds.
 */
const rank = {
  exactPrefix: "0",
  anyCasePrefix: "1",
  keyword: "2",
  substring: "3",
  deprecated: "4",
} as const;

const SUBSTRING_MIN_LENGTH = 3;

interface Candidate {
  label: string;
  kind: CompletionKind;
  detail: string;
  documentation?: string;
  rank: string;
  /** Text inserted in place of the typed word; the label when absent. */
  insert?: string;
  filterText?: string;
  /** For a value of an enumerated field: the value itself, unquoted. */
  value?: string;
}

/** Completion items at `offset`, best first: what the grammar and the catalog allow there, filtered by what is typed. */
export function complete(analysis: Analysis, offset: number): CompletionItem[] {
  if (analysis.tooLong) return [];
  const datasets = datasetCompletions(analysis.scanned, offset);
  if (datasets) return datasets;
  const context = completionContext(analysis.scanned, offset);
  if (!context) return [];
  // A stable sort by rank: within a rank, the order the candidates were made in.
  const candidates = candidatesFor(context, analysis.catalog).sort((a, b) =>
    a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : 0,
  );
  return candidates.map((candidate, index) => ({
    label: candidate.label,
    kind: candidate.kind,
    detail: candidate.detail,
    ...(candidate.documentation ? { documentation: candidate.documentation } : {}),
    sortText: `${candidate.rank}${String(index).padStart(4, "0")}`,
    filterText: candidate.filterText ?? candidate.label,
    edit: {
      range: { start: context.word.start, end: context.word.end },
      newText: candidate.insert ?? candidate.label,
    },
  }));
}

function candidatesFor(context: CompletionContext, catalog: Catalog | undefined): Candidate[] {
  const { state, word } = context;
  const typed = context.inString ? "" : word.text;
  const punctuation = (label: string, detail: string): Candidate[] =>
    typed === "" && !context.inString ? [{ label, kind: "punctuation", detail, rank: rank.keyword }] : [];
  switch (state.kind) {
    case "operand":
      if (context.inString) return [];
      return [
        ...fieldCandidates(catalog, typed),
        ...keywords(typed, [["not", "negates the comparison or group after it"]]),
        ...punctuation("(", "starts a group"),
      ];
    case "operator":
      return context.inString ? [] : operatorCandidates(catalog, state, typed);
    case "value":
      if (state.operator === "in" || state.operator === "!in")
        return punctuation("[", "starts the list of values");
      return valueCandidates(catalog, state.field, context);
    case "element":
      return [
        // Values already in the list are left out: a duplicate is only a warning to fix later.
        ...valueCandidates(catalog, state.field, context).filter(
          (candidate) => candidate.value === undefined || !state.listed.includes(candidate.value),
        ),
        ...(state.afterComma ? punctuation("]", "ends the list") : []),
      ];
    case "afterElement":
      return [...punctuation(",", "separates list values"), ...punctuation("]", "ends the list")];
    case "afterComparison":
      if (context.inString) return [];
      return [
        ...keywords(typed, [
          ["and", "both sides must hold"],
          ["or", "either side must hold"],
        ]),
        ...(context.depth > 0 ? punctuation(")", "ends the group") : []),
      ];
  }
}

function fieldCandidates(catalog: Catalog | undefined, typed: string): Candidate[] {
  if (!catalog) return [];
  const lowerTyped = typed.toLowerCase();
  const candidates: Candidate[] = [];
  for (const field of catalog.fields.values()) {
    if (!field.filterable) continue;
    const lowerName = field.name.toLowerCase();
    const prefix = lowerName.startsWith(lowerTyped);
    if (!prefix && !(typed.length >= SUBSTRING_MIN_LENGTH && lowerName.includes(lowerTyped))) continue;
    const fieldRank = field.deprecated
      ? rank.deprecated
      : field.name.startsWith(typed)
        ? rank.exactPrefix
        : prefix
          ? rank.anyCasePrefix
          : rank.substring;
    candidates.push({
      label: field.name,
      kind: "field",
      detail: field.deprecated ? `${field.docType} (deprecated)` : field.docType,
      documentation: fieldDocumentation(field),
      rank: fieldRank,
    });
  }
  return candidates;
}

export function fieldDocumentation(field: FieldInfo): string {
  const deprecated = field.deprecated ? "\n\nDeprecated." : "";
  return `${field.description}${deprecated}`;
}

function keywords(typed: string, words: [string, string][]): Candidate[] {
  const lowerTyped = typed.toLowerCase();
  return words
    .filter(([word]) => word.startsWith(lowerTyped))
    .map(([word, detail]) => ({ label: word, kind: "keyword", detail, rank: rank.keyword }));
}

function operatorCandidates(
  catalog: Catalog | undefined,
  state: Extract<GrammarState, { kind: "operator" }>,
  typed: string,
): Candidate[] {
  const field = catalog?.fields.get(state.field);
  if (field && !field.filterable) return [];
  // An unknown field (a typo the diagnostics report) still gets every operator.
  const allowed = field ? operatorsFor(field.type) : CANONICAL_OPERATORS;
  const operators = state.afterNot ? INFIX_NOT_OPERATORS.filter((op) => allowed.includes(op)) : allowed;
  const lowerTyped = typed.toLowerCase();
  return operators
    .filter((op) => op.toLowerCase().startsWith(lowerTyped))
    .map((op) => ({
      label: op,
      kind: "operator",
      detail: OPERATORS[state.afterNot ? OPERATORS[op].negation : op].meaning,
      rank: rank.exactPrefix,
    }));
}

function valueCandidates(
  catalog: Catalog | undefined,
  fieldName: string,
  context: CompletionContext,
): Candidate[] {
  const field = catalog?.fields.get(fieldName);
  if (!catalog || !field) return [];
  if (field.type === "bool") {
    if (context.inString) return [];
    return ["true", "false"]
      .filter((value) => value.startsWith(context.word.text.toLowerCase()))
      .map((value) => ({ label: value, kind: "value", detail: "bool", rank: rank.exactPrefix }));
  }
  const values = knownValues(catalog.dataset, field);
  const quote = context.inString ? context.word.text[0]! : '"';
  const typed = (context.inString ? context.word.text.slice(1) : context.word.text).toLowerCase();
  return values
    .filter((value) => value.toLowerCase().startsWith(typed))
    .map((value) => ({
      label: JSON.stringify(value),
      kind: "value",
      detail: `${field.name} value`,
      rank: rank.exactPrefix,
      insert: `${quote}${value}${quote}`,
      value,
      filterText: context.inString ? `${quote}${value}` : value,
    }));
}
