import fc from "fast-check";

/*
 * HCL native syntax, generated: every expression form of the specification's grammar
 * (hashicorp/hcl, hclsyntax/spec.md), nested, written as a person may write it: literals,
 * quoted templates with `${…}` and `%{…}` directives, heredocs, tuples, objects, index (`[ ]`
 * and legacy `.0`), attribute access, splats (`[*]`, `.*`), `for` expressions for tuples and
 * objects (with `if`), conditionals, unary and binary operators, function calls (with `...`),
 * parentheses, and comments between elements. Each expression is on one line, except heredocs.
 */

const NAMES = ["x", "var", "local", "each", "count", "path", "module", "data", "aws_s3_bucket", "v_2", "a-b"];
const name = fc.constantFrom(...NAMES);
/** Object keys: names, and those of a filter and a job, so that filters are generated too. */
const keyName = fc.constantFrom(...NAMES, "where", "dataset", "filter", "key", "operator", "value", "and");
const BINARY = ["+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&", "||"];
const FUNCTIONS = ["jsonencode", "file", "templatefile", "lower", "merge", "concat", "f", "provider::p::f"];

/** Text inside a quoted string: plain characters and each escape HCL knows. */
const quotedText = fc
  .array(
    fc.constantFrom(
      "a",
      "Z",
      " ",
      "é",
      "😀",
      "/",
      ":",
      "$",
      "%",
      "{",
      "}",
      "\\n",
      '\\"',
      "\\\\",
      "\\t",
      "\\u00e9",
      "\\U0001F600",
      "$${",
      "%%{",
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(""))
  // `$` or `%` before `{` would start an interpolation (and at the end, before the next part's).
  .map((text) => text.replace(/([$%])(?=\{|$)/g, "$1 "));

/** A heredoc's lines: text without its marker, interpolations allowed. */
const heredocLine = fc
  .array(fc.constantFrom("a", " ", "{", "}", '"', "\\", "é", "$${", "%%{", ":"), { maxLength: 6 })
  .map((parts) => parts.join("").replace(/([$%])(?=\{|$)/g, "$1 "));

const number = fc.constantFrom("0", "12", "1.5", "1e3", "2E-2", "007");
const comment = fc.constantFrom("", "", "", " /* c */", " /* {[( */");

interface Arbitraries {
  expr: string;
  operand: string;
  term: string;
  template: string;
}

/** Wraps an expression in parentheses where a term is needed. */
const paren = (text: string) => `(${text})`;

const arbitraries = fc.letrec<Arbitraries>((tie) => {
  const expr = tie("expr") as fc.Arbitrary<string>;
  const operand = tie("operand") as fc.Arbitrary<string>;
  const term = tie("term") as fc.Arbitrary<string>;
  const template = tie("template") as fc.Arbitrary<string>;
  const list = <T>(item: fc.Arbitrary<T>) => fc.array(item, { maxLength: 2 });
  const step = fc.oneof(
    name.map((n) => `.${n}`),
    fc.nat({ max: 12 }).map((n) => `.${n}`),
    expr.map((e) => `[${e}]`),
    fc.constantFrom("[*]", ".*"),
    fc.tuple(fc.constantFrom("[*]", ".*"), name).map(([s, n]) => `${s}.${n}`),
  );
  const call = fc
    .tuple(fc.constantFrom(...FUNCTIONS), list(expr), fc.boolean())
    .map(([f, args, expand]) => `${f}(${args.join(", ")}${expand && args.length > 0 ? "..." : ""})`);
  const objectKey = fc.oneof(
    keyName,
    quotedText.map((t) => `"${t}"`),
    expr.map(paren),
  );
  return {
    expr: fc.oneof(
      { maxDepth: 5, depthIdentifier: "hcl", withCrossShrink: true },
      operand,
      fc.tuple(operand, operand, operand).map(([c, a, b]) => `${c} ? ${a} : ${b}`),
    ),
    operand: fc.oneof(
      { maxDepth: 5, depthIdentifier: "hcl", withCrossShrink: true },
      term,
      fc.tuple(fc.constantFrom("!", "-"), term).map(([op, t]) => `${op}${t}`),
      fc.tuple(term, fc.constantFrom(...BINARY), term).map(([a, op, b]) => `${a} ${op} ${b}`),
      fc
        .tuple(term, fc.constantFrom(...BINARY), term, fc.constantFrom(...BINARY), term)
        .map(([a, o1, b, o2, c]) => `${a} ${o1} ${b} ${o2} ${c}`),
    ),
    term: fc.oneof(
      { maxDepth: 5, depthIdentifier: "hcl", withCrossShrink: true },
      number,
      fc.constantFrom("true", "false", "null"),
      quotedText.map((t) => `"${t}"`),
      name,
      template,
      fc
        .tuple(list(expr), comment, fc.boolean())
        .map(([items, c, trailing]) =>
          items.length === 0 ? `[${c}]` : `[${items.join(`,${c} `)}${trailing ? "," : ""}]`,
        ),
      fc
        .tuple(list(fc.tuple(objectKey, fc.constantFrom(" = ", ": "), expr)), fc.boolean())
        .map(([items, trailing]) =>
          items.length === 0
            ? "{}"
            : `{ ${items.map(([k, sep, v]) => `${k}${sep}${v}`).join(", ")}${trailing ? "," : ""} }`,
        ),
      call,
      fc
        .tuple(fc.oneof(name, expr.map(paren), call), fc.array(step, { minLength: 1, maxLength: 2 }))
        .map(([t, steps]) => `${t}${steps.join("")}`),
      expr.map(paren),
      fc
        .tuple(fc.boolean(), name, expr, expr, fc.option(expr, { nil: undefined }))
        .map(
          ([withKey, n, coll, body, cond]) =>
            `[for ${withKey ? `k, ${n}` : n} in ${coll} : ${body}${cond === undefined ? "" : ` if ${cond}`}]`,
        ),
      fc
        .tuple(name, expr, expr, expr, fc.boolean(), fc.option(expr, { nil: undefined }))
        .map(
          ([n, coll, key, value, group, cond]) =>
            `{for k, ${n} in ${coll} : ${key} => ${value}${group ? "..." : ""}${cond === undefined ? "" : ` if ${cond}`}}`,
        ),
    ),
    template: fc
      .array(
        fc.oneof(
          quotedText,
          fc
            .tuple(fc.boolean(), expr, fc.boolean())
            .map(([l, e, r]) => `\${${l ? "~ " : ""}${e}${r ? " ~" : ""}}`),
          fc
            .tuple(expr, quotedText, fc.option(quotedText, { nil: undefined }))
            .map(([c, a, b]) => `%{ if ${c} }${a}${b === undefined ? "" : `%{ else }${b}`}%{ endif }`),
          fc
            .tuple(name, expr, quotedText)
            .map(([n, c, body]) => `%{ for ${n} in ${c} }${body}\${${n}}%{ endfor }`),
        ),
        { minLength: 1, maxLength: 3 },
      )
      .map((parts) => `"${parts.join("")}"`),
  };
});

/** An expression of any form, nested (at most `maxDepth` levels of the generator). */
export const hclExpression = arbitraries.expr;

/** A heredoc (plain or indented), its lines text and interpolations of `hclExpression`. */
export const hclHeredoc = fc
  .tuple(
    fc.constantFrom("<<", "<<-"),
    fc.constantFrom("EOT", "JSON", "END_1"),
    fc.array(
      fc.tuple(fc.constantFrom("", "  ", "    "), heredocLine, fc.option(hclExpression, { nil: undefined })),
      { maxLength: 3 },
    ),
  )
  .map(
    ([start, marker, lines]) =>
      `${start}${marker}\n${lines.map(([indent, text, e]) => `${indent}${text}${e === undefined ? "" : `\${${e}}`}\n`).join("")}${start === "<<-" ? "  " : ""}${marker}`,
  );
