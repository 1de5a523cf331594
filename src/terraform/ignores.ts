/**
 * The `filterc-ignore` comments of a Terraform file: a `#` or `//` comment on a line of its own
 * before an argument or a block (past blank lines and other comments) silences its codes anywhere
 * in that argument or block: `# filterc-ignore W0120: …` above `filter = jsonencode(…)` silences
 * the filter's W0120, above `resource "cloudflare_logpush_job" …` every W0120 of the job.
 */
import { type IgnoreComment, isIgnoreText, readIgnore } from "../diagnostics/index.js";
import type { Body } from "./hcl-ast.js";
import type { SourceFile } from "./source-file.js";

export function terraformIgnores(file: SourceFile, body: Body): IgnoreComment[] {
  const ignores: IgnoreComment[] = [];
  const { lines, text } = file;
  const visit = (items: Body["items"]) => {
    for (const item of items) {
      const line = lines.positionAt(item.start).line;
      if (text.slice(lines.lineStart(line), item.start).trim() === "") {
        // The comment lines right above the item, nearest first.
        for (let above = line - 1; above >= 1; above--) {
          const lineText = lines.lineText(above);
          const trimmed = lineText.trimStart();
          if (trimmed.trimEnd() === "") continue;
          const marker = trimmed.startsWith("#") ? 1 : trimmed.startsWith("//") ? 2 : 0;
          if (marker === 0) break;
          const start = lines.lineStart(above) + lineText.length - trimmed.length;
          const comment = { start, end: start + trimmed.trimEnd().length, textStart: start + marker };
          if (!isIgnoreText(text.slice(comment.textStart, comment.end))) continue;
          const ignore = readIgnore(text, lines, comment, { start: item.start, end: item.end });
          if (ignore) ignores.push(ignore);
        }
      }
      if (item.kind === "block") visit(item.body.items);
    }
  };
  visit(body.items);
  return ignores;
}
