/**
 * `filterc check --format sarif`: the diagnostics as a SARIF 2.1.0 log, the format code-scanning
 * tools read (GitHub's among them) to show findings in a pull request's diff. One run of one tool;
 * a rule per code reported, with its meaning from the language reference as help; a result per
 * diagnostic, with its region, the other places it names and its fix as a replacement.
 */
import { isAbsolute, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { version } from "../../package.json";
import {
  type Diagnostic,
  DiagnosticKind,
  type Range,
  type Severity,
  terminalJson,
} from "../diagnostics/index.js";
import { readReference } from "./diagnostic-reference.js";

/** A file checked and what was found in it, as the reports take it. */
export interface ReportedFile {
  /** The file as the user named it (relative to the current folder), or `<stdin>`. */
  name: string;
  diagnostics: readonly Diagnostic[];
}

const SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

const levels: Record<Severity, "error" | "warning" | "note"> = {
  error: "error",
  warning: "warning",
  note: "note",
};

/** The kind's name of each code (`E0202` → `FieldCase`), the rule's `name`. */
const kindNames = new Map(Object.entries(DiagnosticKind).map(([name, kind]) => [kind.code, name]));

/**
 * A file's SARIF `uri`: a relative reference with `/` between percent-encoded segments for a file
 * under the current folder (code-scanning tools resolve it against the checkout), a `file:` URL
 * for one elsewhere; standard input has no file and is named as it is shown.
 */
export function artifactUri(name: string, cwd: string): string {
  if (name === "<stdin>") return encodeURIComponent(name);
  const path = isAbsolute(name) ? name : undefined;
  const inside = path === undefined ? name : relative(cwd, path);
  if (path !== undefined && (inside.startsWith("..") || isAbsolute(inside))) return pathToFileURL(path).href;
  return inside.split(sep).join("/").split("/").map(encodeURIComponent).join("/");
}

/** A range as a SARIF region: 1-based lines and columns in UTF-16 code units, the end column exclusive as filterc's. */
function region(range: Range) {
  return {
    startLine: range.start.line,
    startColumn: range.start.column,
    endLine: range.end.line,
    endColumn: range.end.column,
  };
}

function location(uri: string, range: Range) {
  return { physicalLocation: { artifactLocation: { uri }, region: region(range) } };
}

/** A rule's help: the reference's meaning and example, or, for a code it has no row for, the message. */
function rule(
  code: string,
  severity: Severity,
  firstMessage: string,
  reference: ReturnType<typeof readReference>,
) {
  const row = reference.get(code);
  const meaning = row?.meaning ?? firstMessage;
  const plain = (markdown: string) => markdown.replace(/`([^`]*)`/g, "$1");
  const example = row?.example ? `\n\nExample: ${row.example}` : "";
  return {
    id: code,
    ...(kindNames.has(code) ? { name: kindNames.get(code) } : {}),
    shortDescription: { text: plain(meaning) },
    fullDescription: { text: plain(meaning) },
    help: {
      text: `${code}: ${plain(meaning)}.${plain(example)}\nThe language reference (grammar/REFERENCE.md) lists every code.`,
      markdown: `**${code}**: ${meaning}.${example}\n\nThe language reference (grammar/REFERENCE.md) lists every code.`,
    },
    defaultConfiguration: { level: levels[severity] },
  };
}

/** The SARIF log of the files' diagnostics, as JSON text fit for a terminal. */
export function sarifLog(files: readonly ReportedFile[], cwd: string): string {
  const reference = readReference();
  const rules: ReturnType<typeof rule>[] = [];
  const ruleIndex = new Map<string, number>();
  const results = files.flatMap((file) => {
    const uri = artifactUri(file.name, cwd);
    return file.diagnostics.map((d) => {
      let index = ruleIndex.get(d.code);
      if (index === undefined) {
        index = rules.push(rule(d.code, d.severity, d.message, reference)) - 1;
        ruleIndex.set(d.code, index);
      }
      const result: Record<string, unknown> = {
        ruleId: d.code,
        ruleIndex: index,
        level: levels[d.severity],
        message: { text: d.message },
        locations: [location(uri, d.range)],
      };
      if (d.related && d.related.length > 0)
        result["relatedLocations"] = d.related.map((related, id) => ({
          id,
          ...location(uri, related.range),
          message: { text: related.message },
        }));
      if (d.suggestion)
        result["fixes"] = [
          {
            description: { text: d.suggestion.message },
            artifactChanges: [
              {
                artifactLocation: { uri },
                replacements: [
                  {
                    deletedRegion: region(d.suggestion.range),
                    insertedContent: { text: d.suggestion.replacement },
                  },
                ],
              },
            ],
          },
        ];
      return result;
    });
  });
  return terminalJson({
    $schema: SARIF_SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "filterc", version, semanticVersion: version, rules } },
        columnKind: "utf16CodeUnits",
        results,
      },
    ],
  });
}
