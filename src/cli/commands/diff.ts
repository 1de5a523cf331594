import { DEFAULT_MAX_SEARCH_STEPS } from "../../check/index.js";
import { hasErrors, terminalText } from "../../diagnostics/index.js";
import { datasetMismatch, diffFilters, type Relation } from "../../diff/index.js";
import { loadFilter } from "../../load/index.js";
import { parseCommandArgs, parseCount } from "../args.js";
import { compilerOptionsFrom, configLookup, withFolderDefaults } from "../compiler-options.js";
import { reportDiagnostics } from "../diagnostics-output.js";
import { type CliIO, isUserError, readSource, UsageError } from "../io.js";

export const usage = `filterc diff A B [options]

Decides whether two filters keep exactly the same records, over every record the dataset can
produce (any field missing; a present field holding any value of its catalog type), with eval's
semantics. Each of A and B is a filter source file, Logpush filter JSON, a job record, or - for
standard input (one of them). Prints "equivalent", or how they relate (A ⊂ B, A ⊃ B, overlapping,
disjoint) with a record for each direction that differs, checked with the evaluator.

Options:
  --dataset NAME        the dataset of both filters (a job record's own wins; a source's # dataset:
                        must agree; default: the nearest filterc.json's, else http_requests)
  --catalog FILE        a JSON field catalog, for a dataset filterc does not ship
  --max-steps N         the search budget per question (default ${DEFAULT_MAX_SEARCH_STEPS})
  --json                print {equivalent, relation, onlyA, onlyB} on stdout
Exit status: 0 equivalent, 1 different, 2 usage or errors in either filter.`;

const headlines: Record<Relation, string> = {
  equivalent: "equivalent",
  subset: "A ⊂ B: B lets strictly more through",
  superset: "A ⊃ B: A lets strictly more through",
  overlap: "overlapping: each lets through records the other drops",
  disjoint: "disjoint: no record passes both",
};

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, {
    dataset: { type: "string" },
    catalog: { type: "string" },
    "max-steps": { type: "string" },
    json: { type: "boolean" },
  });
  if (positionals.length !== 2)
    throw new UsageError(`diff compares two filters, A and B; got ${positionals.length}`);
  if (positionals[0] === "-" && positionals[1] === "-")
    throw new UsageError("only one of A and B can be - (standard input)");
  const options = await compilerOptionsFrom({ dataset: values.dataset, catalog: values.catalog });
  const maxSearchSteps = parseCount(values["max-steps"], "--max-steps") ?? DEFAULT_MAX_SEARCH_STEPS;
  // Each side is read with the filterc.json nearest its own file.
  const lookup = configLookup(io);
  const inputs = [];
  for (const file of positionals) {
    try {
      const input = await readSource(io, file);
      inputs.push({ ...input, options: await withFolderDefaults(io, options, file, lookup) });
    } catch (error) {
      if (!isUserError(error)) throw error;
      io.stderr(`filterc diff: ${terminalText(error.message)}\n`);
      return 2;
    }
  }
  const [inputA, inputB] = [inputs[0]!, inputs[1]!];
  const a = loadFilter(inputA.text, { ...inputA.options, recordDatasetFirst: true });
  const b = loadFilter(inputB.text, { ...inputB.options, recordDatasetFirst: true });
  const mismatch = datasetMismatch(b, a, inputA.name);
  if (mismatch) b.diagnostics.push(mismatch);
  reportDiagnostics(io, a.diagnostics, inputA.text, inputA.name);
  reportDiagnostics(io, b.diagnostics, inputB.text, inputB.name);
  if (hasErrors(a.diagnostics) || hasErrors(b.diagnostics)) return 2;
  const result = diffFilters(a.meaning, b.meaning, { maxSearchSteps });
  if (!result.decided) {
    io.stderr(
      `filterc diff: comparing these filters takes more than ${maxSearchSteps} search steps (--max-steps); nothing was decided\n`,
    );
    return 2;
  }
  if (values.json) {
    const { relation, onlyA, onlyB } = result;
    io.stdout(
      `{"equivalent":${relation === "equivalent"},"relation":"${relation}","onlyA":${onlyA ?? "null"},"onlyB":${onlyB ?? "null"}}\n`,
    );
  } else io.stdout(describe(result.relation, result.onlyA, result.onlyB, inputA.name, inputB.name));
  return result.relation === "equivalent" ? 0 : 1;
}

function describe(
  relation: Relation,
  onlyA: string | null,
  onlyB: string | null,
  nameA: string,
  nameB: string,
): string {
  let text = `${headlines[relation]}\n`;
  if (onlyA) text += `only A (${nameA}) keeps: ${onlyA}\n`;
  if (onlyB) text += `only B (${nameB}) keeps: ${onlyB}\n`;
  return text;
}
