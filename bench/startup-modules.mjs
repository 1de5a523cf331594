// Where requiring the bundle of `filterc compile`, `check` and `fmt` spends its time, module by
// module: `node bench/startup.mjs --modules`. Each bundle is built again as tsup builds it, but
// unminified and with a mark at the top of every module, which records the time when the module's
// top level starts; a module's time is from its mark to the next one (the bundle runs its modules
// in order, each once). Before the first mark is V8's compile of the bundle. The built bundle in
// dist/, loaded with its code cache as the CLI loads it, is timed beside it, whole.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { cliBundlePlugins, onDemandPartsAsSiblings } from "../build/plugins.mjs";
import { machine, median } from "./measure.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const COMMANDS = ["compile", "check", "fmt"];
const RUNS = 15;
const SHOWN = 12;
const MARK = "__filtercStartupMark";

/** A module's group in the table: its package under node_modules, or its file under src. */
function groupOf(path) {
  const rel = relative(root, path).split("\\").join("/");
  const inPackage = rel.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  return inPackage ? inPackage[1] : rel;
}

/** Puts a mark at the top of every module (after a `#!` line); JSON becomes a module of its value. */
const marks = {
  name: "startup-marks",
  setup(built) {
    built.onLoad({ filter: /\.(ts|js|mjs|cjs|json)$/ }, (args) => {
      const text = readFileSync(args.path, "utf8");
      const mark = `globalThis.${MARK}?.(${JSON.stringify(groupOf(args.path))});\n`;
      if (args.path.endsWith(".json")) {
        const value = JSON.parse(text);
        const names = value && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
        const named = names.filter((name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== "default");
        const exports = named.map((name) => `export const ${name} = value[${JSON.stringify(name)}];`);
        return {
          contents: `${mark}const value = ${text};\nexport default value;\n${exports.join("\n")}`,
          loader: "js",
        };
      }
      const shebang = text.startsWith("#!") ? text.indexOf("\n") + 1 : 0;
      const contents = text.slice(0, shebang) + mark + text.slice(shebang);
      return { contents, loader: args.path.endsWith(".ts") ? "ts" : "js" };
    });
  },
};

/** What one require of `bundle` took, in a fresh process: `{ total, marks: [[group, ms], …] }`. */
function requireOnce(bundle, withCache) {
  const script = withCache
    ? `const fs = require("node:fs"), vm = require("node:vm"), { createRequire } = require("node:module");
       const filename = ${JSON.stringify(bundle)};
       const start = performance.now();
       const source = fs.readFileSync(filename, "utf8");
       const cache = fs.readFileSync(filename + ".cache");
       const body = source.replace(/^#![^\\n]*/, "");
       const wrapped = "(function (exports, require, module, __filename, __dirname) {" + body + "\\n})";
       const code = new vm.Script(wrapped, { filename, cachedData: cache.subarray(16) });
       const module = { exports: {} };
       code.runInThisContext()(module.exports, createRequire(filename), module, filename, require("node:path").dirname(filename));
       console.log(JSON.stringify({ total: performance.now() - start, rejected: code.cachedDataRejected, marks: [] }));`
    : `const marks = [];
       globalThis.${MARK} = (group) => marks.push([group, performance.now()]);
       const start = performance.now();
       require(${JSON.stringify(bundle)});
       const end = performance.now();
       const times = marks.map(([group, at], i) => [group, (marks[i + 1]?.[1] ?? end) - at]);
       console.log(JSON.stringify({ total: end - start, compile: (marks[0]?.[1] ?? end) - start, marks: times }));`;
  const result = spawnSync(process.execPath, ["-e", script], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout);
}

export async function printModuleTimes() {
  const out = mkdtempSync(join(tmpdir(), "filterc-modules-"));
  const load = [loadavg()[0]];
  const sections = [];
  try {
    await build({
      entryPoints: Object.fromEntries(
        COMMANDS.map((name) => [`cli-${name}`, join(root, `src/cli/commands/${name}.ts`)]),
      ),
      outdir: out,
      bundle: true,
      format: "cjs",
      platform: "node",
      target: "node20",
      mainFields: ["module", "main"],
      outExtension: { ".js": ".cjs" },
      supported: { "dynamic-import": false },
      define: { "import.meta.url": "undefined" },
      logOverride: { "empty-import-meta": "silent" },
      logLevel: "error",
      // As tsup.config.ts builds them, with the marks.
      plugins: [...cliBundlePlugins, onDemandPartsAsSiblings, marks],
    });
    for (const name of COMMANDS) {
      const marked = join(out, `cli-${name}.cjs`);
      const built = join(root, "dist", `cli-${name}.cjs`);
      const runs = [];
      const cached = [];
      // In turns, as bench/startup.mjs does.
      for (let run = 0; run < RUNS; run++) {
        runs.push(requireOnce(marked, false));
        cached.push(requireOnce(built, true));
      }
      const byGroup = new Map();
      runs.forEach((result, run) => {
        for (const [group, ms] of result.marks) {
          const times = byGroup.get(group) ?? new Array(RUNS).fill(0);
          times[run] += ms;
          byGroup.set(group, times);
        }
      });
      const groups = [...byGroup].map(([group, times]) => [group, median(times)]).sort((a, b) => b[1] - a[1]);
      const shown = groups.slice(0, SHOWN);
      const rest = groups.slice(SHOWN).reduce((sum, [, ms]) => sum + ms, 0);
      const rejected = cached.some((result) => result.rejected);
      sections.push(`### \`filterc ${name}\` (${basename(built)})

Required whole, as the CLI loads it (with its code cache${rejected ? ", which V8 rejected" : ""}): ${median(cached.map((r) => r.total)).toFixed(1)} ms.
Unminified, marked, without a code cache: ${median(runs.map((r) => r.total)).toFixed(1)} ms, of which V8's compile ${median(runs.map((r) => r.compile)).toFixed(1)} ms and the top levels:

| module or package | ms |
|---|---|
${shown.map(([group, ms]) => `| ${group} | ${ms.toFixed(2)} |`).join("\n")}
| ${groups.length - shown.length} others | ${rest.toFixed(2)} |
`);
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  load.push(loadavg()[0]);
  console.log(`## startup: the short commands' bundles, module by module

Medians of ${RUNS} fresh processes each. ${machine()}, load average ${load.map((value) => value.toFixed(1)).join(" → ")}.

${sections.join("\n")}
Reproduce: \`npm run build && node bench/startup.mjs --modules\`
`);
}
