import type { Expr } from "./hcl-ast.js";
import { MappedText } from "./mapped-text.js";
import type { Site, SourceFile } from "./source-file.js";

/**
 * A value the configuration writes out in full, read without running Terraform: literals,
 * tuples, objects, `jsonencode`, `file`, variables with a written value, locals. Each value keeps
 * where it is written, so that a problem found in it is reported there.
 */
export type StaticValue =
  | {
      kind: "string";
      value: MappedText;
      site: Site;
      /** For the string `jsonencode` makes: where each value it encodes stands in its text. */
      encoded?: JsonPiece[];
      /** For the string `file()` reads: the file. */
      read?: SourceFile;
    }
  | { kind: "number"; text: string; site: Site }
  | { kind: "bool"; value: boolean; site: Site }
  | { kind: "null"; site: Site }
  | { kind: "array"; elements: StaticValue[]; site: Site }
  | { kind: "object"; entries: ObjectEntry[]; site: Site };

export interface ObjectEntry {
  name: MappedText;
  nameSite: Site;
  value: StaticValue;
}

/** What cannot be read statically, and why (a note, never an error). */
export interface Unread {
  kind: "unread";
  what: string;
  reason: string;
  site: Site;
  /** A `file()` path not read because it leads out of the folder checked: the path, and why. */
  outside?: { path: string; reason: string };
}

export type Evaluated = StaticValue | Unread;

/** What an expression may refer to: the module's variables and locals, and the files `file()` reads. */
export interface Scope {
  /** `var.NAME`: the value written for it (a `*.tfvars` file's, else the declaration's `default`). */
  variable(name: string): { expr: Expr; file: SourceFile } | undefined;
  /** `local.NAME`. */
  local(name: string): { expr: Expr; file: SourceFile } | undefined;
  /**
   * `file(PATH)`, PATH relative to the module's folder: the file, or why it cannot be read, or
   * why it is not read at all (it leads out of the folder or repository checked).
   */
  readFile(path: string): Promise<SourceFile | string | { outside: string }>;
}

/** How deep variables and locals may refer to one another (a cycle stops here too). */
const MAX_REFERENCE_DEPTH = 16;

export async function evaluate(expr: Expr, file: SourceFile, scope: Scope, depth = 0): Promise<Evaluated> {
  const site: Site = { file, start: expr.start, end: expr.end };
  const unread = (what: string, reason: string): Unread => ({ kind: "unread", what, reason, site });
  switch (expr.kind) {
    case "string":
      return { kind: "string", value: expr.value, site };
    case "number":
      return { kind: "number", text: expr.text, site };
    case "bool":
      return { kind: "bool", value: expr.value, site };
    case "null":
      return { kind: "null", site };
    case "tuple": {
      const elements: StaticValue[] = [];
      for (const element of expr.elements) {
        const value = await evaluate(element, file, scope, depth);
        if (value.kind === "unread") return value;
        elements.push(value);
      }
      return { kind: "array", elements, site };
    }
    case "object": {
      const entries: ObjectEntry[] = [];
      for (const item of expr.items) {
        if (item.key.kind === "expression")
          return unread("an object key in parentheses", "its name is computed by Terraform");
        const value = await evaluate(item.value, file, scope, depth);
        if (value.kind === "unread") return value;
        entries.push({ name: item.key.name, nameSite: { file, ...item.key.span }, value });
      }
      return { kind: "object", entries, site };
    }
    case "template":
      return template(expr, file, scope, depth, site);
    case "call":
      return call(expr, file, scope, depth, site);
    case "access": {
      const root = expr.target.kind === "variable" ? expr.target.name : undefined;
      const name = expr.key.kind === "attribute" ? expr.key.name : undefined;
      const shown = file.text.slice(expr.start, expr.end);
      if ((root === "var" || root === "local") && name !== undefined) {
        const found = root === "var" ? scope.variable(name) : scope.local(name);
        if (!found)
          return unread(
            shown,
            root === "var"
              ? "the variable has no default, and no value in terraform.tfvars or a *.auto.tfvars file"
              : "no locals block defines it",
          );
        if (depth >= MAX_REFERENCE_DEPTH)
          return unread(shown, `it refers through more than ${MAX_REFERENCE_DEPTH} variables and locals`);
        return evaluate(found.expr, found.file, scope, depth + 1);
      }
      // The module's folder: `file()` reads paths relative to it.
      if (root === "path" && name === "module")
        return { kind: "string", value: new MappedText(site).append(".", site, "syntax"), site };
      return unread(shown, "Terraform knows its value only when it plans or applies");
    }
    case "variable":
      return unread(expr.name, "Terraform knows its value only when it plans or applies");
    case "dynamic":
      return unread(expr.what, "Terraform computes it");
  }
}

async function template(
  expr: Extract<Expr, { kind: "template" }>,
  file: SourceFile,
  scope: Scope,
  depth: number,
  site: Site,
): Promise<Evaluated> {
  const value = new MappedText({ file, start: expr.end, end: expr.end });
  for (const part of expr.parts) {
    if (part.kind === "text") {
      value.appendMapped(part.value);
      continue;
    }
    if (part.kind === "directive")
      return { kind: "unread", what: "a template directive (%{…})", reason: "Terraform computes it", site };
    const inner = await evaluate(part.expr, file, scope, depth);
    if (inner.kind === "unread") return inner;
    const text = scalarText(inner);
    if (text === undefined)
      return {
        kind: "unread",
        what: "an interpolation",
        reason: "it holds a value that is not a string",
        site,
      };
    value.appendMapped(text);
  }
  return { kind: "string", value, site };
}

/** A string, number or bool as a template writes it. */
function scalarText(value: StaticValue): MappedText | undefined {
  if (value.kind === "string") return value.value;
  if (value.kind === "number" || value.kind === "bool") {
    const text = value.kind === "number" ? value.text : String(value.value);
    return new MappedText(value.site).append(text, value.site, "syntax");
  }
  return undefined;
}

async function call(
  expr: Extract<Expr, { kind: "call" }>,
  file: SourceFile,
  scope: Scope,
  depth: number,
  site: Site,
): Promise<Evaluated> {
  const unread = (reason: string): Unread => ({ kind: "unread", what: `${expr.name}(…)`, reason, site });
  if (expr.expandsLast || (expr.name !== "jsonencode" && expr.name !== "file"))
    return unread(
      expr.expandsLast
        ? "its arguments are expanded from a list"
        : "filterc reads only jsonencode and file among Terraform's functions",
    );
  if (expr.args.length !== 1) return unread("it takes one argument");
  const argument = await evaluate(expr.args[0]!, file, scope, depth);
  if (argument.kind === "unread") return argument;
  if (expr.name === "jsonencode") {
    const { text, pieces } = jsonText(argument);
    return { kind: "string", value: text, site, encoded: pieces };
  }
  if (argument.kind !== "string") return unread("its argument is not a path");
  const path = argument.value.text;
  const read = await scope.readFile(path);
  if (typeof read === "object" && "outside" in read)
    return { ...unread("it is not read"), outside: { path, reason: read.outside } };
  if (typeof read === "string") return unread(`${JSON.stringify(path)} cannot be read: ${read}`);
  const content = new MappedText({ file: read, start: read.text.length, end: read.text.length });
  for (let i = 0; i < read.text.length; i++)
    content.append(read.text[i]!, { file: read, start: i, end: i + 1 }, "raw");
  return { kind: "string", value: content, site, read };
}

/** Where a value stands in the JSON text `jsonencode` makes: the text's range, and the value. */
export interface JsonPiece {
  start: number;
  end: number;
  value: StaticValue;
}

/**
 * The JSON `jsonencode` makes of a value, as Terraform writes it (compact, object keys in order,
 * `<`, `>` and `&` escaped), with each character mapped to where it is written: a string's
 * characters to theirs, brackets and separators to the value they belong to.
 */
export function jsonText(value: StaticValue): { text: MappedText; pieces: JsonPiece[] } {
  const text = new MappedText(value.site);
  const pieces: JsonPiece[] = [];
  const syntax = (chars: string, site: Site) => text.append(chars, site, "syntax");
  const edge = (site: Site, at: "start" | "end"): Site =>
    at === "start" ? { ...site, end: site.start + 1 } : { ...site, start: site.end - 1 };
  const write = (node: StaticValue): void => {
    const start = text.text.length;
    switch (node.kind) {
      case "string":
        syntax('"', edge(node.site, "start"));
        writeString(node.value);
        syntax('"', edge(node.site, "end"));
        break;
      case "number":
        syntax(jsonNumber(node.text), node.site);
        break;
      case "bool":
      case "null":
        syntax(node.kind === "null" ? "null" : String(node.value), node.site);
        break;
      case "array":
        syntax("[", edge(node.site, "start"));
        node.elements.forEach((element, index) => {
          if (index > 0) syntax(",", element.site);
          write(element);
        });
        syntax("]", edge(node.site, "end"));
        break;
      case "object": {
        syntax("{", edge(node.site, "start"));
        const sorted = [...node.entries].sort((a, b) =>
          a.name.text < b.name.text ? -1 : a.name.text > b.name.text ? 1 : 0,
        );
        sorted.forEach((entry, index) => {
          if (index > 0) syntax(",", entry.nameSite);
          syntax('"', edge(entry.nameSite, "start"));
          writeString(entry.name);
          syntax('"', edge(entry.nameSite, "end"));
          syntax(":", entry.nameSite);
          write(entry.value);
        });
        syntax("}", edge(node.site, "end"));
        break;
      }
    }
    pieces.push({ start, end: text.text.length, value: node });
  };
  const writeString = (value: MappedText) => {
    for (let i = 0; i < value.text.length; i++) syntax(jsonChar(value.text[i]!), value.siteOf(i, i + 1));
  };
  write(value);
  return { text: text.endAt(value.site), pieces };
}

/** One character as Go's JSON encoder writes it inside a string. */
function jsonChar(c: string): string {
  if (c === "<" || c === ">" || c === "&" || c === "\u2028" || c === "\u2029")
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  return JSON.stringify(c).slice(1, -1);
}

/** An HCL number as JSON writes it: HCL takes `1.` and `.5`-free forms JSON also takes, save a leading `+`. */
function jsonNumber(text: string): string {
  const value = Number(text);
  return Number.isFinite(value) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(text) ? text : String(value);
}
