import type { Meaning } from "../check/ir.js";
import { type LineFilter, LineVerdict } from "./line-filter.js";
import { LineScanner } from "./line-scanner.js";
import { compileSlotPredicate } from "./predicate.js";
import type { TimestampOptions } from "./timestamps.js";

/**
 * A compiled filter over blocks of whole NDJSON lines (eval's input): each line of ASCII is scanned
 * in WebAssembly, and only the values a comparison asks for are built, as slices of the block's
 * text, about twice as fast as the line filter's expressions (bench/RESULTS.md). A line the scanner is not sure of, and a line with other bytes
 * than ASCII, is tested by the line filter, so the verdicts are the line filter's.
 */
export interface BlockFilter {
  /**
   * Makes a block the current one: `bytes`, whole lines, the last ending with its LF, and `text`,
   * the same decoded. False when the block is too long to scan: its lines go to the line filter.
   */
  load(bytes: Uint8Array, text: string): boolean;
  /** The verdict of the current block's line at bytes start…end (end at its LF) and characters textStart…textEnd. */
  test(start: number, end: number, textStart: number, textEnd: number): LineVerdict;
}

export interface BlockFilterOptions extends TimestampOptions {
  /** The line scanner's compiled module, when another thread compiled it (see lineScannerModule). */
  scannerModule?: WebAssembly.Module | undefined;
}

/**
 * The block filter of a filter's meaning (null: every record), or undefined when its fields do not
 * suit the scanner. `line` is the line filter compiled with the same options.
 */
export function compileBlockFilter(
  meaning: Meaning | null,
  line: LineFilter,
  options: BlockFilterOptions = {},
): BlockFilter | undefined {
  const { fields, test, slotValues } = compileSlotPredicate(meaning, options);
  const scanner = LineScanner.of(fields, options.scannerModule);
  if (scanner === undefined) return undefined;
  let text = "";
  /** The current line's bytes start this much further into the block than its characters into the text. */
  let shift = 0;
  const values = slotValues((slot) => scanner.value(slot, text, shift));
  return {
    load(bytes, blockText) {
      text = blockText;
      return scanner.load(bytes);
    },
    test(start, end, textStart, textEnd) {
      // A line of as many characters as bytes has each byte at the place of its character (a byte
      // that is no ASCII is then a lone invalid one, decoded as one U+FFFD); any other line is
      // read as text.
      if (end - start !== textEnd - textStart || !scanner.scan(start, end))
        return line(text.slice(textStart, textEnd));
      shift = start - textStart;
      values.next();
      return test(values) ? LineVerdict.match : LineVerdict.miss;
    },
  };
}
