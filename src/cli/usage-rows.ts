/** The widest line of a usage text: a help longer than this goes on over more lines. */
const USAGE_WIDTH = 96;

/**
 * Rows of a usage text's option list: each flag indented by two, its help from column `column` on,
 * wrapped at word ends and at each newline; a flag that reaches the column has its help on the
 * lines below.
 */
export function usageRows(rows: readonly (readonly [flag: string, help: string])[], column: number): string {
  const indent = " ".repeat(column);
  return rows
    .map(([flag, help]) => {
      const lines = help
        .split("\n")
        .flatMap((part) => wrap(part, USAGE_WIDTH - column))
        .map((line) => indent + line);
      const label = `  ${flag}`;
      if (label.length < column) lines[0] = label.padEnd(column) + lines[0]!.slice(column);
      else lines.unshift(label);
      return lines.join("\n");
    })
    .join("\n");
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/** A size in bytes as a usage text quotes it: `67108864, 64 MiB`. */
export const inMiB = (bytes: number): string => `${bytes}, ${bytes / 2 ** 20} MiB`;
