import type { Node } from "jsonc-parser";
import type { Catalog, FieldInfo } from "../catalog/index.js";
import {
  closestMatch,
  type Diagnostic,
  diagnose,
  type Range,
  type Suggestion,
} from "../diagnostics/index.js";
import type {
  CanonicalOperator,
  Comparison,
  ErrorNode,
  Expr,
  OperatorRef,
  Scalar,
  Value,
} from "../syntax/index.js";
import { isCanonicalOperator, OPERATOR_NAMES } from "../syntax/index.js";
import { type JsonDocument, jsonTypeName, membersOf, pointerSegment } from "./document.js";
import { suggestJsonOperator } from "./operators.js";

/** What a range of the AST stands for in the JSON: the member's pointer and its role. */
interface Place {
  pointer: string;
  role: "key" | "operator" | "value" | "node";
}

const leafMembers = ["key", "operator", "value"] as const;
const groupMembers = ["and", "or"] as const;
const nodeMembers = [...leafMembers, ...groupMembers];

/** The type one JSON value must have for a field, as far as reading it goes (the checker judges it). */
type Reading = "string" | "int" | "float" | "bool" | "any";

function readingOf(field: FieldInfo | undefined): Reading {
  if (!field) return "any";
  if (field.type === "array") return field.elementType === "int" ? "int" : "string";
  if (field.type === "object") return "any";
  return field.type;
}

/**
 * Reads the Logpush JSON shape into the AST the checker takes, so that decompiled comparisons are
 * held to exactly the compiler's rules. Shape errors (unknown keys, `not` nodes, missing members,
 * wrong JSON types) are reported here with their JSON pointer; every error becomes an error node
 * and reading goes on, so one pass reports every problem.
 */
export class ShapeReader {
  readonly diagnostics: Diagnostic[] = [];
  /**
   * What each range of the AST stands for, keyed by its offsets in the document: a diagnostic
   * finds its member by where it points, whatever object holds the range.
   */
  private readonly places = new Map<string, Place>();

  constructor(
    private readonly document: JsonDocument,
    private readonly catalog: Catalog | undefined,
  ) {}

  /** The `where` of a filter object, or null when the object is not a filter (reported). */
  filter(root: Node): Expr | null {
    const members = this.members(root, "");
    const where = members.find((member) => member.name === "where");
    if (!where) {
      const looksLikeNode = members.some((member) => (nodeMembers as string[]).includes(member.name));
      const range = this.document.rangeOf(root);
      const text = this.document.text.slice(root.offset, root.offset + root.length);
      const suggestion = looksLikeNode
        ? this.suggest(range, `{"where":${text}}`, 'wrap it in {"where": …}')
        : undefined;
      this.report(diagnose("MissingWhere", range, { at: "" }, suggestion), "");
      return null;
    }
    for (const member of members) {
      if (member.name !== "where")
        this.unknownKey(member, "", { note: 'a filter has only "where" at the top' });
    }
    return this.node(where.value, "/where");
  }

  private node(node: Node | undefined, pointer: string): Expr {
    if (node?.type !== "object") {
      return this.wrongType(
        node,
        pointer,
        "a condition",
        'an object: {"key", "operator", "value"} or a group',
      );
    }
    const members = this.members(node, pointer);
    const present = (name: string) => members.find((member) => member.name === name);
    for (const member of members) {
      if ((nodeMembers as string[]).includes(member.name)) continue;
      if (/^not$/i.test(member.name)) {
        const range = this.document.rangeOf(member.key);
        const notPointer = pointer + pointerSegment(member.name);
        this.report(diagnose("NotNode", range, { at: at(notPointer), key: member.name }), notPointer);
      } else if (member.name === "where") {
        this.unknownKey(member, pointer, { note: '"where" belongs only at the top of the filter' });
      } else {
        this.unknownKey(member, pointer, { meant: closestMatch(member.name, nodeMembers) });
      }
    }
    const groups = groupMembers.filter((name) => present(name));
    const leafKeys = leafMembers.filter((name) => present(name));
    if (groups.length + (leafKeys.length > 0 ? 1 : 0) > 1) {
      const names = [...groups, ...leafKeys].map((name) => `"${name}"`).join(", ");
      const second = present(groups.length > 1 ? groups[1]! : leafKeys[0]!)!;
      this.report(
        diagnose("MixedNode", this.document.rangeOf(second.key), { at: at(pointer), keys: names }),
        pointer,
      );
      return this.errorAt(node);
    }
    const group = groups[0];
    if (group) return this.group(group, present(group)!.value!, pointer, node);
    if (leafKeys.length > 0) return this.comparison(node, pointer, present);
    if (members.length === 0)
      this.wrongType(
        node,
        pointer,
        "a condition",
        'a comparison {"key", "operator", "value"} or a group',
        "an empty object",
      );
    return this.errorAt(node);
  }

  private group(kind: "and" | "or", value: Node, nodePointer: string, node: Node): Expr {
    const pointer = `${nodePointer}/${kind}`;
    if (value.type !== "array") return this.wrongType(value, pointer, `"${kind}"`, "an array of conditions");
    const elements = value.children ?? [];
    if (elements.length === 0) {
      this.report(
        diagnose("EmptyGroup", this.document.rangeOf(value), { at: at(pointer), group: kind }),
        pointer,
      );
      return this.errorAt(node);
    }
    const operands = elements.map((element, index) => this.node(element, pointer + pointerSegment(index)));
    return { kind, operands, range: this.place(node, nodePointer, "node") };
  }

  private comparison(
    node: Node,
    pointer: string,
    present: (name: string) => { key: Node; value: Node | undefined } | undefined,
  ): Expr {
    let complete = true;
    for (const member of leafMembers) {
      if (present(member)) continue;
      complete = false;
      this.report(
        diagnose("MissingMember", this.document.rangeOf(node), { at: at(pointer), member }),
        pointer,
      );
    }
    const keyNode = present("key")?.value;
    const operatorNode = present("operator")?.value;
    const valueNode = present("value")?.value;
    const keyPointer = `${pointer}/key`;
    let field: FieldInfo | undefined;
    let fieldName: string | undefined;
    if (keyNode && keyNode.type !== "string") {
      this.wrongType(keyNode, keyPointer, '"key"', "a field name string");
      complete = false;
    } else if (keyNode) {
      fieldName = String(keyNode.value);
      field = this.fieldFor(fieldName);
    }
    const operator = operatorNode ? this.operator(operatorNode, `${pointer}/operator`) : undefined;
    if (!operator || operator.kind === "error") complete = false;
    const value =
      valueNode && operator?.kind === "operator" && operator.op
        ? this.value(valueNode, `${pointer}/value`, operator.op, field)
        : undefined;
    if (!complete || !keyNode || fieldName === undefined || !operator || !value) return this.errorAt(node);
    const comparison: Comparison = {
      kind: "comparison",
      field: { kind: "field", name: fieldName, range: this.place(keyNode, keyPointer, "key") },
      operator,
      value,
      range: this.place(node, pointer, "node"),
    };
    return comparison;
  }

  /**
   * The field whose type reads a key's value: the key's field, or the one the checker will name as
   * its fix (`botscore` → `BotScore`), so that the value is read as that field's and the checker
   * judges it against that field, as it does in source.
   */
  private fieldFor(name: string): FieldInfo | undefined {
    const catalog = this.catalog;
    if (!catalog) return undefined;
    const meant =
      catalog.byLowerName.get(name.toLowerCase())?.name ?? closestMatch(name, catalog.fields.keys());
    return catalog.fields.get(name) ?? (meant === undefined ? undefined : catalog.fields.get(meant));
  }

  private operator(node: Node, pointer: string): OperatorRef | ErrorNode {
    if (node.type !== "string")
      return this.wrongType(node, pointer, '"operator"', 'an operator string such as "eq"');
    const text = String(node.value);
    const range = this.place(node, pointer, "operator");
    if (isCanonicalOperator(text)) return { kind: "operator", op: text, text, range };
    const suggestion = suggestJsonOperator(text);
    this.report(
      diagnose(
        "UnknownJsonOperator",
        range,
        { at: at(pointer), operator: text, meant: suggestion, known: OPERATOR_NAMES },
        suggestion ? this.suggest(range, JSON.stringify(suggestion)) : undefined,
      ),
      pointer,
    );
    return { kind: "error", range };
  }

  private value(
    node: Node,
    pointer: string,
    operator: CanonicalOperator,
    field: FieldInfo | undefined,
  ): Value | undefined {
    const reading = readingOf(field);
    if (node.type === "array") {
      const elements: Scalar[] = [];
      let failed = false;
      (node.children ?? []).forEach((element, index) => {
        const scalar = this.scalar(element, pointer + pointerSegment(index), reading);
        if (scalar) elements.push(scalar);
        else failed = true;
      });
      return failed ? undefined : { kind: "list", elements, range: this.place(node, pointer, "value") };
    }
    if (
      (operator === "in" || operator === "!in") &&
      node.type === "string" &&
      (reading === "int" || reading === "float")
    ) {
      const parts = String(node.value)
        .split(",")
        .map((part) => part.trim());
      if (parts.length > 1 && parts.every((part) => /^-?\d+(\.\d+)?$/.test(part))) {
        const replacement = `[${parts.join(",")}]`;
        const range = this.document.rangeOf(node);
        this.report(
          diagnose(
            "CommaJoinedList",
            range,
            { at: at(pointer), operator, replacement },
            this.suggest(range, replacement),
          ),
          pointer,
        );
        return undefined;
      }
    }
    return this.scalar(node, pointer, reading);
  }

  /** One JSON value as the AST scalar the checker judges: numbers in strings are read as numbers on number fields. */
  private scalar(node: Node, pointer: string, reading: Reading): Scalar | undefined {
    const range = () => this.place(node, pointer, "value");
    switch (node.type) {
      case "string": {
        const text = String(node.value);
        if ((reading === "int" || reading === "float") && /^-?\d+$/.test(text))
          return { kind: "int", digits: text, range: range() };
        if ((reading === "int" || reading === "float") && /^-?\d+\.\d+$/.test(text))
          return { kind: "decimal", text, range: range() };
        if (reading === "bool" && (text === "true" || text === "false"))
          return { kind: "bool", value: text === "true", range: range() };
        return { kind: "string", value: text, range: range() };
      }
      case "number": {
        const text = this.document.text.slice(node.offset, node.offset + node.length);
        if (/[eE]/.test(text)) {
          this.report(
            diagnose("NumberNotPlain", this.document.rangeOf(node), { at: at(pointer), text }),
            pointer,
          );
          return undefined;
        }
        return text.includes(".")
          ? { kind: "decimal", text, range: range() }
          : { kind: "int", digits: text, range: range() };
      }
      case "boolean":
        return { kind: "bool", value: node.value === true, range: range() };
      default:
        this.wrongType(node, pointer, "a value", "a string, a number or true/false");
        return undefined;
    }
  }

  /** The members of an object, reporting keys given twice. */
  private members(node: Node, pointer: string) {
    const members = membersOf(node);
    const seen = new Set<string>();
    for (const member of members) {
      if (seen.has(member.name)) {
        this.report(
          diagnose("DuplicateKey", this.document.rangeOf(member.key), {
            at: at(pointer + pointerSegment(member.name)),
            key: member.name,
          }),
          pointer + pointerSegment(member.name),
        );
      }
      seen.add(member.name);
    }
    return members;
  }

  /** An unknown key, with the key probably meant (offered as the fix) or a note on where it belongs. */
  private unknownKey(
    member: { key: Node; name: string },
    pointer: string,
    hint: { meant?: string | undefined; note?: string },
  ): void {
    const memberPointer = pointer + pointerSegment(member.name);
    const range = this.document.rangeOf(member.key);
    const { meant, note } = hint;
    this.report(
      diagnose(
        "UnknownKey",
        range,
        { at: at(memberPointer), key: member.name, meant, note },
        meant ? this.suggest(range, JSON.stringify(meant)) : undefined,
      ),
      memberPointer,
    );
  }

  private wrongType(
    node: Node | undefined,
    pointer: string,
    what: string,
    expected: string,
    found?: string,
  ): ErrorNode {
    const range = node ? this.document.rangeOf(node) : this.document.lines.rangeOf(0, 0);
    this.report(
      diagnose("WrongJsonType", range, {
        at: at(pointer),
        what,
        expected,
        found: found ?? jsonTypeName(node),
      }),
      pointer,
    );
    return { kind: "error", range };
  }

  private errorAt(node: Node): ErrorNode {
    return { kind: "error", range: this.document.rangeOf(node) };
  }

  private place(node: Node, pointer: string, role: Place["role"]): Range {
    const range = this.document.rangeOf(node);
    this.places.set(placeKey(range), { pointer, role });
    return range;
  }

  /** The JSON member a range of the AST stands for, if it stands for one. */
  placeOf(range: Range): Place | undefined {
    return this.places.get(placeKey(range));
  }

  private suggest(range: Range, replacement: string, message = `replace with ${replacement}`): Suggestion {
    return { message, range, replacement };
  }

  private report(diagnostic: Diagnostic, pointer: string): void {
    diagnostic.pointer = pointer;
    this.diagnostics.push(diagnostic);
  }
}

const placeKey = (range: Range) => `${range.start.offset}:${range.end.offset}`;

/** The message prefix that names where in the JSON a problem is. */
export function at(pointer: string): string {
  return pointer ? `${pointer}: ` : "";
}
