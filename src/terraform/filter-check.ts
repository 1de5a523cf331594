import { isSafeFix } from "../check/index.js";
import { type Diagnostic, diagnose, type Range, type Suggestion } from "../diagnostics/index.js";
import { loadFilter } from "../load/index.js";
import { heredocHcl, quotedHcl } from "./hcl-strings.js";
import { hclOfJson } from "./hcl-text.js";
import { shortString } from "./short-string.js";
import { type Site, type SourceFile, siteRange } from "./source-file.js";
import type { StaticValue } from "./values.js";

/** A diagnostic in a file of the configuration (a `.tf` file, or a JSON file `file()` reads). */
export interface FileDiagnostic {
  file: SourceFile;
  diagnostic: Diagnostic;
  /** Its suggestion is a safe fix, which `--fix` applies: it keeps the meaning the user wrote. */
  safeFix?: true;
}

export interface FilterCheckOptions {
  dataset: string;
  maxOperators?: number | undefined;
  maxBytes?: number | undefined;
}

/**
 * Checks a job's filter, read as the string the provider sends, with the decompiler's checks and
 * the limits. Each problem is moved from the JSON text to where its characters are written
 * (through escapes, heredoc indentation and the HCL object `jsonencode` encodes), and so is each
 * suggested fix, rewritten in the syntax of its place.
 */
export function checkFilter(
  filter: Extract<StaticValue, { kind: "string" }>,
  options: FilterCheckOptions,
): FileDiagnostic[] {
  const loaded = loadFilter(filter.value.text, {
    form: "json",
    dataset: options.dataset,
    optimize: false,
    ...(options.maxOperators !== undefined && { maxOperators: options.maxOperators }),
    ...(options.maxBytes !== undefined && { maxBytes: options.maxBytes }),
  });
  const foreign = filter.read && loaded.diagnostics.find(notAFilter);
  if (filter.read && foreign) return [notAFilterFile(filter.read, foreign, filter.site)];
  return loaded.diagnostics.map((diagnostic) => placed(diagnostic, filter));
}

/**
 * What says a text holds no filter at all: no JSON (E0502), too deep or long, not a filter's
 * shape, or an object with neither `where` nor what a comparison or group has (E0504 with no
 * wrap to suggest: another program's settings, say).
 */
const notAFilter = (d: Diagnostic) =>
  ["E0002", "E0501", "E0502", "E0503"].includes(d.code) || (d.code === "E0504" && !d.suggestion);

/** The most characters of a file that holds no filter shown: its start, which tells which file it is. */
const FOREIGN_EXCERPT = 32;

/**
 * A file `file()` reads that holds no filter (a wrong path, another file's contents): one error
 * at the `file()` call, with only its first characters escaped, never its lines as excerpts.
 */
function notAFilterFile(read: SourceFile, first: Diagnostic, site: Site): FileDiagnostic {
  const firstLine = read.text.split(/\r?\n/, 1)[0] ?? "";
  return {
    file: site.file,
    diagnostic: diagnose("FileNotFilter", siteRange(site), {
      file: read.name,
      problem: `${first.message} at ${first.range.start.line}:${first.range.start.column}`,
      start: shortString(firstLine, FOREIGN_EXCERPT),
    }),
  };
}

function placed(diagnostic: Diagnostic, filter: Extract<StaticValue, { kind: "string" }>): FileDiagnostic {
  const mapped = filter.value;
  const site = mapped.siteOf(diagnostic.range.start.offset, diagnostic.range.end.offset);
  const moved: Diagnostic = { ...diagnostic, range: siteRange(site) };
  delete moved.suggestion;
  if (diagnostic.related) {
    moved.related = diagnostic.related.flatMap((related) => {
      const at = mapped.siteOf(related.range.start.offset, related.range.end.offset);
      return at.file === site.file ? [{ ...related, range: siteRange(at) }] : [];
    });
    if (moved.related.length === 0) delete moved.related;
  }
  const suggestion = diagnostic.suggestion && placedSuggestion(diagnostic.suggestion, filter);
  if (!suggestion || suggestion.file !== site.file) return { file: site.file, diagnostic: moved };
  moved.suggestion = { message: diagnostic.suggestion!.message, ...suggestion.edit };
  // The fixes --fix applies are filter source's (isSafeFix), judged on the JSON text.
  return isSafeFix(diagnostic, mapped.text)
    ? { file: site.file, diagnostic: moved, safeFix: true }
    : { file: site.file, diagnostic: moved };
}

/** A suggested replacement in the JSON text, as an edit of the file where that text is written. */
function placedSuggestion(
  suggestion: Suggestion,
  filter: Extract<StaticValue, { kind: "string" }>,
): { file: SourceFile; edit: { range: Range; replacement: string } } | undefined {
  const start = suggestion.range.start.offset;
  const end = suggestion.range.end.offset;
  const mapped = filter.value;
  if (filter.encoded) {
    // jsonencode: only a whole encoded value is replaced, by the HCL that encodes the replacement.
    const piece = filter.encoded.find((candidate) => candidate.start === start && candidate.end === end);
    if (!piece) return undefined;
    const replacement = hclReplacement(
      suggestion.replacement,
      mapped.text.slice(start, end),
      piece.value.site,
    );
    return replacement === undefined ? undefined : edit(piece.value.site, replacement);
  }
  const written = mapped.editableAs(start, end);
  if (written === undefined) return undefined;
  const site = mapped.siteOf(start, end);
  const isHcl = /\.tf(vars)?$/.test(site.file.name);
  const replacement =
    written === "quoted"
      ? quotedHcl(suggestion.replacement)
      : isHcl
        ? heredocHcl(suggestion.replacement)
        : suggestion.replacement;
  return edit(site, replacement);
}

const edit = (site: Site, replacement: string) => ({
  file: site.file,
  edit: { range: siteRange(site), replacement },
});

/**
 * The HCL for a replacement JSON value: the value written as HCL, except that wrapping the
 * value in `{"where": …}` keeps it as written and wraps it in `{ where = … }`.
 */
function hclReplacement(replacement: string, replaced: string, site: Site): string | undefined {
  if (replacement === `{"where":${replaced}}`)
    return `{ where = ${site.file.text.slice(site.start, site.end)} }`;
  return hclOfJson(replacement);
}
