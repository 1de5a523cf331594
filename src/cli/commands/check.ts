import { compile } from "../../compile.js";
import { parseCommandArgs, parseCount, singleInput } from "../args.js";
import { checkAndFix } from "../check-fix.js";
import { checkTerraformPaths, namesTerraform } from "../check-terraform.js";
import { compilerFlags, compilerOptionsFrom, withFolderDefaults } from "../compiler-options.js";
import { diagnosticsJson, reportDiagnostics, statsLine } from "../diagnostics-output.js";
import { type CliIO, readSource, UsageError } from "../io.js";
import { warnAboveServiceLimits } from "../service-limits.js";

export const usage = `filterc check [FILE|-] [--fix] [options]
       filterc check PATH.tf|FOLDER... [--fix] [--json]

Checks filter source against the dataset and the Logpush limits without printing the JSON.
On success prints what the filter uses against the limits.
Given .tf/.tfvars files or folders (walked like terraform fmt -recursive, .terraform/ skipped),
checks the filters and settings of cloudflare_logpush_job resources and the custom-field rules
of cloudflare_ruleset resources, each problem at its place in the .tf file.

Options:
  --dataset NAME, --catalog FILE, --no-optimize, --max-operators N, --max-bytes N  as for compile
  --json                print {ok, stats, diagnostics} as JSON on stdout ({ok, files} for Terraform)
  --fix                 apply the safe fixes and print each: rewrite FILE or each .tf file in
                        place; with standard input (- or no FILE), print the fixed filter
Exit status: 0 valid (warnings and notes allowed), 1 errors, 2 usage.`;

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    ...compilerFlags,
    json: { type: "boolean" },
    fix: { type: "boolean" },
  });
  if (await namesTerraform(positionals, io.cwd)) {
    if (values.dataset !== undefined || values.catalog !== undefined || values["no-optimize"])
      throw new UsageError(
        "--dataset, --catalog and --no-optimize apply to filter files; a job names its own dataset",
      );
    const limits = {
      maxOperators: parseCount(values["max-operators"], "--max-operators", 1),
      maxBytes: parseCount(values["max-bytes"], "--max-bytes", 1),
    };
    // terraform apply sends these jobs: the service holds their filters to its own limits.
    warnAboveServiceLimits(io, limits);
    return checkTerraformPaths(io, positionals, {
      fix: values.fix === true,
      json: values.json === true,
      ...limits,
    });
  }
  const options = await compilerOptionsFrom(values);
  const file = singleInput(positionals, "check");
  if (values.fix)
    return checkAndFix(io, file, await withFolderDefaults(io, options, file), values.json === true);
  const input = await readSource(io, file);
  const result = compile(input.text, await withFolderDefaults(io, options, file));
  if (values.json) {
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
