/**
 * Why a writer left a file as it was: it changed after it was read, it lies outside the paths
 * the writer may write, or it cannot be replaced without harm (hard links, a link to nothing, not
 * a regular file). `reason` is the words after "not written: ".
 */
export class WriteRefused extends Error {
  override readonly name = "WriteRefused";
  constructor(
    readonly kind: "changed" | "outside" | "unsafe",
    readonly reason: string,
  ) {
    super(reason);
  }
}

// A command's bundle may carry its own copy of the class: told by name.
export const isWriteRefused = (error: unknown): error is WriteRefused =>
  error instanceof Error && error.name === "WriteRefused";

/** The refusal of a file that is no longer what its writer read. */
export const changedSinceRead = () => new WriteRefused("changed", "it changed after it was read");
