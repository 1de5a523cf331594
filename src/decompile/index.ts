export {
  DEFAULT_MAX_INPUT_LENGTH,
  type DecompileOptions,
  type DecompileResult,
  decompile,
} from "./decompile.js";
export { excerpt, findDepthOverflow } from "./document.js";
