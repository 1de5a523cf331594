import { eastAsianWidth } from "get-east-asian-width";
import { codePointName, isHiddenCharacter } from "./terminal-text.js";

/** One code point of a line as a terminal shows it: its UTF-16 span, its text and its width in columns. */
export interface Cell {
  from: number;
  to: number;
  text: string;
  width: number;
}

const TAB_STOP = 4;
const combining = /^[\p{Mn}\p{Me}]$/u;

/**
 * A line laid out in terminal columns: East Asian wide characters take two, combining marks none,
 * a tab runs to the next stop of 4, a hidden character its `<U+…>` text.
 */
export function layOutLine(line: string): Cell[] {
  const cells: Cell[] = [];
  let column = 0;
  let i = 0;
  while (i < line.length) {
    const code = line.codePointAt(i)!;
    const character = String.fromCodePoint(code);
    // A lone surrogate is one UTF-16 unit, though codePointAt names it as a code point.
    const to = i + (code > 0xffff ? 2 : 1);
    let text = character;
    let width: number;
    if (code === 9) {
      width = TAB_STOP - (column % TAB_STOP);
      text = " ".repeat(width);
    } else if (isHiddenCharacter(character)) {
      text = `<${codePointName(character)}>`;
      width = text.length;
    } else if (combining.test(character)) {
      width = 0;
    } else {
      width = eastAsianWidth(code, { ambiguousAsWide: false });
    }
    cells.push({ from: i, to, text, width });
    column += width;
    i = to;
  }
  return cells;
}
