import { type Diagnostic, diagnose, type Range } from "../diagnostics/index.js";
import { FileTooLarge } from "./file-snapshot.js";
import { NotRegularFile } from "./open.js";
import { fileProblem } from "./read.js";
import { isWriteRefused } from "./write-refused.js";

/**
 * Why a file was not written, as the diagnostic its writer reports at `range` (the file's start):
 * changed since read (E0680), outside the paths named (E0681), or any other reason in words
 * (E0682), a failure of the file system's included. An error no file system gives is rethrown.
 */
export function notWrittenDiagnostic(error: unknown, range: Range): Diagnostic {
  if (isWriteRefused(error)) {
    if (error.kind === "changed") return diagnose("FileChangedSinceRead", range, {});
    if (error.kind === "outside") return diagnose("WriteOutsideNamedPaths", range, {});
    return diagnose("FileNotWritten", range, { reason: error.reason });
  }
  if (error instanceof FileTooLarge)
    return diagnose("FileNotWritten", range, { reason: `it is ${error.message}` });
  if (error instanceof NotRegularFile)
    return diagnose("FileNotWritten", range, { reason: `it is ${error.message}` });
  if (typeof (error as NodeJS.ErrnoException).code !== "string") throw error;
  return diagnose("FileNotWritten", range, { reason: fileProblem(error, "no such folder") });
}
