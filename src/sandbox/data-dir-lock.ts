import { randomBytes } from "node:crypto";
import { link, readFile, rename, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";

/**
 * Who holds a data directory: one sandbox at a time, or the second one's start-up sweep deletes the
 * first one's temporary files and their writes overwrite each other's state.
 */
interface Holder {
  pid: number;
  host: string;
  started: string;
}

/** The lock's file, in the state folder. */
const LOCK_FILE = "lock";

function holderOf(text: string): Holder | undefined {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    if (Number.isInteger(value.pid) && typeof value.host === "string" && typeof value.started === "string")
      return value as Holder;
  } catch {
    // not a sandbox's lock: named as such below
  }
  return undefined;
}

/** Whether the process is running on this host (a process of another user counts: EPERM). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** A name in the temporary folder (swept at start-up, so a start killed midway leaves nothing behind). */
const aside = (temporaryFolder: string) =>
  join(temporaryFolder, `lock.tmp-${randomBytes(6).toString("hex")}`);

/**
 * Makes the lock file with its content whole: written aside and fsynced (a crash never leaves an
 * empty lock that no start could read), then linked into place, which fails when a lock is there
 * already (false). A file aside swept by the holder's start counts as that. Not the atomic writer:
 * a lock needs "make it unless one is there" in one call, and its look-then-rename is two.
 */
async function create(path: string, text: string, temporaryFolder: string): Promise<boolean> {
  const written = aside(temporaryFolder);
  await writeFile(written, text, { flag: "wx", flush: true });
  try {
    await link(written, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || code === "ENOENT") return false;
    throw error;
  } finally {
    await rm(written, { force: true });
  }
}

/**
 * Takes the lock of the state folder `folder` for this process: a file holding its pid, host and
 * start time. A lock whose holder no longer runs (a sandbox killed with SIGKILL) is stale and taken
 * over; one whose holder runs, or runs on another host (where it cannot be checked), refuses the
 * start with a message naming it. Resolves with the lock's release.
 */
export async function lockDataDirectory(
  folder: string,
  temporaryFolder: string,
  dataDir: string,
  warn: (line: string) => void,
): Promise<() => Promise<void>> {
  const path = join(folder, LOCK_FILE);
  const mine = JSON.stringify({ pid: process.pid, host: hostname(), started: new Date().toISOString() });
  const release = async () => {
    const now = await readFile(path, "utf8").catch(() => undefined);
    if (now === mine) await rm(path, { force: true });
  };
  // A few turns: a stale lock taken over, or a lock released between two looks at it.
  for (let turn = 0; turn < 5; turn++) {
    if (await create(path, mine, temporaryFolder)) return release;
    const text = await readFile(path, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (text === undefined) continue;
    const holder = holderOf(text);
    if (!holder)
      throw new Error(
        `the data directory ${dataDir} has a lock file (${path}) that is not a filterc sandbox's; remove it if no sandbox uses this directory`,
      );
    if (holder.host !== hostname() || isRunning(holder.pid))
      throw new Error(
        `the data directory ${dataDir} is in use by another filterc sandbox (pid ${holder.pid} on host ${holder.host}, started ${holder.started}); stop it, or use another data directory (if that sandbox is gone, remove ${path})`,
      );
    // Stale: moved aside first, so that of two sandboxes taking it over only one removes it.
    const moved = aside(temporaryFolder);
    try {
      await rename(path, moved);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw error;
    }
    const taken = await readFile(moved, "utf8");
    if (taken !== text) {
      // Another sandbox's fresh lock came in between: put it back, and look again.
      await link(moved, path).catch(() => undefined);
      await rm(moved, { force: true });
      continue;
    }
    await rm(moved, { force: true });
    warn(
      `filterc sandbox: took over the lock of the data directory from pid ${holder.pid}, which no longer runs (started ${holder.started})`,
    );
  }
  throw new Error(`the data directory ${dataDir} could not be locked: its lock keeps changing`);
}
