import type { CustomFieldsLimit } from "../api/index.js";
/**
 * `filterc check` on several files at once (filter files and Terraform files and folders, mixed, as
 * a pre-commit hook passes them) and in the formats CI tools read: text for a person, JSON, SARIF
 * 2.1.0 for code scanning, GitHub Actions workflow commands for annotations in a pull request.
 */

import type { CompileOptions } from "../compile.js";
import { compile } from "../compile.js";
import {
  type Diagnostic,
  type DiagnosticSettings,
  renderDiagnostics,
  terminalJson,
  terminalName,
} from "../diagnostics/index.js";
import type { FilterStats } from "../emit/index.js";
import type { CheckFormat } from "./check-format.js";
import { checkTerraformFiles } from "./check-terraform.js";
import { withFolderDefaults } from "./compiler-options.js";
import { countsLine, diagnosticsJson, statsLine } from "./diagnostics-output.js";
import { githubAnnotations } from "./github-annotations.js";
import { type CliIO, readSource, UsageError, useColor } from "./io.js";
import { type ReportedFile, sarifLog } from "./sarif.js";

/** A file checked: what the report names and shows, with a filter file's use of the limits. */
interface CheckedEntry extends ReportedFile {
  /** The text excerpts are taken from (a Terraform file's with destinations' credentials masked). */
  shown: string;
  /** A filter file's use of the limits; undefined for a Terraform file. */
  stats?: FilterStats;
  /** A filter file with no filter in it (only blanks and comments). */
  empty?: boolean;
}

export interface CheckRun {
  terraform: readonly string[];
  filters: readonly string[];
  format: CheckFormat;
  fix: boolean;
  compileOptions: CompileOptions;
  maxOperators: number | undefined;
  maxBytes: number | undefined;
  /** The limits custom-field rules are held to (--custom-fields-limit). */
  customFieldsLimit: CustomFieldsLimit;
  /** The flags' levels, over each Terraform file's folder's filterc.json `diagnostics`. */
  diagnostics: DiagnosticSettings | undefined;
}

/** Checks every file named and reports them all in one format; exit 1 when any has an error. */
export async function checkFiles(io: CliIO, run: CheckRun): Promise<number> {
  if (run.filters.filter((file) => file === "-").length > 1)
    throw new UsageError("standard input can be read only once: give - once");
  const entries: CheckedEntry[] = [];
  let terraformFiles = 0;
  if (run.terraform.length > 0) {
    // A report on stdout keeps it to itself: the fixes written are told on stderr.
    const tell = run.format === "text" ? io.stdout : io.stderr;
    const { fix, maxOperators, maxBytes, customFieldsLimit, diagnostics } = run;
    const options = { fix, maxOperators, maxBytes, customFieldsLimit, diagnostics };
    const files = await checkTerraformFiles(io, run.terraform, options, tell);
    terraformFiles = files.length;
    for (const file of files)
      if (file.diagnostics.length > 0)
        entries.push({ name: file.file.name, diagnostics: file.diagnostics, shown: file.shown });
  }
  for (const file of run.filters) {
    const input = await readSource(io, file);
    const result = compile(input.text, await withFolderDefaults(io, run.compileOptions, file));
    entries.push({
      name: input.name,
      diagnostics: result.diagnostics,
      shown: input.text,
      stats: result.stats,
      empty: result.ok && result.filter === null,
    });
  }
  const all: Diagnostic[] = entries.flatMap((entry) => [...entry.diagnostics]);
  const ok = !all.some((d) => d.severity === "error");
  switch (run.format) {
    case "sarif":
      io.stdout(`${sarifLog(entries, io.cwd)}\n`);
      break;
    case "github":
      io.stdout(githubAnnotations(entries));
      if (all.length > 0) io.stderr(`${countsLine(all)}\n`);
      break;
    case "json":
      io.stdout(
        `${terminalJson({
          ok,
          files: entries.map((entry) => ({
            file: entry.name,
            ...(entry.stats ? { stats: entry.stats } : {}),
            diagnostics: diagnosticsJson(entry.diagnostics),
          })),
        })}\n`,
      );
      break;
    case "text": {
      const rendered = entries
        .filter((entry) => entry.diagnostics.length > 0)
        .map((entry) =>
          renderDiagnostics(entry.diagnostics, entry.shown, { fileName: entry.name, color: useColor(io) }),
        );
      if (rendered.length > 0) io.stderr(rendered.join("\n"));
      if (all.length > 0) io.stderr(`${countsLine(all)}\n`);
      if (!ok) break;
      for (const entry of entries)
        if (entry.stats)
          io.stdout(
            `ok: ${terminalName(entry.name)}: ${entry.empty ? "empty filter (no filter)" : statsLine(entry.stats)}\n`,
          );
      if (run.terraform.length > 0)
        io.stdout(`ok: ${terraformFiles} Terraform file${terraformFiles === 1 ? "" : "s"} checked\n`);
      break;
    }
  }
  return ok ? 0 : 1;
}
