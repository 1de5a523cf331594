import { type ArgsOf, DiagnosticKind, type DiagnosticKindName } from "../diagnostics/index.js";
import type { Problem } from "./errors.js";

/** A problem with the stable code and message of its diagnostic kind. */
export function problem<K extends DiagnosticKindName>(name: K, path: string, args: ArgsOf<K>): Problem {
  const kind = DiagnosticKind[name] as { code: string; message: (a: ArgsOf<K>) => string };
  return { code: kind.code, message: kind.message(args), path };
}
