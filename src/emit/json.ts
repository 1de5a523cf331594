import { expectArgument, isString } from "../diagnostics/index.js";
import type { CanonicalOperator } from "../syntax/index.js";

/** The parsed form of a Logpush filter string. */
export interface LogpushFilter {
  where: LogpushNode;
}

/** A node of the Logpush filter JSON: a comparison, or an `and`/`or` of nodes. */
export type LogpushNode = LogpushLeaf | { and: LogpushNode[] } | { or: LogpushNode[] };

/** A comparison in the Logpush filter JSON. */
export interface LogpushLeaf {
  key: string;
  operator: CanonicalOperator;
  /** A scalar is always a string (`"30"`); `in`/`!in` lists hold numbers for number fields, strings otherwise. */
  value: string | (string | number)[];
}

/** The filter as a JSON string literal, ready to paste into a job body. */
export function toJsonStringLiteral(filter: string): string {
  expectArgument(filter, isString, "toJsonStringLiteral", "filter", "the filter's JSON (a string)");
  return JSON.stringify(filter);
}

/**
 * The filter as an HCL (Terraform) string literal: JSON escaping (whose escapes HCL shares for
 * the text a filter holds: `\"` and `\\`; the filter's own control characters are already `\u`
 * escapes inside its JSON), plus `$${` and `%%{` so that HCL does not read template sequences in
 * the values. The replacements are functions: in a replacement string, `$$` is one `$`.
 */
export function toHclStringLiteral(filter: string): string {
  expectArgument(filter, isString, "toHclStringLiteral", "filter", "the filter's JSON (a string)");
  return JSON.stringify(filter)
    .replace(/\$\{/g, () => "$${")
    .replace(/%\{/g, () => "%%{");
}
