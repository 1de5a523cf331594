import { realpath } from "node:fs/promises";
import { resolve, sep } from "node:path";
import { fileProblem, readTextUpTo } from "../files/index.js";

/** The most bytes of a challenge file read: the sandbox writes 64 hex digits. */
const MAX_CHALLENGE_BYTES = 4096;

/**
 * The token of an ownership challenge file that a filterc sandbox wrote into `folder` (its data
 * directory), as the service named it; or why it could not be read. A name that leads outside the
 * folder is not followed.
 */
export async function readChallengeToken(
  folder: string,
  filename: string,
): Promise<{ token: string } | { problem: string }> {
  try {
    const root = await realpath(folder);
    const file = await realpath(resolve(root, filename));
    if (!file.startsWith(root + sep)) return { problem: "the file is not in the sandbox's data directory" };
    const token = (await readTextUpTo(file, MAX_CHALLENGE_BYTES, "regular")).trim();
    return token === "" ? { problem: "the file is empty" } : { token };
  } catch (error) {
    return { problem: (error as NodeJS.ErrnoException).code ? fileProblem(error) : (error as Error).message };
  }
}
