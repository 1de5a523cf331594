/**
 * What each diagnostic code means, as the language reference's table of diagnostics
 * (grammar/REFERENCE.md) says it: the one place that text lives, read when a report needs help
 * text for its rules (SARIF). The package ships grammar/ beside dist/, and the source tree has it
 * beside src/; the table is found by walking up from this module.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { moduleFile } from "../files/module-file.js";

/** One row of the table: what the code means and an example that reports it, both Markdown. */
export interface ReferenceRow {
  meaning: string;
  example: string;
}

/** Folders walked up from this module to find grammar/REFERENCE.md (dist/ and src/cli/ are one and two below it). */
const MAX_LEVELS_UP = 4;

/** The cells of a Markdown table row, `\|` kept as a `|` inside its cell. */
function cells(line: string): string[] {
  const inner = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  return inner.split(/(?<!\\)\|/).map((cell) => cell.trim().replaceAll("\\|", "|"));
}

/** The rows of grammar/REFERENCE.md's table of diagnostics, by code (none when the file is not found). */
export function readReference(start = dirname(moduleFile(import.meta.url))): Map<string, ReferenceRow> {
  const rows = new Map<string, ReferenceRow>();
  let folder = start;
  for (let level = 0; level <= MAX_LEVELS_UP; level++) {
    const path = join(folder, "grammar", "REFERENCE.md");
    if (existsSync(path)) {
      for (const line of readFileSync(path, "utf8").split("\n")) {
        if (!/^\| [EW]\d{4} \|/.test(line)) continue;
        const [code, meaning, example] = cells(line);
        if (code !== undefined && meaning !== undefined) rows.set(code, { meaning, example: example ?? "" });
      }
      return rows;
    }
    folder = dirname(folder);
  }
  return rows;
}
