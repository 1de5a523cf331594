import { compile } from "../../compile.js";
import { parseCommandArgs, parseCount, singleInput } from "../args.js";
import { CHECK_FORMATS, checkFormat } from "../check-format.js";
import { splitPaths } from "../check-paths.js";
import { compilerFlags, compilerOptionsFrom, withFolderDefaults } from "../compiler-options.js";
import {
  CUSTOM_FIELDS_LIMIT_USAGE,
  customFieldsLimitFlag,
  customFieldsLimitFrom,
} from "../custom-fields-limit.js";
import { diagnosticsJson, reportDiagnostics, statsLine } from "../diagnostics-output.js";
import { type CliIO, readSource, UsageError } from "../io.js";
import { warnAboveServiceLimits } from "../service-limits.js";
import { TUNING_USAGE, tuningFlags, tuningFromFlags } from "../tuning-flags.js";

export const usage = `filterc check [FILE…|-] [--fix] [options]
       filterc check PATH.tf|FOLDER... [--fix] [--json]
       filterc check FILE|PATH.tf|FOLDER... --format sarif|github

Checks filter source against the dataset and the Logpush limits without printing the JSON.
On success prints what the filter uses against the limits.
Given .tf/.tfvars files or folders (walked like terraform fmt -recursive, .terraform/ skipped),
checks the filters and settings of cloudflare_logpush_job resources and the custom-field rules
of cloudflare_ruleset resources, each problem at its place in the .tf file.
Filter files, .tf files and folders may be named together (as a pre-commit hook passes them);
--dataset, --catalog and --no-optimize then apply to the filter files.

Options:
  --dataset NAME, --catalog FILE, --no-optimize, --max-operators N, --max-bytes N  as for compile
  --json                print {ok, stats, diagnostics} as JSON on stdout ({ok, files} for Terraform
                        and for several files)
  --format F            ${CHECK_FORMATS.join(", ")}: sarif writes a SARIF 2.1.0 log for code scanning,
                        github one GitHub Actions workflow command per diagnostic
  --fix                 apply the safe fixes and print each: rewrite FILE or each .tf file in
                        place; with standard input (- or no FILE), print the fixed filter
${CUSTOM_FIELDS_LIMIT_USAGE}
                        (the custom-field rules of cloudflare_ruleset resources)
${TUNING_USAGE}
Exit status: 0 valid (warnings and notes allowed), 1 errors, 2 usage.`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    ...compilerFlags,
    ...tuningFlags,
    ...customFieldsLimitFlag,
    json: { type: "boolean" },
    fix: { type: "boolean" },
    format: { type: "string" },
  });
  const format = checkFormat(values.format, values.json === true);
  const { terraform, filters } = await splitPaths(positionals, io.cwd);
  const limits = {
    maxOperators: parseCount(values["max-operators"], "--max-operators", 1),
    maxBytes: parseCount(values["max-bytes"], "--max-bytes", 1),
  };
  const customFieldsLimit = customFieldsLimitFrom(values);
  // terraform apply sends these jobs: the service holds their filters to its own limits.
  if (terraform.length > 0) warnAboveServiceLimits(io, limits);
  const several = filters.length > 1 || (terraform.length > 0 && filters.length > 0);
  if (values.fix && several) throw new UsageError("--fix takes one filter file, or .tf files and folders");
  if (format === "sarif" || format === "github" || several) {
    const { checkFiles } = await import("../check-extras.js");
    return checkFiles(io, {
      terraform,
      filters: filters.length === 0 && terraform.length === 0 ? ["-"] : filters,
      format,
      fix: values.fix === true,
      compileOptions: await compilerOptionsFrom(values),
      diagnostics: tuningFromFlags(values),
      customFieldsLimit,
      ...limits,
    });
  }
  if (terraform.length > 0) {
    if (values.dataset !== undefined || values.catalog !== undefined || values["no-optimize"])
      throw new UsageError(
        "--dataset, --catalog and --no-optimize apply to filter files; a job names its own dataset",
      );
    const { checkTerraformPaths } = await import("../check-extras.js");
    return checkTerraformPaths(io, positionals, {
      fix: values.fix === true,
      json: format === "json",
      ...limits,
      customFieldsLimit,
      diagnostics: tuningFromFlags(values),
    });
  }
  const options = await compilerOptionsFrom(values);
  const file = singleInput(filters, "check");
  if (values.fix) {
    const { checkAndFix } = await import("../check-extras.js");
    return checkAndFix(io, file, await withFolderDefaults(io, options, file), format === "json");
  }
  const input = await readSource(io, file);
  const result = compile(input.text, await withFolderDefaults(io, options, file));
  if (format === "json") {
    io.stdout(
      `${JSON.stringify({ ok: result.ok, stats: result.stats, diagnostics: diagnosticsJson(result.diagnostics) })}\n`,
    );
    return result.ok ? 0 : 1;
  }
  reportDiagnostics(io, result.diagnostics, input.text, input.name);
  if (!result.ok) return 1;
  io.stdout(result.filter === null ? "ok: empty filter (no filter)\n" : `ok: ${statsLine(result.stats)}\n`);
  return 0;
}
