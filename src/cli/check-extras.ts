/**
 * What `check` loads only when asked: the reports of several files (SARIF, GitHub), the Terraform
 * check and `--fix`. A filter file's check, the common case in a hook, starts without them: the CLI
 * builds this module as a file of its own (dist/check-extras.cjs, see tsup.config.ts), so that
 * check's bundle, read and deserialized at every start, stays about the size of compile's.
 */
export { checkAndFix } from "./check-fix.js";
export { checkFiles } from "./check-report.js";
export { checkTerraformPaths } from "./check-terraform.js";
