import { type BigIntStats, constants, createWriteStream } from "node:fs";
import { access, chmod, chown, lstat, open, realpath, rename, rm, stat } from "node:fs/promises";
import { basename, dirname, join, resolve, sep } from "node:path";
import type { Writable } from "node:stream";
import { type FileSnapshot, readSnapshot, resolvedTarget, sameFile } from "./file-snapshot.js";
import { kindOf } from "./open.js";
import { changedSinceRead as changed, WriteRefused } from "./write-refused.js";

/*
 * Every file filterc writes goes through here (check --fix, fmt --write, jobs pull, the sandbox's
 * state and deliveries), so each has the same five properties:
 * - atomic: the new bytes go to a temporary file (in the file's own folder unless told, and always
 *   on the file's file system: a rename cannot cross one), fsynced, then renamed over the file and
 *   the folder fsynced: the file is whole, old or new, at every moment;
 * - the file's mode is kept, and its owner and group where the process may give them;
 * - links: a symbolic link is written through (its target is replaced, the link stays); a file
 *   with several names (hard links) is refused, since replacing it would cut the link and writing
 *   it in place could leave it torn at every name if the run stopped midway (but see "any");
 * - only the paths a writer may write (`within`, links resolved), never a file reached beyond them;
 * - unchanged since read: right before the rename the file is looked at again (device, inode,
 *   size, modification time, and its bytes where they were read); a file changed in between is
 *   left as it now is (WriteRefused). The look and the rename are two calls, so an edit in the
 *   microseconds between them is not seen: no lock of the file system's closes that window for
 *   editors that do not take one.
 * Writing the bytes outside a fix unchanged is the writers' part (byte-edits.ts).
 */

/** What must be at the path when the new file replaces it. */
export type ExpectedFile =
  /** The file as read: still that file, holding those bytes. */
  | FileSnapshot
  /** Nothing: a new file never replaces one that came meanwhile. */
  | "absent"
  /**
   * Whatever is there: only for a folder one process alone writes (the sandbox's, under its lock).
   * No one edits such a file, so a second name of it is a copy kept elsewhere (a backup made with
   * hard links): the file is replaced at its path, and the other names keep the bytes they had.
   */
  | "any";

export interface AtomicWriteOptions {
  expected: ExpectedFile;
  /**
   * Where the temporary file is made, so that a write killed midway leaves its debris there; the
   * file's own folder where this one is on another file system (a link to another disk), or by default.
   */
  temporaryFolder?: string;
  /** False: the caller fsyncs the folder itself (once for several files). */
  syncTheFolder?: boolean;
  /** The files and folders (everything inside them) that may be written, links resolved; by default any. */
  within?: readonly string[];
  /** Runs with the new file on disk, right before the old one is looked at again: tests change it there. */
  beforeReplace?: () => Promise<void>;
}

/** A file being written: it appears at its path, complete and on disk, only once committed. */
export interface AtomicFile {
  stream: Writable;
  /**
   * Finishes the stream, fsyncs, checks the file is still as expected, renames into place, fsyncs
   * the folder; resolves with the file written (its links resolved: its folder is the one renamed in).
   */
  commit(): Promise<string>;
  /** Drops what was written: nothing appears at the path. */
  abort(): Promise<void>;
}

/** Where the bytes go, and what is there now. */
interface Place {
  target: string;
  /** The file there now; undefined for none. */
  stats: BigIntStats | undefined;
}

/**
 * What only a write needs, loaded by the first: the short commands bundle this stage, and most of
 * their runs write no file (loading these was a few ms of each start).
 */
const writeModules = () =>
  Promise.all([import("node:crypto"), import("node:events"), import("node:stream/promises")]);

/**
 * Opens a temporary file for `path`, having checked that it may be written as `options` say (a
 * refusal is WriteRefused, before anything is written). A process killed midway leaves its
 * debris (`NAME.tmp-` and twelve random characters) only in the folder the temporary file is made in.
 */
export async function createAtomicFile(path: string, options: AtomicWriteOptions): Promise<AtomicFile> {
  const [{ randomBytes }, { EventEmitter }, { finished }] = await writeModules();
  const place = await placeOf(resolve(path), options);
  const folder = await temporaryFolderFor(place.target, options.temporaryFolder);
  const temporary = join(folder, `${basename(place.target)}.tmp-${randomBytes(6).toString("hex")}`);
  // A file replaced starts private (its mode is set before it is renamed: a 0600 file's secrets are
  // never readable by others); a new one takes the mode the umask gives. `flush`: fsynced on close.
  const mode = place.stats === undefined ? 0o666 : 0o600;
  const stream = createWriteStream(temporary, { flags: "wx", mode, flush: true });
  await EventEmitter.once(stream, "open");
  const drop = async () => {
    stream.destroy();
    await finished(stream).catch(() => undefined);
    await rm(temporary, { force: true });
  };
  return {
    stream,
    async commit() {
      try {
        if (!stream.writableEnded) stream.end();
        await finished(stream);
        if (place.stats !== undefined) await keepModeAndOwner(temporary, place.stats);
        await options.beforeReplace?.();
        const now = await placeOf(resolve(path), options);
        if (now.target !== place.target) throw changed();
        await stillAsExpected(now, options.expected);
        await rename(temporary, place.target);
      } catch (error) {
        await drop();
        throw error;
      }
      if (options.syncTheFolder !== false) await syncFolder(dirname(place.target));
      return place.target;
    },
    abort: drop,
  };
}

/**
 * Writes `data` to `path` through `createAtomicFile`, resolving with the file written (links
 * resolved); without `syncTheFolder`, the caller syncs that file's folder (once for several files).
 */
export async function writeFileAtomically(
  path: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions,
): Promise<string> {
  const file = await createAtomicFile(path, options);
  file.stream.write(data);
  return file.commit();
}

/** Makes a folder's entries (files renamed into it, files removed) durable. */
export async function syncFolder(path: string): Promise<void> {
  const folder = await open(path, "r");
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}

/** The file `path` leads to and what is there, refused where `options` forbid writing it. */
async function placeOf(path: string, options: AtomicWriteOptions): Promise<Place> {
  const { expected } = options;
  const existing = await resolvedTarget(path);
  const target = existing ?? join(await realpath(dirname(path)), basename(path));
  if (options.within !== undefined && !(await isWithin(target, options.within)))
    throw new WriteRefused("outside", "it is outside the paths named on the command line");
  if (existing === undefined) {
    if (typeof expected === "object") throw changed();
    return { target, stats: undefined };
  }
  if (expected === "absent") throw changed();
  if (typeof expected === "object" && expected.target !== target) throw changed();
  const stats = await lstat(target, { bigint: true });
  if (stats.isDirectory()) throw new WriteRefused("unsafe", "it is a folder");
  if (!stats.isFile()) throw new WriteRefused("unsafe", `it is a ${kindOf(stats)}, not a regular file`);
  if (stats.nlink > 1n && expected !== "any")
    throw new WriteRefused(
      "unsafe",
      `it has ${stats.nlink} names (hard links): replacing it would cut the link, and writing it in place could leave it torn at every name if the run stopped midway; give it one name, or change it by hand`,
    );
  // What `writeFile` would refuse: a file the user made read-only is not replaced behind its mode.
  await access(target, constants.W_OK);
  return { target, stats };
}

/**
 * The folder asked for where it is on the file system of the file's folder, else that folder: a
 * temporary file on another one could not be renamed into place (EXDEV).
 */
async function temporaryFolderFor(target: string, asked: string | undefined): Promise<string> {
  const own = dirname(target);
  if (asked === undefined) return own;
  const [there, here] = await Promise.all([stat(asked), stat(own)]);
  return there.dev === here.dev ? asked : own;
}

/** Whether the file (links resolved) is one of `paths` or inside one of them. */
async function isWithin(target: string, paths: readonly string[]): Promise<boolean> {
  for (const path of paths) {
    const root = await realpath(path).catch(() => undefined);
    if (root !== undefined && (target === root || target.startsWith(root.endsWith(sep) ? root : root + sep)))
      return true;
  }
  return false;
}

/** Whether what is at the place now is what the writer expects to replace. */
async function stillAsExpected(now: Place, expected: ExpectedFile): Promise<void> {
  if (typeof expected !== "object") return; // "absent" and "any" were checked by placeOf
  if (now.stats === undefined || !sameFile(now.stats, expected.stats)) throw changed();
  if (expected.bytes === undefined) return;
  const read = await readSnapshot(now.target, expected.bytes.length).catch(() => undefined);
  if (read?.bytes === undefined || !read.bytes.equals(expected.bytes)) throw changed();
}

/**
 * Gives the new file the old one's mode, and its owner and group where the process may (a user
 * may give a file only to a group of their own; root may give it to anyone). chown before chmod:
 * chown clears the set-user-ID and set-group-ID bits.
 */
async function keepModeAndOwner(temporary: string, old: BigIntStats): Promise<void> {
  const made = await lstat(temporary, { bigint: true });
  if (made.uid !== old.uid || made.gid !== old.gid) {
    const [uid, gid] = [Number(old.uid), Number(old.gid)];
    await chown(temporary, uid, gid).catch(() =>
      chown(temporary, Number(made.uid), gid).catch(() => undefined),
    );
  }
  await chmod(temporary, Number(old.mode & 0o7777n));
}
