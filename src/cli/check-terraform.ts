import { resolve } from "node:path";
import type { CustomFieldsLimit } from "../api/index.js";
import {
  type Diagnostic,
  type DiagnosticSettings,
  mergeSettings,
  renderDiagnostics,
  terminalName,
  terminalText,
} from "../diagnostics/index.js";
import { type CheckedFile, checkTerraform, TooManyTerraformFiles, writeFixes } from "../terraform/index.js";
import { configLookup, folderDefaults } from "./compiler-options.js";
import { countsLine, diagnosticsJson } from "./diagnostics-output.js";
import { type CliIO, UserError, useColor } from "./io.js";

/** Rounds of `--fix`: each applies the fixes that do not overlap, and the file is checked again. */
export const MAX_FIX_ROUNDS = 10;

export interface TerraformRunOptions {
  fix: boolean;
  json: boolean;
  maxOperators: number | undefined;
  maxBytes: number | undefined;
  /** The limits custom-field rules are held to (--custom-fields-limit). */
  customFieldsLimit: CustomFieldsLimit;
  /** The flags' levels, over each file's folder's filterc.json `diagnostics`. */
  diagnostics: DiagnosticSettings | undefined;
}

/**
 * The Terraform files and folders checked, every finding at its place. With `fix`, the safe fixes
 * are written first, each told to `tell` (stdout for a person, stderr when stdout is a report).
 */
export async function checkTerraformFiles(
  io: CliIO,
  paths: readonly string[],
  options: Omit<TerraformRunOptions, "json">,
  tell: (line: string) => void,
): Promise<CheckedFile[]> {
  const lookup = configLookup(io);
  const diagnostics = async (path: string) => {
    const folder = await folderDefaults(io, path, lookup);
    return folder.diagnostics === undefined && options.diagnostics === undefined
      ? undefined
      : mergeSettings(folder.diagnostics, options.diagnostics);
  };
  const limits = {
    maxOperators: options.maxOperators,
    maxBytes: options.maxBytes,
    customFieldsLimit: options.customFieldsLimit,
    diagnostics,
  };
  let files: CheckedFile[];
  // Files left as they were, by path, with why: not written again in a later round.
  const refused = new Map<string, { file: CheckedFile; problem: Diagnostic }>();
  const within = paths.map((path) => resolve(io.cwd, path));
  try {
    files = await checkTerraform(paths, io.cwd, limits);
    // A fix inside another (an operator in a filter wrapped in {"where": …}) waits for the next round.
    for (let round = 0; options.fix && round < MAX_FIX_ROUNDS; round++) {
      const pending = files.filter((file) => !refused.has(file.file.path));
      const { written, refused: now } = await writeFixes(pending, { within });
      for (const left of now) refused.set(left.file.file.path, left);
      for (const { file, applied } of written)
        for (const fix of applied) {
          const { line, column } = fix.range.start;
          const where = `${terminalName(file.file.name)}:${line}:${column}`;
          tell(`fixed ${where}: ${terminalText(fix.suggestion!.message)} (${fix.code})\n`);
        }
      if (written.length === 0) break;
      files = await checkTerraform(paths, io.cwd, limits);
    }
  } catch (error) {
    if (error instanceof TooManyTerraformFiles) throw new UserError(error.message);
    throw error;
  }
  return withRefusals(files, [...refused.values()]);
}

/** Each file `--fix` left as it was, with the diagnostic that says why before its findings. */
function withRefusals(
  files: CheckedFile[],
  refused: { file: CheckedFile; problem: Diagnostic }[],
): CheckedFile[] {
  if (refused.length === 0) return files;
  const byPath = new Map(files.map((file) => [file.file.path, file]));
  for (const { file, problem } of refused) {
    // A file changed meanwhile may have no finding left: it is reported for the refusal alone.
    const now = byPath.get(file.file.path) ?? { ...file, diagnostics: [], safeFixes: [] };
    byPath.set(file.file.path, { ...now, diagnostics: [problem, ...now.diagnostics] });
  }
  return [...byPath.values()].sort((a, b) =>
    a.file.name < b.file.name ? -1 : a.file.name > b.file.name ? 1 : 0,
  );
}

/**
 * `filterc check` on Terraform files and folders: every finding at its place, then a count. With
 * `--fix`, the safe fixes are written first (each printed), and what remains is reported.
 */
export async function checkTerraformPaths(
  io: CliIO,
  paths: readonly string[],
  options: TerraformRunOptions,
): Promise<number> {
  const files = await checkTerraformFiles(io, paths, options, io.stdout);
  const all: Diagnostic[] = files.flatMap((file) => file.diagnostics);
  const ok = !all.some((d) => d.severity === "error");
  if (options.json) {
    const listed = files
      .filter((file) => file.diagnostics.length > 0)
      .map((file) => ({ file: file.file.name, diagnostics: diagnosticsJson(file.diagnostics) }));
    io.stdout(`${JSON.stringify({ ok, files: listed })}\n`);
    return ok ? 0 : 1;
  }
  const rendered = files
    .filter((file) => file.diagnostics.length > 0)
    .map((file) =>
      renderDiagnostics(file.diagnostics, file.shown, { fileName: file.file.name, color: useColor(io) }),
    );
  if (rendered.length > 0) io.stderr(rendered.join("\n"));
  if (all.length > 0) io.stderr(`${countsLine(all)}\n`);
  if (!ok) return 1;
  io.stdout(`ok: ${files.length} Terraform file${files.length === 1 ? "" : "s"} checked\n`);
  return 0;
}
