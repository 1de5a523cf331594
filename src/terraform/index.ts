export {
  type CheckedFile,
  checkTerraform,
  DEFAULT_MAX_TERRAFORM_FILE_BYTES,
  DEFAULT_MAX_TERRAFORM_FILES,
  type TerraformCheckOptions,
  TooManyTerraformFiles,
} from "./configuration.js";
export { writeFixes } from "./fix.js";
