import { datasetNames, datasetScopes } from "../catalog/index.js";
import { directiveName, type ScanResult } from "../syntax/index.js";
import type { CompletionItem } from "./types.js";

/**
 * The dataset names to complete with the cursor in the name of a `# dataset:` comment, best first
 * (names starting with what is typed, then names holding it); undefined anywhere else.
 */
export function datasetCompletions(scanned: ScanResult, offset: number): CompletionItem[] | undefined {
  const comment = scanned.comments.find(
    (token) => token.startOffset < offset && offset <= token.startOffset + token.image.length,
  );
  const named = comment && directiveName(comment.image);
  if (!comment || !named || offset < comment.startOffset + named.at) return undefined;
  const start = comment.startOffset + named.at;
  const typed = comment.image.slice(named.at, offset - comment.startOffset).toLowerCase();
  const starting = datasetNames.filter((name) => name.startsWith(typed));
  const holding = datasetNames.filter((name) => !name.startsWith(typed) && name.includes(typed));
  return [...starting, ...holding].map((name, index) => ({
    label: name,
    kind: "value",
    detail: `Logpush dataset (${datasetScopes(name)?.join(", ")})`,
    sortText: String(index).padStart(4, "0"),
    filterText: name,
    edit: { range: { start, end: start + named.name.length }, newText: name },
  }));
}
