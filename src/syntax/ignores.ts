/** The `# filterc-ignore` comments of filter source, each applying to the next line that holds code. */
import { type IgnoreComment, isIgnoreText, LineIndex, lineIgnores } from "../diagnostics/index.js";
import type { FilterSource } from "./ast.js";

/** The ignores among a parsed source's comments (none, cheaply, in a source without any). */
export function sourceIgnores(filter: Pick<FilterSource, "comments">, source: string): IgnoreComment[] {
  if (!filter.comments.some((comment) => isIgnoreText(comment.text))) return [];
  const comments = filter.comments.map(({ range }) => ({
    start: range.start.offset,
    end: range.end.offset,
    textStart: range.start.offset + 1,
  }));
  return lineIgnores(source, new LineIndex(source), comments);
}
