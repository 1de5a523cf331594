import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import * as editor from "../../src/codemirror/index.js";
import * as filterc from "../../src/index.js";

/*
 * Every function and class the package exports, given a value of the wrong type by a JavaScript
 * caller in each argument in turn (the others right), answers as it documents: the functions that
 * report diagnostics with one (E0113 for a source that is no string, E0006 for options), the others
 * by throwing InvalidArgumentError; never a TypeError. A new export without a row here fails.
 */

/** The wrong values tried in each argument: all the kinds of value a JavaScript caller can pass. */
const WRONG: [string, unknown][] = [
  ["undefined", undefined],
  ["null", null],
  ["a number", 42],
  ["a boolean", true],
  ["an object", {}],
  ["an array", []],
  ["a string", "text"],
  ["a function", () => 1],
];

/**
 * How an argument answers a wrong value: by throwing InvalidArgumentError, with an error diagnostic
 * of the code matched, by returning the fallback (predicates and look-ups), or by taking anything.
 */
type Answer = "throws" | RegExp | { returns: unknown } | "any";

interface Row {
  /** Right arguments, one for each argument the function takes. */
  args: unknown[];
  /** How each argument answers a wrong value. */
  answers: Answer[];
  /** Values among WRONG that are right in an argument (by position), not tried there. */
  right?: Record<number, unknown[]>;
  /** Called with `new`. */
  construct?: true;
}

const condition = filterc.check("BotScore lt 30").condition!;
const source = 'EdgeResponseStatus in [500, 502] and ClientRequestHost eq "a.com"';
const state = EditorState.create({ doc: source, extensions: editor.logpushFilter() });
const diagnostic = filterc.compile("BotScor lt 1").diagnostics[0]!;
// A destination without an ownership challenge, so that the job body builds.
const settings = { destination: "https://logs.example.com/http", fields: ["ClientIP"] };
const options = [undefined, {}];

/** The library, `filterc`. */
const library: Record<string, Row> = {
  compile: { args: [source, {}], answers: [/^E0113$/, /^E0006$/], right: { 0: ["text"], 1: options } },
  check: { args: [source, {}], answers: [/^E0113$/, /^E0006$/], right: { 0: ["text"], 1: options } },
  parse: { args: [source, {}], answers: [/^E0113$/, /^E0006$/], right: { 0: ["text"], 1: options } },
  format: { args: [source, {}], answers: [/^E0113$/, /^E0006$/], right: { 0: ["text"], 1: options } },
  // JSON text, a parsed object and null are all input: anything else is no filter (E0502-E0504).
  decompile: {
    args: ['{"where":null}', {}],
    answers: [/^E050[234]$/, /^E0006$/],
    right: { 0: [undefined, null], 1: options },
  },
  emit: { args: [condition, {}], answers: ["throws", /^E0006$/], right: { 1: options } },
  // Source, JSON text, a parsed object and null are all input; anything else is no filter.
  loadFilter: {
    args: [source, {}],
    answers: [/^E0(113|50[234])$/, /^E0006$/],
    right: { 0: [undefined, null, "text"], 1: options },
  },
  print: { args: [filterc.parse(source).filter, {}], answers: ["throws", "throws"], right: { 1: options } },
  conditionToExpr: { args: [condition], answers: ["throws"] },
  explain: {
    args: [condition, filterc.emit(condition).stats],
    answers: ["throws", "throws"],
    right: { 0: [null] },
  },
  compilePredicate: {
    args: [condition, { timestamps: "unix" }],
    answers: ["throws", "throws"],
    right: { 1: options },
  },
  compileLineFilter: {
    args: [condition, {}],
    answers: ["throws", "throws"],
    right: { 0: [null], 1: options },
  },
  toSql: { args: [condition, { dialect: "duckdb" }], answers: ["throws", "throws"], right: { 0: [null] } },
  diffFilters: {
    args: [condition, condition, {}],
    answers: ["throws", "throws", "throws"],
    right: { 0: [null], 1: [null], 2: options },
  },
  createCatalog: {
    args: ["custom", [{ name: "Colour", type: "string" }]],
    answers: ["throws", "throws"],
    right: { 0: ["text"], 1: [[]] },
  },
  getCatalog: { args: ["http_requests"], answers: [{ returns: undefined }] },
  datasetScopes: { args: ["http_requests"], answers: [{ returns: undefined }] },
  createLanguageService: { args: [{}], answers: ["throws"], right: { 0: options } },
  LanguageService: { args: [{}], answers: ["throws"], right: { 0: options }, construct: true },
  createClient: { args: [{ apiToken: "t" }], answers: ["throws"], right: { 0: options } },
  LogpushClient: { args: [{ apiToken: "t" }], answers: ["throws"], right: { 0: options }, construct: true },
  checkCustomFieldRules: { args: [[]], answers: ["throws"], right: { 0: [[]] } },
  needsOwnershipChallenge: { args: [settings.destination], answers: ["throws"], right: { 0: ["text"] } },
  // A predicate: no job ID is anything but a string of digits.
  checkJobBody: {
    args: [{}, { mode: "create", dataset: "http_requests", catalog: undefined }],
    answers: ["throws", "throws"],
    right: { 0: [{}] },
  },
  // Errors: a message is made of anything; the problems of a ValidationError are read.
  ApiError: {
    args: ["list jobs", "http", 500, [], "down"],
    answers: ["any", "any", "any", "any", "any"],
    construct: true,
  },
  ValidationError: {
    args: ["create job", []],
    answers: ["any", "throws"],
    right: { 1: [[]] },
    construct: true,
  },
  ClientConfigError: { args: ["no credentials"], answers: ["any"], construct: true },
  InvalidArgumentError: {
    args: ["f", "x", "a string", 1],
    answers: ["any", "any", "any", "any"],
    construct: true,
  },
};

/** The CodeMirror extension, `filterc/codemirror`. */
const extension: Record<string, Row> = {
  logpushFilter: { args: [{}], answers: ["throws"], right: { 0: options } },
  filterLint: { args: [200], answers: ["throws"], right: { 0: [42] } },
  filterResult: { args: [state], answers: ["throws"] },
  languageService: { args: [state], answers: ["throws"] },
  formatFilter: { args: [{ state, dispatch: () => {} }], answers: ["throws"] },
  filterCompletionSource: { args: [{ state, pos: 3, explicit: true }], answers: ["throws"] },
  toEditorDiagnostic: { args: [diagnostic, []], answers: ["throws", "throws"], right: { 1: [[]] } },
  InvalidArgumentError: library["InvalidArgumentError"]!,
};

const exportedFunctions = (module: object) =>
  Object.entries(module)
    .filter(([, value]) => typeof value === "function")
    .map(([name]) => name)
    .sort();

function call(module: object, name: string, row: Row, args: unknown[]): unknown {
  const exported = (module as Record<string, (...args: unknown[]) => unknown>)[name]!;
  return row.construct ? Reflect.construct(exported, args) : exported(...args);
}

/** What goes wrong when `name` gets `wrong` in argument `position`; undefined when it answers as its row says. */
function misanswer(
  module: object,
  name: string,
  row: Row,
  position: number,
  wrong: unknown,
): string | undefined {
  const args = row.args.map((arg, i) => (i === position ? wrong : arg));
  const answer = row.answers[position]!;
  let result: unknown;
  try {
    result = call(module, name, row, args);
  } catch (error) {
    if (answer === "throws" && error instanceof filterc.InvalidArgumentError) return undefined;
    return `threw ${(error as Error).name}: ${(error as Error).message}`;
  }
  if (answer === "throws") return `returned ${String(result)}`;
  if (answer instanceof RegExp) {
    const codes = (result as { diagnostics: filterc.Diagnostic[] }).diagnostics
      .filter((d) => d.severity === "error")
      .map((d) => d.code);
    return codes.some((code) => answer.test(code)) ? undefined : `answered ${JSON.stringify(codes)}`;
  }
  if (typeof answer === "object" && JSON.stringify(result) !== JSON.stringify(answer.returns))
    return `returned ${JSON.stringify(result)}`;
  return undefined;
}

describe.each([
  ["filterc", filterc, library],
  ["filterc/codemirror", editor, extension],
] as const)("%s: every export answers a wrong value as it documents", (_name, module, rows) => {
  it("has a row for every exported function and class", () => {
    expect(exportedFunctions(module)).toEqual(Object.keys(rows).sort());
  });

  it("answers with the right arguments", () => {
    for (const [name, row] of Object.entries(rows))
      expect(() => call(module, name, row, row.args), name).not.toThrow();
  });

  it("answers each wrong value in each argument: a diagnostic, an InvalidArgumentError, or its fallback", () => {
    const misanswers: string[] = [];
    for (const [name, row] of Object.entries(rows))
      row.args.forEach((_, position) => {
        for (const [kind, wrong] of WRONG) {
          if (
            row.right?.[position]?.some(
              (value) => Object.is(value, wrong) || JSON.stringify(value) === JSON.stringify(wrong),
            )
          )
            continue;
          const problem = misanswer(module, name, row, position, wrong);
          if (problem) misanswers.push(`${name}, argument ${position + 1}, ${kind}: ${problem}`);
        }
      });
    expect(misanswers).toEqual([]);
  });
});

describe("options of the wrong type", () => {
  const wrongOptions: [string, unknown, string][] = [
    ["maxBytes", "1000", 'option maxBytes must be a whole number of at least 1, not "1000"'],
    ["dataset", 42, "option dataset must be a dataset name (a string), not the number 42"],
    ["optimize", "no", 'option optimize must be true or false, not the string "no"'],
    [
      "catalog",
      "http_requests",
      'option catalog must be a catalog from createCatalog, not the string "http_requests"',
    ],
    // Made by hand, without the map of lower-cased names the checker reads.
    [
      "catalog",
      { dataset: "custom", fields: new Map() },
      "option catalog must be a catalog from createCatalog, not an object",
    ],
    [
      "optionLabels",
      { maxBytes: 5 },
      "option optionLabels must be an object whose labels are strings or null, not an object",
    ],
  ];

  it.each(wrongOptions)(
    "%s is E0006 naming it, in every entry point that takes it",
    (name, value, message) => {
      const given = { [name]: value };
      const results = [
        filterc.compile(source, given),
        filterc.check(source, given),
        filterc.decompile('{"where":null}', given),
      ];
      if (name !== "dataset" && name !== "catalog") results.push(filterc.parse(source, given) as never);
      for (const result of results)
        expect(result.diagnostics.map((d) => [d.code, d.message])).toContainEqual(["E0006", message]);
    },
  );

  it("options that are no object are E0006; the compile keeps the default limits", () => {
    const result = filterc.compile(source, 42 as never);
    expect(result.diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["E0006", "options must be an object, not the number 42"],
    ]);
    expect(result.stats).toEqual({ operators: 0, bytes: 0, maxOperators: 30, maxBytes: 1000 });
  });

  it("check given a parse result that parse did not build is E0113", () => {
    const made = { source: "BotScore lt 1", filter: {}, diagnostics: [] };
    expect(filterc.check(made as never).diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["E0113", "the source must be a string (the filter's text), not an object"],
    ]);
  });

  it("a timestamp reading that is none is InvalidArgumentError in eval and sql", () => {
    const wrong = { timestamps: "ms" } as never;
    expect(() => filterc.compilePredicate(condition, wrong)).toThrow(filterc.InvalidArgumentError);
    expect(() => filterc.compileLineFilter(condition, wrong)).toThrow(filterc.InvalidArgumentError);
    expect(() => filterc.toSql(condition, { dialect: "duckdb", timestamps: "ms" } as never)).toThrow(
      'toSql: options must be {dialect: "duckdb" | "clickhouse", column?, from?, timestamps?: "auto" | "unixnano" | "unix", columns?: "json" | "typed", fields?: string[]}, not an object',
    );
  });

  it("a source that is no string is E0113, saying what it is", () => {
    expect(filterc.compile(undefined as never).diagnostics.map((d) => [d.code, d.message])).toEqual([
      ["E0113", "the source must be a string (the filter's text), not undefined"],
    ]);
    expect(filterc.compile(42 as never).diagnostics[0]!.message).toBe(
      "the source must be a string (the filter's text), not the number 42",
    );
  });

  it("the client and the editor name the member that is wrong", () => {
    expect(() => filterc.createClient({ apiToken: 42 } as never)).toThrow(
      new filterc.InvalidArgumentError("createClient", "options.apiToken", "a string", 42),
    );
    expect(() => editor.logpushFilter({ lintDelay: -1 })).toThrow(editor.InvalidArgumentError);
    const lint = EditorState.create({
      doc: source,
      extensions: editor.logpushFilter({ maxBytes: "1000" } as never),
    });
    expect(editor.filterResult(lint).diagnostics.map((d) => d.code)).toEqual(["E0006"]);
  });
});
