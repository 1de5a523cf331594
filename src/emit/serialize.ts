import type { Cond, Leaf, ScalarValue } from "../check/index.js";
import type { LogpushFilter, LogpushLeaf, LogpushNode } from "./json.js";

/** The compact JSON of a filter, its parsed form, and where each comparison ends in the output. */
export interface Serialized {
  text: string;
  json: LogpushFilter;
  bytes: number;
  /** The comparisons in output order, each with the UTF-8 byte offset at which its JSON ends. */
  leaves: { leaf: Leaf; endByte: number }[];
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
  let bytes = text.length;
  const write = (chunk: string) => {
    text += chunk;
    bytes += utf8Length(chunk);
  };
  const node = (current: Cond): LogpushNode => {
    switch (current.kind) {
      case "leaf": {
        const leaf = writeLeaf(current, write);
        leaves.push({ leaf: current, endByte: bytes });
        return leaf;
      }
      case "and":
      case "or": {
        write(`{"${current.kind}":[`);
        const children: LogpushNode[] = [];
        current.operands.forEach((operand, index) => {
          if (index > 0) write(",");
          children.push(node(operand));
        });
        write("]}");
        return current.kind === "and" ? { and: children } : { or: children };
      }
      case "not":
        throw new Error("serialize needs the negation normal form");
    }
  };
  const where = node(cond);
  write("}");
  return { text, json: { where }, bytes, leaves };
}

function writeLeaf(leaf: Leaf, write: (chunk: string) => void): LogpushLeaf {
  let value: LogpushLeaf["value"];
  let valueText: string;
  if (Array.isArray(leaf.value)) {
    const numeric = leaf.value.every((v) => v.kind === "number");
    if (numeric) {
      valueText = `[${leaf.value.map(scalarText).join(",")}]`;
      value = leaf.value.map((v) => Number(scalarText(v)));
    } else {
      const strings = leaf.value.map(scalarText);
      valueText = `[${strings.map((s) => JSON.stringify(s)).join(",")}]`;
      value = strings;
    }
  } else {
    value = scalarText(leaf.value);
    valueText = JSON.stringify(value);
  }
  write(
    `{"key":${JSON.stringify(leaf.field.name)},"operator":${JSON.stringify(leaf.operator)},"value":${valueText}}`,
  );
  return { key: leaf.field.name, operator: leaf.operator, value };
}
