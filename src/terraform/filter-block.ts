import { diagnose } from "../diagnostics/index.js";
import type { FileDiagnostic } from "./filter-check.js";
import type { Block, Body } from "./hcl-ast.js";
import type { SourceFile } from "./source-file.js";

/**
 * A `filter { where { … } }` block in a job: the provider's `filter` is a string, so a block is
 * refused at plan time. E0907 at the block's name, with the block written as
 * `filter = jsonencode({ where = { … } })` when it converts as written (no labels, no block
 * type given twice): each `name {` becomes `name = {`, which an HCL object takes as it is.
 */
export function filterBlockProblem(block: Block, file: SourceFile): FileDiagnostic {
  const diagnostic = diagnose("FilterBlock", file.rangeOf(block.typeSpan.start, block.typeSpan.end), {});
  const replacement = asJsonencode(block, file.text);
  if (replacement !== undefined)
    diagnostic.suggestion = {
      message: "write it as filter = jsonencode({ … })",
      range: file.rangeOf(block.start, block.end),
      replacement,
    };
  return { file, diagnostic };
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function asJsonencode(block: Block, text: string): string | undefined {
  const open = openingBrace(block, text);
  if (open === undefined) return undefined;
  const edits: Edit[] = [
    { start: block.typeSpan.end, end: open + 1, text: " = jsonencode({" },
    { start: block.end - 1, end: block.end, text: "})" },
  ];
  if (!nestedAsObjects(block.body, text, edits)) return undefined;
  edits.sort((a, b) => a.start - b.start);
  let result = "";
  let cursor = block.start;
  for (const edit of edits) {
    result += text.slice(cursor, edit.start) + edit.text;
    cursor = edit.end;
  }
  return result + text.slice(cursor, block.end);
}

/** Each block in the body as an object (`name = {`); false when one cannot be. */
function nestedAsObjects(body: Body, text: string, edits: Edit[]): boolean {
  const names = new Set<string>();
  for (const item of body.items) {
    const name = item.kind === "block" ? item.type : item.name;
    // Two blocks of a type are a list to the provider's schema, two keys to an object.
    if (names.has(name)) return false;
    names.add(name);
    if (item.kind !== "block") continue;
    const open = openingBrace(item, text);
    if (open === undefined) return false;
    edits.push({ start: item.typeSpan.end, end: open, text: " = " });
    if (!nestedAsObjects(item.body, text, edits)) return false;
  }
  return true;
}

/** The offset of a block's `{` right after its type, when it has no labels and ends with `}`. */
function openingBrace(block: Block, text: string): number | undefined {
  if (block.labels.length > 0 || text[block.end - 1] !== "}") return undefined;
  const at = text.indexOf("{", block.typeSpan.end);
  return at !== -1 && text.slice(block.typeSpan.end, at).trim() === "" ? at : undefined;
}
