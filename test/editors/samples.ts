import { readdirSync, readFileSync } from "node:fs";
import { createLanguageService, type HighlightKind } from "../../src/service/index.js";

/*
 * Annotated sample filters (test/editors/samples/*.lpf), in the style of vscode-tmgrammar-test:
 * a line `#   ^^^ scope` says that the columns under the carets of the source line above carry
 * that scope; `# <--- scope` says the same of the first columns (as many as there are dashes), which
 * a caret cannot reach past the `#`. Every other line is filter source.
 */

export interface Assertion {
  /** 0-based line of the source text (assertion lines removed). */
  line: number;
  columns: number[];
  scope: string;
  /** Where the assertion is written: file and 1-based line. */
  where: string;
}

export interface Sample {
  name: string;
  /** The filter source: the file without its assertion lines. */
  text: string;
  assertions: Assertion[];
}

const SAMPLES = new URL("./samples/", import.meta.url);

export function readSamples(): Sample[] {
  return readdirSync(SAMPLES)
    .filter((name) => name.endsWith(".lpf"))
    .sort()
    .map((name) => {
      const source: string[] = [];
      const assertions: Assertion[] = [];
      for (const [index, line] of readFileSync(new URL(name, SAMPLES), "utf8").split("\n").entries()) {
        const carets = /^#(\s*)(\^+)\s+(\S+)\s*$/.exec(line);
        const start = /^#\s*<(-+)\s+(\S+)\s*$/.exec(line);
        const where = `${name}:${index + 1}`;
        if (carets) {
          const first = 1 + carets[1]!.length;
          const columns = Array.from({ length: carets[2]!.length }, (_, i) => first + i);
          assertions.push({ line: source.length - 1, columns, scope: carets[3]!, where });
        } else if (start) {
          const columns = Array.from({ length: start[1]!.length }, (_, i) => i);
          assertions.push({ line: source.length - 1, columns, scope: start[2]!, where });
        } else source.push(line);
      }
      return { name, text: source.join("\n"), assertions };
    });
}

/** The class the language service colours each UTF-16 unit of `text` as; undefined for blanks. */
export function classesOf(text: string): (HighlightKind | undefined)[] {
  const classes: (HighlightKind | undefined)[] = Array.from({ length: text.length }, () => undefined);
  for (const span of createLanguageService().highlights(text))
    for (let i = span.offset; i < span.offset + span.length; i++) classes[i] = span.kind;
  return classes;
}

/** Line and column (0-based) of each offset of `text`, lines split as the scanner splits them. */
export function positionsOf(text: string): { line: number; column: number }[] {
  const positions: { line: number; column: number }[] = [];
  let line = 0;
  let column = 0;
  for (let i = 0; i < text.length; i++) {
    positions.push({ line, column });
    if (text[i] === "\n" || (text[i] === "\r" && text[i + 1] !== "\n")) {
      line++;
      column = 0;
    } else column++;
  }
  return positions;
}
