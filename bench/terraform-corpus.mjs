// `filterc check` on every folder of a corpus of Terraform written elsewhere (held out of the
// tests: a clone of public repositories, given as DIR): `node bench/terraform-corpus.mjs DIR`.
// Each folder holding a .tf file is checked on its own, as `filterc check FOLDER --json`; the
// counts of its exit codes and of the codes found are printed as a markdown section. Exit 70 is an
// internal error (a throw of filterc's own): the corpus holds when there is none. Run
// `npm run build` first.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const root = process.argv[2];
if (!root) {
  console.error("usage: node bench/terraform-corpus.mjs DIR");
  process.exit(2);
}

/** Every folder under `dir` holding a .tf file, `.terraform/` left out as filterc leaves it. */
function folders(dir) {
  const entries = readdirSync(dir, { withFileTypes: true });
  const below = entries
    .filter((entry) => entry.isDirectory() && entry.name !== ".terraform" && entry.name !== ".git")
    .flatMap((entry) => folders(join(dir, entry.name)));
  return entries.some((entry) => entry.isFile() && entry.name.endsWith(".tf")) ? [dir, ...below] : below;
}

const exits = new Map();
const codes = new Map();
const internal = [];
let files = 0;
const checked = folders(root);
for (const folder of checked) {
  const run = spawnSync(process.execPath, [cli, "check", folder, "--json"], { encoding: "utf8" });
  exits.set(run.status, (exits.get(run.status) ?? 0) + 1);
  if (run.status === 70 || run.status === null)
    internal.push(`${relative(root, folder)}: ${run.stderr.trim()}`);
  try {
    const answer = JSON.parse(run.stdout);
    for (const file of answer.files ?? []) {
      files++;
      for (const { code } of file.diagnostics ?? []) codes.set(code, (codes.get(code) ?? 0) + 1);
    }
  } catch {
    // No JSON: the exit code says why.
  }
}

const table = (map) =>
  [...map]
    .sort((a, b) => String(a[0]).localeCompare(String(b[0])))
    .map(([key, count]) => `${key} ${count}`)
    .join(", ");
console.log(`### Terraform corpus: ${checked.length} folders, ${files} files read\n`);
console.log(`- exit codes: ${table(exits)}`);
console.log(`- codes found: ${table(codes)}`);
console.log(`- internal errors (exit 70): ${internal.length}`);
for (const line of internal) console.log(`  - ${line}`);
