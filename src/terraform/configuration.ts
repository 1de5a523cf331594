import { readdir, stat } from "node:fs/promises";
import { basename, dirname, join, relative, resolve } from "node:path";
import type { CustomFieldsLimit } from "../api/index.js";
import {
  type Diagnostic,
  type DiagnosticSettings,
  diagnose,
  type IgnoreComment,
  sortDiagnostics,
  tuneDiagnostics,
} from "../diagnostics/index.js";
import { confinedPath, confinementRoot, readTextUpTo } from "../files/index.js";
import type { FileDiagnostic } from "./filter-check.js";
import { attributeOf, blocksOf, type Expr, type HclFile } from "./hcl-ast.js";
import { DEFAULT_MAX_HCL_DEPTH, parseHcl } from "./hcl-parser.js";
import { terraformIgnores } from "./ignores.js";
import { checkLooseFilters } from "./loose-filters.js";
import { checkCustomFieldRulesets, checkLogpushJob, type Resource } from "./resources.js";
import { destinationSecretSites, maskSecrets, shownText } from "./shown-text.js";
import { type Site, SourceFile } from "./source-file.js";
import { isTerraformFile } from "./terraform-file.js";
import type { Scope } from "./values.js";

/** Largest `.tf`, `.tfvars` or `file()` JSON file read (a configuration file is rarely over 100 KB). */
export const DEFAULT_MAX_TERRAFORM_FILE_BYTES = 4 * 1024 * 1024;
/** Most `.tf` and `.tfvars` files one check reads, folders walked included. */
export const DEFAULT_MAX_TERRAFORM_FILES = 10_000;

export interface TerraformCheckOptions {
  maxOperators?: number | undefined;
  maxBytes?: number | undefined;
  /** The limits custom-field rules are held to: `service` (default, 100 in each list) or `seed` (40 in all). */
  customFieldsLimit?: CustomFieldsLimit;
  maxFileBytes?: number;
  maxFiles?: number;
  maxDepth?: number;
  /** The text of files open in an editor, by absolute path: read instead of what is on disk. */
  texts?: ReadonlyMap<string, string>;
  /**
   * The levels of warnings and notes in the file at `path` (its folder's filterc.json, under a
   * run's flags); its `# filterc-ignore` comments apply whatever this gives.
   */
  diagnostics?: (path: string) => Promise<DiagnosticSettings | undefined>;
}

/** One file's findings: its text (for excerpts and fixes) and its diagnostics in order. */
export interface CheckedFile {
  file: SourceFile;
  diagnostics: Diagnostic[];
  /** Diagnostics whose suggestion `--fix` applies. */
  safeFixes: Diagnostic[];
  /** False for a file with a syntax error or one not read: `--fix` leaves it alone. */
  parsed: boolean;
  /** The text excerpts show: the file's, with the credentials of destinations masked. */
  shown: string;
}

/** More Terraform files than the check reads: the user names fewer folders. */
export class TooManyTerraformFiles extends Error {
  override readonly name = "TooManyTerraformFiles";
}

/**
 * Checks the Terraform files that `paths` name (files, or folders walked as `terraform fmt
 * -recursive` walks them, `.terraform/` skipped). Each folder is a module: its variables
 * (`default`, `terraform.tfvars`, `*.auto.tfvars`) and locals are what filters may refer to.
 * Returns every file with findings, the files as named relative to `cwd`.
 */
export async function checkTerraform(
  paths: readonly string[],
  cwd: string,
  options: TerraformCheckOptions = {},
): Promise<CheckedFile[]> {
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_TERRAFORM_FILES;
  // Each file selected, with the folder named that led to it (a file's own folder when named).
  const selected = new Map<string, string>();
  for (const path of paths) {
    const named = resolve(cwd, path);
    const isFolder = (await stat(named).catch(() => undefined))?.isDirectory() === true;
    await collect(named, selected, maxFiles, isFolder ? named : dirname(named), true);
  }
  const folders = new Map<string, string[]>();
  for (const path of selected.keys()) {
    const list = folders.get(dirname(path)) ?? [];
    list.push(path);
    folders.set(dirname(path), list);
  }
  const results = new Map<SourceFile, CheckedFile>();
  // Where destinations' credentials are written, in any file: masked in every excerpt.
  const secretSites: Site[] = [];
  const ignores = new Map<SourceFile, IgnoreComment[]>();
  const resultOf = (file: SourceFile) => {
    const known = results.get(file);
    if (known) return known;
    const result: CheckedFile = { file, diagnostics: [], safeFixes: [], parsed: true, shown: file.text };
    results.set(file, result);
    return result;
  };
  for (const [folder, chosen] of [...folders].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const root = await confinementRoot(selected.get(chosen[0]!)!);
    const module = await loadModule(folder, new Set(chosen), root, cwd, options);
    for (const { file, hcl, problem } of module.files) {
      if (!module.chosen.has(file.path)) continue;
      const result = resultOf(file);
      if (problem !== undefined) {
        result.parsed = false;
        result.diagnostics.push(diagnose("TerraformFileNotRead", file.rangeOf(0, 0), { reason: problem }));
      } else if (hcl.diagnostics.length > 0) {
        result.parsed = false;
        result.diagnostics.push(...hcl.diagnostics);
      } else {
        result.shown = shownText(file.text, hcl.body);
        ignores.set(file, terraformIgnores(file, hcl.body));
      }
    }
    const checked = await checkModule(module, options);
    secretSites.push(...checked.secrets);
    for (const found of checked.found) {
      const result = resultOf(found.file);
      result.diagnostics.push(found.diagnostic);
      if (found.safeFix) result.safeFixes.push(found.diagnostic);
    }
  }
  const checked: CheckedFile[] = [];
  for (const result of results.values()) {
    result.shown = maskSecrets(result.shown, result.file.path, secretSites);
    checked.push(await tuned(result, ignores.get(result.file) ?? [], options));
  }
  return checked.sort((a, b) => (a.file.name < b.file.name ? -1 : a.file.name > b.file.name ? 1 : 0));
}

/** A file's findings as its settings and `# filterc-ignore` comments tune them; `--fix` fixes only what is still reported. */
async function tuned(
  result: CheckedFile,
  ignores: IgnoreComment[],
  options: TerraformCheckOptions,
): Promise<CheckedFile> {
  const sorted = sortDiagnostics(result.diagnostics);
  const settings = await options.diagnostics?.(result.file.path);
  if (ignores.length === 0 && settings === undefined) return { ...result, diagnostics: sorted };
  const diagnostics = tuneDiagnostics(sorted, { settings, ignores });
  const kept = new Set(diagnostics.map(placeOf));
  return { ...result, diagnostics, safeFixes: result.safeFixes.filter((fix) => kept.has(placeOf(fix))) };
}

const placeOf = (d: Diagnostic) => `${d.code} ${d.range.start.offset} ${d.range.end.offset}`;

/** The files a path names: a Terraform file as given, or those of a folder and the folders below it. */
async function collect(
  path: string,
  into: Map<string, string>,
  maxFiles: number,
  base: string,
  named: boolean,
): Promise<void> {
  const info = named ? await stat(path).catch(() => undefined) : undefined;
  if (named && !info?.isDirectory()) {
    into.set(path, base);
    return;
  }
  const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const inner = join(path, entry.name);
    if (entry.isDirectory() && entry.name !== ".terraform") await collect(inner, into, maxFiles, base, false);
    else if (entry.isFile() && isTerraformFile(entry.name)) {
      if (into.size >= maxFiles)
        throw new TooManyTerraformFiles(
          `more than ${maxFiles} Terraform files (option maxFiles); name fewer folders`,
        );
      if (!into.has(inner)) into.set(inner, base);
    }
  }
}

interface ModuleFile {
  file: SourceFile;
  hcl: HclFile;
  /** Why the file was not read, when it was not. */
  problem?: string;
}

interface Module {
  folder: string;
  files: ModuleFile[];
  /** The files whose resources are checked (the others lend their variables and locals). */
  chosen: Set<string>;
  scope: Scope;
}

async function loadModule(
  folder: string,
  chosen: Set<string>,
  root: string,
  cwd: string,
  options: TerraformCheckOptions,
): Promise<Module> {
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_TERRAFORM_FILE_BYTES;
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const siblings = entries
    .filter((entry) => entry.isFile() && isTerraformFile(entry.name))
    .map((e) => join(folder, e.name));
  const paths = [...new Set([...chosen, ...siblings])].sort();
  const files: ModuleFile[] = [];
  const nameOf = (path: string) => relative(cwd, path) || basename(path);
  for (const path of paths) {
    let text: string;
    try {
      const open = options.texts?.get(path);
      if (open !== undefined && open.length > maxBytes)
        throw new Error(`larger than ${maxBytes} bytes; not read`);
      text = open ?? (await readTextUpTo(path, maxBytes, "regular"));
    } catch (error) {
      const file = new SourceFile(nameOf(path), path, "");
      files.push({
        file,
        hcl: { source: file, body: { items: [] }, diagnostics: [] },
        problem: (error as Error).message,
      });
      continue;
    }
    const file = new SourceFile(nameOf(path), path, text);
    files.push({ file, hcl: await parseHcl(file, options.maxDepth ?? DEFAULT_MAX_HCL_DEPTH) });
  }
  const configuration = files.filter(({ file }) => file.path.endsWith(".tf"));
  const declared = new Map<string, { expr: Expr; file: SourceFile }>();
  const locals = new Map<string, { expr: Expr; file: SourceFile }>();
  for (const { file, hcl } of configuration) {
    for (const block of blocksOf(hcl.body, "variable")) {
      const value = attributeOf(block.body, "default");
      const name = block.labels[0]?.value;
      if (value && name !== undefined) declared.set(name, { expr: value.value, file });
    }
    for (const block of blocksOf(hcl.body, "locals"))
      for (const item of block.body.items)
        if (item.kind === "attribute") locals.set(item.name, { expr: item.value, file });
  }
  // terraform.tfvars, then *.auto.tfvars in the order of their names: a later value wins.
  const valueFiles = files
    .filter(({ file }) => basename(file.path) === "terraform.tfvars" || file.path.endsWith(".auto.tfvars"))
    .sort(
      (a, b) => Number(a.file.path.endsWith(".auto.tfvars")) - Number(b.file.path.endsWith(".auto.tfvars")),
    );
  for (const { file, hcl } of valueFiles)
    for (const item of hcl.body.items)
      if (item.kind === "attribute") declared.set(item.name, { expr: item.value, file });
  const scope: Scope = {
    variable: (name) => declared.get(name),
    local: (name) => locals.get(name),
    // Only inside the folder or repository checked (confinedPath): a pull request's `file()` must
    // not read the runner's files into the report.
    readFile: async (path) => {
      const confined = await confinedPath(root, folder, path);
      if ("outside" in confined) return confined;
      const absolute = confined.path;
      try {
        const text = await readTextUpTo(absolute, maxBytes, "regular");
        return new SourceFile(nameOf(resolve(folder, path)), absolute, text);
      } catch (error) {
        return (error as Error).message;
      }
    },
  };
  return { folder, files, chosen, scope };
}

/**
 * The checks of a module's chosen files: every Logpush job, and the custom-field rulesets
 * together; and where the jobs' destinations' credentials are written.
 */
async function checkModule(
  module: Module,
  options: TerraformCheckOptions,
): Promise<{ found: FileDiagnostic[]; secrets: Site[] }> {
  const found: FileDiagnostic[] = [];
  const secrets: Site[] = [];
  const rulesets: Resource[] = [];
  const checkedFilters = new Set<string>();
  const limits = { maxOperators: options.maxOperators, maxBytes: options.maxBytes };
  for (const { file, hcl } of module.files) {
    if (!module.chosen.has(file.path) || !file.path.endsWith(".tf")) continue;
    for (const block of blocksOf(hcl.body, "resource")) {
      const type = block.labels[0]?.value;
      if (type === "cloudflare_logpush_job") {
        secrets.push(...(await destinationSecretSites(block, file, module.scope)));
        found.push(...(await checkLogpushJob({ block, file }, module.scope, limits, checkedFilters)));
      } else if (type === "cloudflare_ruleset") rulesets.push({ block, file });
    }
  }
  found.push(...(await checkCustomFieldRulesets(rulesets, module.scope, options.customFieldsLimit)));
  const configuration = module.files
    .filter(({ file, problem }) => module.chosen.has(file.path) && file.path.endsWith(".tf") && !problem)
    .map(({ hcl }) => hcl);
  found.push(...(await checkLooseFilters(configuration, module.scope, checkedFilters, limits)));
  return { found, secrets };
}
