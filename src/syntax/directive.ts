import type { IToken } from "chevrotain";
import { datasetNames } from "../catalog/index.js";
import { type Diagnostic, diagnose } from "../diagnostics/index.js";
import type { DatasetDirective } from "./ast.js";
import { shift, tokenRange } from "./nodes.js";

/** `# dataset:`, the keyword in small letters as the docs write it; blanks around it are free. */
const DIRECTIVE = /^#[ \t]*dataset[ \t]*:[ \t]*/;

/**
 * A comment that reads like a directive but is not one (`# Dataset: x`, `# dataset x`,
 * `# data-set = x`); it is told only when the word after it is a dataset's name.
 */
const NEAR_MISS = /^#[ \t]*data[ _-]?sets?[ \t]*[:=]?[ \t]*([A-Za-z0-9_]+)[ \t]*$/i;

/** Where the name of a `# dataset:` comment starts (`at`, in the comment's text) and the name; undefined for other comments. */
export function directiveName(comment: string): { at: number; name: string } | undefined {
  const keyword = DIRECTIVE.exec(comment);
  return keyword ? { at: keyword[0].length, name: comment.slice(keyword[0].length).trimEnd() } : undefined;
}

/** What the comments before the filter say about its dataset, and the problems with how they say it. */
export interface DirectiveReading {
  directive: DatasetDirective | undefined;
  diagnostics: Diagnostic[];
}

/**
 * Reads the `# dataset: NAME` directive from a source's comments: it names the dataset of the whole
 * source, so it stands before the first token. A directive after that (E0007), a second one
 * (E0009) or one without a name (E0010) is an error; a near miss before the filter is a warning
 * (W0122) whose fix writes the directive.
 */
export function readDirective(comments: readonly IToken[], tokens: readonly IToken[]): DirectiveReading {
  const filterStart = tokens[0]?.startOffset ?? Number.POSITIVE_INFINITY;
  const diagnostics: Diagnostic[] = [];
  let first: IToken | undefined;
  let directive: DatasetDirective | undefined;
  const nearMisses: IToken[] = [];
  for (const comment of comments) {
    const named = directiveName(comment.image);
    if (!named) {
      if (comment.startOffset < filterStart) nearMisses.push(comment);
      continue;
    }
    const range = tokenRange(comment);
    if (comment.startOffset > filterStart) diagnostics.push(diagnose("DirectiveAfterFilter", range, {}));
    else if (first)
      diagnostics.push(diagnose("DuplicateDirective", range, {}, undefined, [tokenRange(first)]));
    else {
      first = comment;
      if (named.name === "") diagnostics.push(diagnose("EmptyDirective", range, {}));
      else {
        const start = shift(range.start, named.at);
        directive = { dataset: named.name, range: { start, end: shift(start, named.name.length) } };
      }
    }
  }
  if (!first) for (const comment of nearMisses) warnNearMiss(comment, diagnostics);
  return { directive, diagnostics };
}

function warnNearMiss(comment: IToken, diagnostics: Diagnostic[]): void {
  const word = NEAR_MISS.exec(comment.image)?.[1]?.toLowerCase();
  const dataset = word === undefined ? undefined : datasetNames.find((name) => name === word);
  if (dataset === undefined) return;
  const range = tokenRange(comment);
  const replacement = `# dataset: ${dataset}`;
  diagnostics.push(
    diagnose("NearMissDirective", range, { dataset }, { message: "write the directive", range, replacement }),
  );
}
