export {
  DEFAULT_MAX_INPUT_LENGTH,
  type DecompileOptions,
  type DecompileResult,
  decompile,
  type JsonReading,
  type JsonReadOptions,
  readFilterJson,
} from "./decompile.js";
export { excerpt, findDepthOverflow } from "./document.js";
