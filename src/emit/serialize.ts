import type { Cond, Leaf, ScalarValue } from "../check/index.js";

/** The compact JSON of a filter and where each comparison ends in it. */
export interface Serialized {
  text: string;
  /** The comparisons in output order, each with the string offset at which its JSON ends. */
  leaves: { leaf: Leaf; end: number }[];
}

/** UTF-8 length of a string whose surrogates are paired (JSON.stringify escapes lone ones). */
export function utf8Length(text: string, end = text.length): number {
  let bytes = end;
  for (let i = 0; i < end; i++) {
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

function scalarText(value: ScalarValue): string {
  switch (value.kind) {
    case "string":
      return value.value;
    case "number":
      return value.text;
    case "bool":
      return value.value ? "true" : "false";
  }
}

/** Writes the condition (already in negation normal form) as Logpush JSON, compact and in a fixed key order. */
export function serialize(cond: Cond): Serialized {
  const leaves: Serialized["leaves"] = [];
  let text = '{"where":';
  const node = (current: Cond): void => {
    switch (current.kind) {
      case "leaf":
        text += leafJson(current);
        leaves.push({ leaf: current, end: text.length });
        return;
      case "and":
      case "or":
        text += current.kind === "and" ? '{"and":[' : '{"or":[';
        for (let i = 0; i < current.operands.length; i++) {
          if (i > 0) text += ",";
          node(current.operands[i]!);
        }
        text += "]}";
        return;
      case "not":
        throw new Error("serialize needs the negation normal form");
    }
  };
  node(cond);
  text += "}";
  return { text, leaves };
}

function leafJson(leaf: Leaf): string {
  let value: string;
  if (Array.isArray(leaf.value)) {
    // Lists hold numbers for number fields and strings otherwise; never a comma-joined string.
    const numeric = leaf.value.every((v) => v.kind === "number");
    value = `[${leaf.value.map((v) => (numeric ? scalarText(v) : JSON.stringify(scalarText(v)))).join(",")}]`;
  } else {
    value = JSON.stringify(scalarText(leaf.value));
  }
  return `{"key":${JSON.stringify(leaf.field.name)},"operator":"${leaf.operator}","value":${value}}`;
}
