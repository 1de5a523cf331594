import { type Leaf, type Meaning, scalarText } from "../check/index.js";

/** The compact JSON of a filter, its UTF-8 length, and where each comparison ends in it. */
interface Serialized {
  text: string;
  bytes: number;
  /** The comparisons in output order. */
  leaves: Leaf[];
  /** The UTF-8 byte offset at which the JSON of each of `leaves` ends (two arrays: no object per comparison). */
  endBytes: number[];
}

/** UTF-8 length of a string whose surrogates are paired (JSON.stringify escapes lone ones). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff) {
      // A surrogate pair: two code units already counted, four bytes in UTF-8.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * Writes a filter's meaning (`not`-free, as Logpush JSON is) as Logpush JSON, compact and in a fixed
 * key order. Only string values can hold non-ASCII text (field names and operators are ASCII),
 * so the UTF-8 length is counted over them alone.
 */
export function serialize(cond: Meaning): Serialized {
  const writer = new Writer();
  writer.cond(cond);
  const text = `${writer.text}}`;
  return { text, bytes: text.length + writer.extraBytes, leaves: writer.leaves, endBytes: writer.endBytes };
}

/** The JSON of one comparison, as it stands inside the filter. */
export function comparisonJson(leaf: Leaf): string {
  return new Writer().leafJson(leaf);
}

/** Appends the JSON to one string (V8 joins appended strings lazily, which beats collecting parts). */
class Writer {
  text = '{"where":';
  leaves: Leaf[] = [];
  endBytes: number[] = [];
  /** UTF-8 bytes beyond one per UTF-16 code unit, so far. */
  extraBytes = 0;

  cond(current: Meaning): void {
    switch (current.kind) {
      case "leaf":
        this.text += this.leafJson(current);
        this.leaves.push(current);
        this.endBytes.push(this.text.length + this.extraBytes);
        return;
      case "and":
      case "or":
        this.text += current.kind === "and" ? '{"and":[' : '{"or":[';
        for (let i = 0; i < current.operands.length; i++) {
          if (i > 0) this.text += ",";
          this.cond(current.operands[i]!);
        }
        this.text += "]}";
        return;
    }
  }

  leafJson(leaf: Leaf): string {
    let value: string;
    if (Array.isArray(leaf.value)) {
      // Lists hold numbers for number fields and strings otherwise; never a comma-joined string.
      const list = leaf.value;
      let numeric = true;
      for (let i = 0; i < list.length; i++) if (list[i]!.kind !== "number") numeric = false;
      value = "[";
      for (let i = 0; i < list.length; i++) {
        const text = scalarText(list[i]!);
        value += `${i > 0 ? "," : ""}${numeric ? text : this.quoted(text)}`;
      }
      value += "]";
    } else {
      value = this.quoted(scalarText(leaf.value));
    }
    return `{"key":"${leaf.field.name}","operator":"${leaf.operator}","value":${value}}`;
  }

  private quoted(value: string): string {
    // Printable ASCII without `"` and `\` is written as it is: the common case, and cheaper to
    // check than to escape.
    let plain = true;
    for (let i = 0; i < value.length; i++) {
      const code = value.charCodeAt(i);
      if (code < 0x20 || code > 0x7e || code === 0x22 || code === 0x5c) {
        plain = false;
        break;
      }
    }
    if (plain) return `"${value}"`;
    const json = JSON.stringify(value);
    this.extraBytes += utf8Length(json) - json.length;
    return json;
  }
}
