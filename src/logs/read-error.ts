// The module, not the stage's index: eval's workers load this file, and the index reads catalogs.
import { fileProblem } from "../files/read.js";

/**
 * A log input that cannot be read (missing, a folder, not permitted), with `reason` worded as
 * fileProblem words it. Told by its name, as a worker's error reaches the main thread as a copy.
 */
export class LogReadError extends Error {
  override readonly name = "LogReadError";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

export const isLogReadError = (error: unknown): error is LogReadError =>
  error instanceof Error && error.name === "LogReadError";

export const cannotRead = (path: string, error: unknown) => new LogReadError(path, fileProblem(error));
