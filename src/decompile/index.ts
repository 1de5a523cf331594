export {
  DEFAULT_MAX_INPUT_LENGTH,
  type DecompileOptions,
  type DecompileResult,
  decompile,
} from "./decompile.js";
export { findDepthOverflow } from "./document.js";
