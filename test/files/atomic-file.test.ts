import {
  chmodSync,
  chownSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  type AtomicWriteOptions,
  readSnapshot,
  WriteRefused,
  writeFileAtomically,
} from "../../src/files/index.js";
import { makeFifo } from "../helpers/fifo.js";
import { temporaryFolder } from "../helpers/folders.js";

const root = temporaryFolder("filterc-atomic-");
/** A fresh folder for one test, holding `files`. */
async function folderWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(root(), "t-"));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** Replaces `path` as read a moment before: what every writer of filterc does. */
async function replace(path: string, text: string, options: Partial<AtomicWriteOptions> = {}) {
  const expected = (await readSnapshot(path, 1_000_000)) ?? "absent";
  await writeFileAtomically(path, text, { expected, ...options });
}

/** The refusal a write ends in: its kind and words. */
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => "written",
    (error: unknown) => (error instanceof WriteRefused ? [error.kind, error.reason] : error),
  );

describe("writeFileAtomically: mode and owner", () => {
  it("keeps a file's mode (a 0600 tfvars stays private, an executable stays one)", async () => {
    const dir = await folderWith({ "terraform.tfvars": "a = 1\n", "run.sh": "echo\n" });
    chmodSync(join(dir, "terraform.tfvars"), 0o600);
    chmodSync(join(dir, "run.sh"), 0o4751);
    await replace(join(dir, "terraform.tfvars"), "a = 2\n");
    await replace(join(dir, "run.sh"), "echo 2\n");
    expect(statSync(join(dir, "terraform.tfvars")).mode & 0o7777).toBe(0o600);
    expect(statSync(join(dir, "run.sh")).mode & 0o7777).toBe(0o4751);
    expect(readFileSync(join(dir, "terraform.tfvars"), "utf8")).toBe("a = 2\n");
    expect(readdirSync(dir).sort()).toEqual(["run.sh", "terraform.tfvars"]);
  });

  it("keeps the owner and group where the process may give them", async () => {
    const dir = await folderWith({ "main.tf": "a = 1\n" });
    const path = join(dir, "main.tf");
    // Root may give a file to anyone; another user only to a group of their own.
    const root = process.getuid!() === 0;
    const uid = root ? 4321 : process.getuid!();
    const gid = root
      ? 4322
      : (process.getgroups!().find((group) => group !== process.getgid!()) ?? process.getgid!());
    chownSync(path, uid, gid);
    await replace(path, "a = 2\n");
    expect([statSync(path).uid, statSync(path).gid]).toEqual([uid, gid]);
  });

  it("gives a new file the mode the umask gives, as any new file gets", async () => {
    const dir = await folderWith({ "old.lpf": "" });
    await replace(join(dir, "new.lpf"), "BotScore lt 30\n");
    expect(statSync(join(dir, "new.lpf")).mode & 0o777).toBe(statSync(join(dir, "old.lpf")).mode & 0o777);
  });
});

describe("writeFileAtomically: links", () => {
  it("writes through a symbolic link: the link stays, its target takes the bytes", async () => {
    const dir = await folderWith({ "real.tf": "a = 1\n" });
    symlinkSync("real.tf", join(dir, "link.tf"));
    chmodSync(join(dir, "real.tf"), 0o640);
    await replace(join(dir, "link.tf"), "a = 2\n");
    expect(lstatSync(join(dir, "link.tf")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, "link.tf"))).toBe("real.tf");
    expect(readFileSync(join(dir, "real.tf"), "utf8")).toBe("a = 2\n");
    expect(statSync(join(dir, "real.tf")).mode & 0o777).toBe(0o640);
  });

  it("refuses a file with several names, leaving each as it was", async () => {
    const dir = await folderWith({ "a.tf": "a = 1\n" });
    linkSync(join(dir, "a.tf"), join(dir, "b.tf"));
    expect(await refusal(replace(join(dir, "a.tf"), "a = 2\n"))).toEqual([
      "unsafe",
      "it has 2 names (hard links): replacing it would cut the link, and writing it in place could leave it torn at every name if the run stopped midway; give it one name, or change it by hand",
    ]);
    expect(readFileSync(join(dir, "a.tf"), "utf8")).toBe("a = 1\n");
    expect(readFileSync(join(dir, "b.tf"), "utf8")).toBe("a = 1\n");
    expect(statSync(join(dir, "a.tf")).nlink).toBe(2);
    expect(readdirSync(dir).sort()).toEqual(["a.tf", "b.tf"]);
  });

  it("replaces a file with several names at its path where anything there may be replaced; the other names keep their bytes", async () => {
    // A folder one process alone writes (the sandbox's state): a second name is a backup's.
    const dir = await folderWith({ "1.json": "{}" });
    mkdirSync(join(dir, "backup"));
    linkSync(join(dir, "1.json"), join(dir, "backup", "1.json"));
    chmodSync(join(dir, "1.json"), 0o600);
    const file = await writeFileAtomically(join(dir, "1.json"), '{"a":1}', { expected: "any" });
    expect(file).toBe(join(realpathSync(dir), "1.json"));
    expect(readFileSync(join(dir, "1.json"), "utf8")).toBe('{"a":1}');
    expect(readFileSync(join(dir, "backup", "1.json"), "utf8")).toBe("{}");
    expect([statSync(join(dir, "1.json")).nlink, statSync(join(dir, "backup", "1.json")).nlink]).toEqual([
      1, 1,
    ]);
    expect(statSync(join(dir, "1.json")).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(["1.json", "backup"]);
  });

  it("refuses a link to nothing, a fifo and a folder, and makes nothing where they point", async () => {
    const dir = await folderWith({});
    symlinkSync(join(dir, "nowhere", "x.lpf"), join(dir, "dangling.lpf"));
    expect(
      await refusal(writeFileAtomically(join(dir, "dangling.lpf"), "x", { expected: "absent" })),
    ).toEqual(["unsafe", "it is a symbolic link to a file that does not exist"]);
    await makeFifo(join(dir, "pipe.lpf"));
    expect(await refusal(writeFileAtomically(join(dir, "pipe.lpf"), "x", { expected: "any" }))).toEqual([
      "unsafe",
      "it is a fifo (named pipe), not a regular file",
    ]);
    mkdirSync(join(dir, "folder.lpf"));
    expect(await refusal(writeFileAtomically(join(dir, "folder.lpf"), "x", { expected: "any" }))).toEqual([
      "unsafe",
      "it is a folder",
    ]);
    expect(readdirSync(dir).sort()).toEqual(["dangling.lpf", "folder.lpf", "pipe.lpf"]);
  });
});

describe("writeFileAtomically: the temporary file's folder", () => {
  it("makes the temporary file beside the file where the folder asked for is on another file system", async () => {
    // /dev/shm is a tmpfs: a rename from the temporary folder into it fails (EXDEV), as it did
    // for a sandbox's bucket folder linked to another disk.
    const other = mkdtempSync("/dev/shm/filterc-atomic-");
    try {
      const asked = await folderWith({});
      expect(statSync(other).dev).not.toBe(statSync(asked).dev);
      writeFileSync(join(other, "kept.json"), "{}");
      chmodSync(join(other, "kept.json"), 0o600);
      symlinkSync(join(other, "kept.json"), join(asked, "link.json"));
      let during: string[] = [];
      const beforeReplace = async () => {
        during = readdirSync(other).sort();
      };
      const options = { expected: "any", temporaryFolder: asked, beforeReplace } as const;
      expect(await writeFileAtomically(join(asked, "link.json"), "[1]", options)).toBe(
        join(other, "kept.json"),
      );
      expect(during).toEqual(["kept.json", expect.stringMatching(/^kept\.json\.tmp-[0-9a-f]{12}$/)]);
      await writeFileAtomically(join(other, "new.json"), "[2]", { ...options, expected: "absent" });
      expect(readdirSync(other).sort()).toEqual(["kept.json", "new.json"]);
      expect(readFileSync(join(other, "kept.json"), "utf8")).toBe("[1]");
      expect(readFileSync(join(other, "new.json"), "utf8")).toBe("[2]");
      expect(statSync(join(other, "kept.json")).mode & 0o777).toBe(0o600);
      expect(readdirSync(asked)).toEqual(["link.json"]);
      // On the same file system the folder asked for is used, the file's own folder untouched.
      writeFileSync(join(asked, "here.json"), "{}");
      const seen: string[][] = [];
      await writeFileAtomically(join(asked, "here.json"), "[3]", {
        expected: "any",
        temporaryFolder: join(asked, ".."),
        beforeReplace: async () => {
          seen.push(readdirSync(asked).sort());
        },
      });
      expect(seen).toEqual([["here.json", "link.json"]]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });
});

describe("writeFileAtomically: only within the paths named", () => {
  it("refuses a file outside them, also one reached through a link inside them", async () => {
    const dir = await folderWith({});
    mkdirSync(join(dir, "mod"));
    mkdirSync(join(dir, "other"));
    writeFileSync(join(dir, "other", "f.json"), "{}");
    symlinkSync(join(dir, "other", "f.json"), join(dir, "mod", "f.json"));
    writeFileSync(join(dir, "mod", "main.tf"), "a = 1\n");
    const within = [join(dir, "mod")];
    const outside = ["outside", "it is outside the paths named on the command line"];
    expect(await refusal(replace(join(dir, "other", "f.json"), "[]", { within }))).toEqual(outside);
    expect(await refusal(replace(join(dir, "mod", "f.json"), "[]", { within }))).toEqual(outside);
    expect(await refusal(replace(join(dir, "mod", "..", "other", "f.json"), "[]", { within }))).toEqual(
      outside,
    );
    expect(readFileSync(join(dir, "other", "f.json"), "utf8")).toBe("{}");
    // Inside a folder named, or a file named (its link followed), it is written.
    await replace(join(dir, "mod", "main.tf"), "a = 2\n", { within });
    await replace(join(dir, "mod", "f.json"), "[]", { within: [join(dir, "mod", "f.json")] });
    expect(readFileSync(join(dir, "mod", "main.tf"), "utf8")).toBe("a = 2\n");
    expect(readFileSync(join(dir, "other", "f.json"), "utf8")).toBe("[]");
    // A folder whose name starts as the named one's is not inside it.
    mkdirSync(join(dir, "mod2"));
    expect(await refusal(replace(join(dir, "mod2", "x.tf"), "", { within }))).toEqual(outside);
  });
});

describe("writeFileAtomically: the file must still be what was read", () => {
  const changed = ["changed", "it changed after it was read"];

  it("leaves a file edited in place, replaced, or removed between the read and the rename", async () => {
    const edits: Record<string, (path: string) => void> = {
      "edited in place": (path) => writeFileSync(path, "a = 3\n"),
      grown: (path) => writeFileSync(path, "a = 1\nb = 2\n", { flag: "a" }),
      "replaced by a rename": (path) => {
        writeFileSync(`${path}.new`, "a = 1\n");
        renameSync(`${path}.new`, path);
      },
    };
    for (const [how, edit] of Object.entries(edits)) {
      const dir = await folderWith({ "main.tf": "a = 1\n" });
      const path = join(dir, "main.tf");
      const before = readFileSync(path);
      const written = replace(path, "a = 2\n", {
        beforeReplace: async () => {
          edit(path);
        },
      });
      expect(await refusal(written), how).toEqual(changed);
      expect(readFileSync(path).equals(before), how).toBe(how !== "edited in place" && how !== "grown");
      expect(readdirSync(dir), how).toEqual(["main.tf"]);
    }
    const dir = await folderWith({ "main.tf": "a = 1\n" });
    const path = join(dir, "main.tf");
    const gone = replace(path, "a = 2\n", { beforeReplace: async () => renameSync(path, `${path}.moved`) });
    expect(await refusal(gone)).toEqual(changed);
    expect(readdirSync(dir)).toEqual(["main.tf.moved"]);
  });

  it("compares the bytes too: the same size and inode with other bytes is a change", async () => {
    const dir = await folderWith({ "main.tf": "a = 1\n" });
    const path = join(dir, "main.tf");
    const expected = (await readSnapshot(path, 100))!;
    // What was read, as a writer holds it, differs from the file on disk: as if an edit kept
    // the size and the modification time.
    const stale = { ...expected, bytes: Buffer.from("a = 9\n") };
    expect(await refusal(writeFileAtomically(path, "a = 2\n", { expected: stale }))).toEqual(changed);
    expect(readFileSync(path, "utf8")).toBe("a = 1\n");
  });

  it("never replaces a file that appears where a new one is written", async () => {
    const dir = await folderWith({});
    const path = join(dir, "job-1.lpf");
    const written = writeFileAtomically(path, "mine\n", {
      expected: "absent",
      beforeReplace: async () => writeFileSync(path, "theirs\n"),
    });
    expect(await refusal(written)).toEqual(changed);
    expect(readFileSync(path, "utf8")).toBe("theirs\n");
    expect(readdirSync(dir)).toEqual(["job-1.lpf"]);
  });

  it("replaces a file still as read, atomically through a renamed temporary file", async () => {
    const dir = await folderWith({ "main.tf": "a = 1\n" });
    const path = join(dir, "main.tf");
    const inode = statSync(path).ino;
    let during: string[] = [];
    await replace(path, "a = 2\n", {
      beforeReplace: async () => {
        during = readdirSync(dir).sort();
      },
    });
    // Before the rename the old file is whole beside the new one, which then takes its place.
    expect(during).toEqual(["main.tf", expect.stringMatching(/^main\.tf\.tmp-[0-9a-f]{12}$/)]);
    expect(readdirSync(dir)).toEqual(["main.tf"]);
    expect(readFileSync(path, "utf8")).toBe("a = 2\n");
    expect(statSync(path).ino).not.toBe(inode);
  });

  it("refuses a file made read-only as writeFile would (root may write any file)", async () => {
    const dir = await folderWith({ "main.tf": "a = 1\n" });
    const path = join(dir, "main.tf");
    chmodSync(path, 0o444);
    const outcome = await replace(path, "a = 2\n").then(
      () => "written",
      (error: NodeJS.ErrnoException) => error.code,
    );
    expect(outcome).toBe(process.getuid!() === 0 ? "written" : "EACCES");
    expect(statSync(path).mode & 0o777).toBe(0o444);
  });
});
