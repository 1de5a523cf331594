import type { Catalog } from "../catalog/index.js";
import { closestMatch } from "../diagnostics/index.js";

/** A Go text/template action's body as Logpush takes it: a field (`.Name`) or a string constant. */
const FIELD_ACTION = /^\.([A-Za-z_][A-Za-z0-9_]*)$/;
const STRING_ACTION = /^(?:"(?:[^"\\\n]|\\.)*"|`[^`]*`)$/;

export interface RecordTemplateCheck {
  /** What is wrong, each naming the action and its offset. */
  problems: string[];
  /** The fields the template reads, in order, each once. */
  fields: string[];
}

/**
 * Checks a `record_template`: a Go text/template without functions, so every action (`{{ … }}`,
 * with optional trim markers `{{-` and `-}}`) is a field of the dataset or a quoted constant.
 */
export function checkRecordTemplate(template: string, catalog: Catalog | undefined): RecordTemplateCheck {
  const problems: string[] = [];
  const fields: string[] = [];
  let at = template.indexOf("{{");
  while (at !== -1) {
    const end = template.indexOf("}}", at + 2);
    if (end === -1) {
      problems.push(`the action opened at offset ${at} is not closed with }}`);
      break;
    }
    const written = template.slice(at, end + 2);
    const body = template
      .slice(at + 2, end)
      .replace(/^-\s/, "")
      .replace(/\s-$/, "")
      .trim();
    const field = FIELD_ACTION.exec(body)?.[1];
    if (field !== undefined) {
      if (catalog && !catalog.fields.has(field)) {
        const closest = closestMatch(field, catalog.fields.keys());
        problems.push(
          `${JSON.stringify(written)} at offset ${at} reads ${field}, which is not a field of ${catalog.dataset}${closest ? ` (did you mean ${closest}?)` : ""}`,
        );
      } else if (!fields.includes(field)) fields.push(field);
    } else if (!STRING_ACTION.test(body) && !/^\/\*[\s\S]*\*\/$/.test(body)) {
      problems.push(`${JSON.stringify(written)} at offset ${at} is neither a field nor a constant`);
    }
    at = template.indexOf("{{", end + 2);
  }
  return { problems, fields };
}
