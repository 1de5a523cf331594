import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Reader, type SyntaxNode, TooDeep } from "../../src/terraform/hcl-reader.js";
import { checkTerraform } from "../../src/terraform/index.js";
import { SourceFile } from "../../src/terraform/source-file.js";
import { temporaryFolder } from "../helpers/folders.js";
import { hclExpression, hclHeredoc } from "./hcl-arbitrary.js";

/*
 * The Terraform reader on generated HCL: whatever expressions a configuration holds, the check
 * never throws, reads the file as valid HCL, and still reports a mistake planted beside them at
 * its line and column.
 */

/** Files generated per run (each holds several generated expressions). */
const FILES = 2000;
const folder = temporaryFolder("filterc-terraform-property-");

/** A job whose filter has an operator Logpush does not know (E0511 at `"neq"`). */
const PLANTED = [
  'resource "cloudflare_logpush_job" "planted" {',
  '  zone_id = "023e105f4ecef8ad9ca31a8372d0c353"',
  '  dataset = "http_requests"',
  '  filter  = jsonencode({ where = { key = "ClientIP", operator = "neq", value = "1.1.1.1" } })',
  "}",
].join("\n");

const value = fc.oneof({ weight: 5, arbitrary: hclExpression }, { weight: 1, arbitrary: hclHeredoc });
const attributes = fc.array(value, { minLength: 1, maxLength: 2 });

/** The blocks generated: a job's, and those that feed no filter. */
const JOB = 'resource "cloudflare_logpush_job" "other"';
const ELSEWHERE = ["locals", 'module "m"', 'output "o"', 'resource "aws_s3_bucket" "b"', 'variable "v"'];

/** A block of generated attributes, as each kind of block holds them. */
const blockOf = (headers: string[]) =>
  fc.tuple(fc.constantFrom(...headers), attributes).map(([header, values]) => {
    const name =
      header === 'output "o"' || header === 'variable "v"' ? () => "default" : (i: number) => `g${i}`;
    return `${header} {\n${values.map((v, i) => `  ${name(i)} = ${v}\n`).join("")}}\n`;
  });
const block = blockOf([JOB, ...ELSEWHERE]);

const file = fc
  .tuple(fc.array(block, { maxLength: 3 }), fc.array(block, { maxLength: 2 }))
  .map(([before, after]) => [...before, PLANTED, ...after].join("\n"));

describe("the Terraform reader on generated HCL", () => {
  it(`never throws, and reports a planted mistake at its place (${FILES} files)`, async () => {
    const path = join(folder(), "main.tf");
    let files = 0;
    await fc.assert(
      fc.asyncProperty(file, async (text) => {
        files++;
        const checked = await checkTerraform([path], folder(), { texts: new Map([[path, text]]) });
        const diagnostics = checked.flatMap((entry) => entry.diagnostics);
        // The generated text is valid HCL: nothing is a syntax error or too deep.
        expect(diagnostics.filter((d) => /^E090[02]$/.test(d.code))).toEqual([]);
        const at = text.indexOf('"neq"', text.indexOf('"planted"'));
        const line = text.slice(0, at).split("\n").length;
        const column = at - text.lastIndexOf("\n", at - 1);
        const planted = diagnostics.filter(
          (d) => d.code === "E0511" && d.range.start.line === line && d.range.start.column === column,
        );
        expect(planted).toHaveLength(1);
      }),
      { numRuns: FILES },
    );
    expect(files).toBe(FILES);
  }, 120_000);

  it("says nothing of expressions it cannot evaluate where they feed no filter (500 files)", async () => {
    const path = join(folder(), "main.tf");
    const quiet = fc
      .array(blockOf(ELSEWHERE), { minLength: 1, maxLength: 4 })
      .map((blocks) => blocks.join("\n"));
    await fc.assert(
      fc.asyncProperty(quiet, async (text) => {
        const checked = await checkTerraform([path], folder(), { texts: new Map([[path, text]]) });
        expect(checked.flatMap((entry) => entry.diagnostics)).toEqual([]);
      }),
      { numRuns: 500 },
    );
  }, 120_000);
});

/** Every node kind the grammar has, named and not (its node-types.json). */
const KINDS: { type: string; named: boolean }[] = JSON.parse(
  readFileSync(
    createRequire(import.meta.url).resolve("@tree-sitter-grammars/tree-sitter-hcl/src/node-types.json"),
    "utf8",
  ),
);

describe("the Terraform reader on trees of any shape", () => {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: an HCL interpolation, not a JavaScript one
  const text = 'a = "x${y}" # { [ ( <<EOT\n1.5 z\nEOT\n';
  const source = new SourceFile("main.tf", "/main.tf", text);
  const offset = fc.nat({ max: text.length });
  const leaf = (type: string, named = true): SyntaxNode => ({
    type,
    isNamed: named,
    startIndex: 0,
    endIndex: 1,
    children: [],
  });
  const kind = fc.constantFrom(
    ...KINDS,
    { type: "ERROR", named: true },
    { type: "unknown_kind", named: true },
  );
  const node: fc.Arbitrary<SyntaxNode> = fc.letrec<{ node: SyntaxNode }>((tie) => ({
    node: fc
      .tuple(
        kind,
        offset,
        offset,
        fc.array(fc.oneof({ depthSize: "small", maxDepth: 6 }, fc.constant(null), tie("node")), {
          maxLength: 5,
        }),
      )
      .map(([{ type, named }, a, b, children]) => ({
        type,
        isNamed: named,
        startIndex: Math.min(a, b),
        endIndex: Math.max(a, b),
        children: children as (SyntaxNode | null)[],
      })),
  })).node;
  // Arguments and blocks as the grammar writes them, holding nodes of any kind and shape.
  const expression = fc
    .array(node, { maxLength: 4 })
    .map((children) => ({ ...leaf("expression"), children }));
  const attribute = expression.map((value) => ({
    ...leaf("attribute"),
    children: [leaf("identifier"), leaf("=", false), value],
  }));
  const block = fc
    .tuple(fc.array(node, { maxLength: 2 }), fc.array(attribute, { maxLength: 3 }))
    .map(([labels, attributes]) => ({
      ...leaf("block"),
      children: [
        leaf("identifier"),
        ...labels,
        leaf("block_start"),
        { ...leaf("body"), children: attributes },
        leaf("block_end"),
      ],
    }));
  const root = fc
    .array(fc.oneof(attribute, block, node), { maxLength: 4 })
    .map((items) => ({ ...leaf("config_file"), children: [{ ...leaf("body"), children: items }] }));

  it("reads every node kind, in any place, as an expression it cannot evaluate, never with a throw", () => {
    fc.assert(
      fc.property(root, (tree) => {
        try {
          new Reader(source, 100).file(tree);
        } catch (error) {
          // The one throw the reader makes on purpose: nesting past the limit, reported as E0902.
          if (!(error instanceof TooDeep)) throw error;
        }
      }),
      { numRuns: 2000 },
    );
  });
});
