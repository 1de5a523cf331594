/**
 * `filterc check --format sarif|github`: the SARIF log is valid against SARIF 2.1.0's official JSON
 * Schema (the one @microsoft/jest-sarif ships) and says exactly what the text report says, its
 * fixes really fix; the workflow commands read back, through a port of the Actions runner's own
 * parser (ActionCommand.TryParseV2), as the file, place, code and message of each diagnostic.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Ajv from "ajv-draft-04";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.js";

const require = createRequire(import.meta.url);
const sarifSchema = require("@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json");
// The schema's pattern of `language` (`…{2}]?$`) is valid only without the `u` flag, as JSON Schema draft-04 reads ECMA 262 patterns.
const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
addFormats(ajv);
const validSarif = ajv.compile(sarifSchema);

let dir: string;
const startedIn = process.cwd();
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "filterc-ci-formats-"));
  // Files are read from the process's folder, as a shell gives them (this file runs in a process of its own).
  process.chdir(dir);
  await writeFile(join(dir, "case.lpf"), "# errors on the API\nbotscore lt 30\n");
  await writeFile(join(dir, "never.lpf"), "BotScore lt 10 and BotScore gt 20\n");
  await writeFile(join(dir, "ok.lpf"), 'ClientRequestHost eq "example.com"\n');
  // A path a report must escape: a space, a comma, a colon, a percent sign.
  await writeFile(join(dir, "odd, name: 100%.lpf"), 'ClientIpp eq "1"\n');
  // Columns count UTF-16 code units: the emoji before the error is two.
  await writeFile(join(dir, "wide.lpf"), 'ClientRequestPath eq "😀" and botscore lt 1\n');
  await mkdir(join(dir, "tf"));
  await writeFile(
    join(dir, "tf", "main.tf"),
    'resource "cloudflare_logpush_job" "a" {\n  zone_id = "023e105f4ecef8ad9ca31a8372d0c353"\n  dataset = "http_requests"\n  destination_conf = "https://logs.example.com/in?header_Authorization=Bearer%20s3cr3t"\n  output_options = { field_names = ["ClientIP"] }\n  filter = jsonencode({ where = { key = "ClientIP", operator = "neq", value = "1.1.1.1" } })\n}\n',
  );
});
afterAll(async () => {
  process.chdir(startedIn);
  await rm(dir, { recursive: true, force: true });
});

const check = (args: string[]) => runCli(["check", ...args], "", {}, false, dir);

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: string;
  message: { text: string };
  locations: { physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> } }[];
  relatedLocations?: { id: number; message: { text: string }; physicalLocation: { region: object } }[];
  fixes?: {
    description: { text: string };
    artifactChanges: {
      artifactLocation: { uri: string };
      replacements: { deletedRegion: Record<string, number>; insertedContent: { text: string } }[];
    }[];
  }[];
}

function sarifOf(stdout: string) {
  const log = JSON.parse(stdout);
  const valid = validSarif(log);
  expect(validSarif.errors ?? [], "valid against the SARIF 2.1.0 schema").toEqual([]);
  expect(valid).toBe(true);
  const run = log.runs[0];
  return {
    log,
    rules: run.tool.driver.rules as { id: string; help: { text: string }; defaultConfiguration: object }[],
    results: run.results as SarifResult[],
  };
}

/** Puts SARIF replacements into the text they are for (lines and UTF-16 columns, 1-based). */
function applyReplacements(text: string, replacements: SarifResult["fixes"]): string {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") lineStarts.push(i + 1);
  const offset = (line: number, column: number) => lineStarts[line - 1]! + column - 1;
  const edits = (replacements ?? [])
    .flatMap((fix) => fix.artifactChanges.flatMap((change) => change.replacements))
    .map((r) => ({
      start: offset(r.deletedRegion["startLine"]!, r.deletedRegion["startColumn"]!),
      end: offset(r.deletedRegion["endLine"]!, r.deletedRegion["endColumn"]!),
      text: r.insertedContent.text,
    }))
    .sort((a, b) => b.start - a.start);
  let out = text;
  for (const edit of edits) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

describe("check --format sarif", () => {
  it("reports every file named, filter files and Terraform, valid against the official schema", async () => {
    const run = await check(["--format", "sarif", "case.lpf", "never.lpf", "ok.lpf", "tf"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("");
    const { log, rules, results } = sarifOf(run.stdout);
    expect(log.version).toBe("2.1.0");
    expect(log.runs[0].columnKind).toBe("utf16CodeUnits");
    expect(log.runs[0].tool.driver.name).toBe("filterc");
    expect(
      results.map((r) => [r.ruleId, r.level, r.locations[0]!.physicalLocation.artifactLocation.uri]),
    ).toEqual([
      ["E0511", "error", "tf/main.tf"],
      ["E0202", "error", "case.lpf"],
      ["W0103", "warning", "never.lpf"],
    ]);
    // Each result points at its rule; each rule has the reference's meaning as help.
    for (const result of results) expect(rules[result.ruleIndex]!.id).toBe(result.ruleId);
    const caseRule = rules.find((rule) => rule.id === "E0202")!;
    expect(caseRule.help.text).toContain("E0202: field name in the wrong letter case.");
    expect(caseRule.help.text).toContain("Example: botscore lt 30");
    expect(caseRule.defaultConfiguration).toEqual({ level: "error" });
    expect(rules.find((rule) => rule.id === "W0103")!.defaultConfiguration).toEqual({ level: "warning" });
    const wrongCase = results[1]!;
    expect(wrongCase.locations[0]!.physicalLocation.region).toEqual({
      startLine: 2,
      startColumn: 1,
      endLine: 2,
      endColumn: 9,
    });
    expect(wrongCase.fixes![0]!.artifactChanges[0]!.replacements[0]!.insertedContent.text).toBe("BotScore");
    const never = results[2]!;
    expect(never.relatedLocations!.map((r) => r.physicalLocation.region)).toEqual([
      { startLine: 1, startColumn: 20, endLine: 1, endColumn: 34 },
    ]);
    // The destination's credential is in no part of the log.
    expect(run.stdout).not.toContain("s3cr3t");
  });

  it("gives fixes that fix: applied to the file, the diagnostic is gone", async () => {
    const run = await check(["--format", "sarif", "case.lpf", "wide.lpf"]);
    const { results } = sarifOf(run.stdout);
    for (const name of ["case.lpf", "wide.lpf"]) {
      const mine = results.filter((r) => r.locations[0]!.physicalLocation.artifactLocation.uri === name);
      expect(mine.map((r) => r.ruleId)).toEqual(["E0202"]);
      const fixed = applyReplacements(await readFile(join(dir, name), "utf8"), mine[0]!.fixes);
      const again = await runCli(["check"], fixed, {}, false, dir);
      expect(again.code, fixed).toBe(0);
    }
    const wide = results.find((r) => r.locations[0]!.physicalLocation.artifactLocation.uri === "wide.lpf")!;
    // `ClientRequestPath eq "😀" and ` is 30 UTF-16 code units: the field starts at column 31.
    expect(wide.locations[0]!.physicalLocation.region["startColumn"]).toBe(31);
  });

  it("names files as URI references: escaped, and file: URLs outside the current folder", async () => {
    const outside = await mkdtemp(join(tmpdir(), "filterc-ci-outside-"));
    try {
      await writeFile(join(outside, "x.lpf"), 'ClientIpp eq "1"\n');
      const run = await check(["--format", "sarif", "odd, name: 100%.lpf", join(outside, "x.lpf")]);
      const { results } = sarifOf(run.stdout);
      expect(results.map((r) => r.locations[0]!.physicalLocation.artifactLocation.uri)).toEqual([
        "odd%2C%20name%3A%20100%25.lpf",
        `file://${outside}/x.lpf`,
      ]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("is an empty run, still valid, when nothing is found; exit 0", async () => {
    const run = await check(["--format", "sarif", "ok.lpf"]);
    expect(run.code).toBe(0);
    const { rules, results } = sarifOf(run.stdout);
    expect(results).toEqual([]);
    expect(rules).toEqual([]);
  });

  it("reads standard input when no file is named", async () => {
    const run = await runCli(["check", "--format", "sarif"], "botscore lt 1", {}, false, dir);
    const { results } = sarifOf(run.stdout);
    expect(results[0]!.locations[0]!.physicalLocation.artifactLocation.uri).toBe("%3Cstdin%3E");
  });
});

/**
 * The Actions runner's reading of a `::command properties::data` line (ActionCommand.TryParseV2):
 * the properties split at commas, each at its first `=`, and the escapes undone in the runner's
 * order (C#'s Replace of each mapping in turn).
 */
function parseWorkflowCommand(line: string) {
  const message = line.trimStart();
  if (!message.startsWith("::")) return undefined;
  const end = message.indexOf("::", 2);
  if (end < 0) return undefined;
  const info = message.slice(2, end);
  const space = info.indexOf(" ");
  const command = space < 0 ? info : info.slice(0, space);
  const undoEscapes = (text: string, mappings: [string, string][]) =>
    mappings.reduce((out, [token, replacement]) => out.split(replacement).join(token), text);
  const propertyMappings: [string, string][] = [
    ["\r", "%0D"],
    ["\n", "%0A"],
    [":", "%3A"],
    [",", "%2C"],
    ["%", "%25"],
  ];
  const dataMappings: [string, string][] = [
    ["\r", "%0D"],
    ["\n", "%0A"],
    ["%", "%25"],
  ];
  const properties: Record<string, string> = {};
  if (space > 0)
    for (const part of info
      .slice(space + 1)
      .trim()
      .split(",")
      .filter((p) => p !== "")) {
      const at = part.indexOf("=");
      const pair = at < 0 ? [part] : [part.slice(0, at), part.slice(at + 1)].filter((p) => p !== "");
      if (pair.length === 2) properties[pair[0]!] = undoEscapes(pair[1]!, propertyMappings);
    }
  return { command, properties, data: undoEscapes(message.slice(end + 2), dataMappings) };
}

describe("check --format github", () => {
  it("writes one workflow command per diagnostic, read back as the runner reads it", async () => {
    const run = await check(["--format", "github", "case.lpf", "never.lpf", "odd, name: 100%.lpf", "ok.lpf"]);
    expect(run.code).toBe(1);
    const lines = run.stdout.split("\n").slice(0, -1);
    expect(lines).toHaveLength(3);
    expect(lines.map(parseWorkflowCommand)).toEqual([
      {
        command: "error",
        properties: { file: "case.lpf", line: "2", endLine: "2", col: "1", endColumn: "9", title: "E0202" },
        data: expect.stringMatching(/^unknown field `botscore`.* \(fix: /),
      },
      {
        command: "warning",
        properties: { file: "never.lpf", line: "1", endLine: "1", col: "1", endColumn: "15", title: "W0103" },
        data: "these comparisons of `BotScore` can never all hold, so this part of the filter is always false",
      },
      {
        command: "error",
        properties: {
          file: "odd, name: 100%.lpf",
          line: "1",
          endLine: "1",
          col: "1",
          endColumn: "10",
          title: "E0201",
        },
        data: expect.stringContaining("unknown field `ClientIpp`"),
      },
    ]);
    // The form: `::error file=…,line=…,col=…,title=E0202::…`.
    expect(lines[0]).toMatch(/^::error file=case\.lpf,line=2,endLine=2,col=1,endColumn=9,title=E0202::/);
    expect(run.stderr).toBe("2 errors, 1 warning\n");
  });

  it("escapes line breaks and shows control characters as code points", async () => {
    await writeFile(
      join(dir, "control.lpf"),
      'ClientRequestPath eq "/a\u001b[2Jb\r\nc" and BotScore eq "x"\n',
    );
    const run = await check(["--format", "github", "control.lpf"]);
    expect(run.stdout).not.toMatch(/[\u001b\r]/);
    for (const line of run.stdout.split("\n").slice(0, -1)) {
      const parsed = parseWorkflowCommand(line)!;
      expect(parsed.command).toMatch(/^(error|warning|notice)$/);
      expect(parsed.data).not.toMatch(/[\u001b]/);
    }
  });

  it("prints nothing when nothing is found; exit 0", async () => {
    const run = await check(["--format", "github", "ok.lpf"]);
    expect(run).toEqual({ code: 0, stdout: "", stderr: "" });
  });
});

describe("check on several files", () => {
  it("checks filter files and Terraform together, one ok line each", async () => {
    const run = await check(["ok.lpf", "ok.lpf"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      "ok: ok.lpf: 1 of 30 comparisons, 75 of 1000 bytes\nok: ok.lpf: 1 of 30 comparisons, 75 of 1000 bytes\n",
    );
    const json = await check(["--json", "ok.lpf", "case.lpf"]);
    expect(json.code).toBe(1);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.ok).toBe(false);
    expect(
      parsed.files.map((f: { file: string; diagnostics: { code: string }[] }) => [
        f.file,
        f.diagnostics.map((d) => d.code),
      ]),
    ).toEqual([
      ["ok.lpf", []],
      ["case.lpf", ["E0202"]],
    ]);
  });

  it("refuses an unknown format, --json beside another, and - twice", async () => {
    expect((await check(["--format", "xml", "ok.lpf"])).code).toBe(2);
    expect((await check(["--format", "xml", "ok.lpf"])).stderr).toContain(
      '--format takes text, json, sarif, github, not "xml"',
    );
    expect((await check(["--json", "--format", "sarif", "ok.lpf"])).code).toBe(2);
    expect((await check(["--format", "github", "-", "-"])).stderr).toContain(
      "standard input can be read only once",
    );
  });
});
