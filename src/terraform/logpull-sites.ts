import type { Problem } from "../api/index.js";
import type { MappedText } from "./mapped-text.js";
import type { Site } from "./source-file.js";

/** A `key=value` part of a `logpull_options` string: its offsets in the string's value. */
interface Part {
  start: number;
  end: number;
  /** Where the value starts (after `=`); undefined for a part without `=`. */
  valueStart: number | undefined;
  /** The key, percent-decoded; undefined when it has no `=` or does not decode. */
  key: string | undefined;
}

/** A Logpull URL in place of its query string, as the API module tells it (reported whole). */
const WHOLE_URL = /^[a-z][a-z0-9+.-]*:\/\/|^[^=&]*\?/i;

/**
 * Where in a `logpull_options` string a problem the API module found is written: the part it
 * names (`logpull_options.KEY`: the key of an unknown one, else the value; `fields[N]`: that
 * field's name), or the part without `=` or with a key that does not decode, in the order the
 * module reports them. Undefined for a problem with the whole string.
 */
export function logpullSite(text: MappedText, problem: Problem, keyless: number): Site | undefined {
  const value = text.text;
  if (WHOLE_URL.test(value)) return undefined;
  const parts = partsOf(value);
  const path = /^logpull_options(?:\.([^[]+))?(?:\[(\d+)\])?$/.exec(problem.path);
  if (!path) return undefined;
  const [, key, index] = path;
  if (key === undefined) {
    const part = parts.filter((candidate) => candidate.key === undefined)[keyless];
    return part && text.siteOf(part.start, part.end);
  }
  const named = parts.filter((candidate) => candidate.key === key);
  const part = problem.message.includes("given twice") ? named[1] : named[0];
  if (!part || part.valueStart === undefined) return undefined;
  if (index === undefined)
    return WHOLE_PART.has(problem.code)
      ? text.siteOf(part.start, part.end)
      : text.siteOf(part.valueStart, part.end);
  const names = value.slice(part.valueStart, part.end).split(",");
  const name = names[Number(index)];
  if (name === undefined) return undefined;
  const start = part.valueStart + names.slice(0, Number(index)).reduce((sum, n) => sum + n.length + 1, 0);
  return text.siteOf(start, start + name.length);
}

/** Problems with a part itself (an unknown key, a key given twice, a bad `%`), not with its value. */
const WHOLE_PART = new Set(["E0622", "E0625"]);

function partsOf(value: string): Part[] {
  const parts: Part[] = [];
  let start = 0;
  for (const written of value.split("&")) {
    const end = start + written.length;
    if (written !== "") {
      const at = written.indexOf("=");
      parts.push({
        start,
        end,
        valueStart: at === -1 ? undefined : start + at + 1,
        key: at === -1 ? undefined : decoded(written.slice(0, at)),
      });
    }
    start = end + 1;
  }
  return parts;
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}
