export * from "./ast.js";
export {
  capDiagnostics,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_DIAGNOSTICS,
  DEFAULT_MAX_SOURCE_LENGTH,
  type ParseOptions,
  type ParseResult,
  parse,
} from "./parse.js";
export { decodeStringToken, jsonEscapes } from "./strings.js";
