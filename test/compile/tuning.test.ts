import { describe, expect, it } from "vitest";
import {
  check,
  compile,
  createLanguageService,
  type Diagnostic,
  decompile,
  format,
} from "../../src/index.js";
import { conformanceDiagnostic } from "../helpers/conformance.js";

/*
 * The library's `diagnostics` option (compile, check, decompile, the language service): levels by
 * code and `warnings`, with the source's `# filterc-ignore` comments. The comments' own cases, and
 * the option's errors, are conformance cases (test/conformance/tuning.json).
 */

const SECONDS = "EdgeStartTimestamp gt 1700000000";
const W0120 =
  "1700000000 compared with `EdgeStartTimestamp` is 1970-01-01T00:00:01.7Z in unix nanoseconds, the unit Logpush compares timestamps in; read as seconds it would be 2023-11-14T22:13:20Z";
const JSON_FILTER = '{"where":{"key":"EdgeStartTimestamp","operator":"gt","value":"1700000000"}}';

/** Each diagnostic with its severity, then as conformance cases write it. */
const shown = (diagnostics: Diagnostic[]) =>
  diagnostics.map((d) => `${d.severity} ${conformanceDiagnostic(d)}`);

describe("compile's diagnostics option", () => {
  it("turns a warning off, makes it a note, or an error that stops the JSON", () => {
    expect(compile(SECONDS, { diagnostics: { W0120: "off" } })).toMatchObject({
      ok: true,
      filter: JSON_FILTER,
      diagnostics: [],
    });
    const note = compile(SECONDS, { diagnostics: { W0120: "note" } });
    expect([note.ok, note.filter, shown(note.diagnostics)]).toEqual([
      true,
      JSON_FILTER,
      [`note W0120 1:23-1:33 → "1700000000000000000": ${W0120}`],
    ]);
    const error = compile(SECONDS, { diagnostics: { W0120: "error" } });
    expect([error.ok, error.filter, error.condition, error.normal, shown(error.diagnostics)]).toEqual([
      false,
      null,
      null,
      null,
      [`error W0120 1:23-1:33 → "1700000000000000000": ${W0120}`],
    ]);
    // The comparisons that checked stay, as with any error.
    expect(error.comparisons).toHaveLength(1);
  });

  it("makes every warning an error with `warnings`, but for a code given its own level", () => {
    const source = `WAFFlags eq "1" and ${SECONDS}`;
    expect(shown(compile(source, { diagnostics: { warnings: "error" } }).diagnostics)).toEqual([
      "error W0101 1:1-1:9: `WAFFlags` is deprecated",
      `error W0120 1:43-1:53 → "1700000000000000000": ${W0120}`,
    ]);
    const kept = compile(source, { diagnostics: { warnings: "error", W0101: "warning" } });
    expect([kept.ok, shown(kept.diagnostics)]).toEqual([
      false,
      [
        "warning W0101 1:1-1:9: `WAFFlags` is deprecated",
        `error W0120 1:43-1:53 → "1700000000000000000": ${W0120}`,
      ],
    ]);
    // Notes are not warnings: `warnings` leaves them.
    expect(
      compile(source, { diagnostics: { warnings: "note", W0120: "off" } }).diagnostics[0]!.severity,
    ).toBe("note");
  });

  it("lets an ignore silence a warning the settings made an error, and tunes the reports on ignores", () => {
    const ignored = compile(`# filterc-ignore W0120: seconds\n${SECONDS}`, {
      diagnostics: { W0120: "error" },
    });
    expect([ignored.ok, ignored.filter, ignored.diagnostics]).toEqual([true, JSON_FILTER, []]);
    const unused = compile(`# filterc-ignore W0105: none here\n${SECONDS}`, {
      diagnostics: { W0150: "error", W0120: "off" },
    });
    expect([unused.ok, shown(unused.diagnostics)]).toEqual([
      false,
      [
        'error W0150 1:18-1:23 → "": this `filterc-ignore` silences no W0105: none is reported where it applies',
      ],
    ]);
  });

  it("is an option of the wrong type when it is no object (E0006), and leaves errors alone", () => {
    expect(shown(compile(SECONDS, { diagnostics: "W0120" as never }).diagnostics)).toEqual([
      'error E0006 1:1-1:1: option diagnostics must be an object of levels by code, like {"W0120": "off"}, not the string "W0120"',
    ]);
    const unknown = compile('ClientCountyr eq "us"', { diagnostics: { warnings: "off" } });
    expect(unknown.diagnostics.map((d) => d.code)).toEqual(["E0201"]);
  });
});

describe("check's and decompile's diagnostics option", () => {
  it("check tunes as compile does, and a raised warning leaves no condition", () => {
    const checked = check(SECONDS, { diagnostics: { W0120: "error" } });
    expect([checked.condition, checked.normal, shown(checked.diagnostics)]).toEqual([
      null,
      null,
      [`error W0120 1:23-1:33 → "1700000000000000000": ${W0120}`],
    ]);
    expect(check(`# filterc-ignore W0120: seconds\n${SECONDS}`).diagnostics).toEqual([]);
  });

  it("decompile tunes the JSON's diagnostics (JSON has no comments)", () => {
    const json = '{"where":{"key":"EdgeStartTimestamp","operator":"gt","value":1700000000}}';
    expect(decompile(json).diagnostics.map((d) => [d.code, d.severity])).toEqual([["W0120", "warning"]]);
    expect(decompile(json, { diagnostics: { W0120: "off" } })).toMatchObject({
      ok: true,
      source: SECONDS,
      diagnostics: [],
    });
    const raised = decompile(json, { diagnostics: { warnings: "error" } });
    expect([
      raised.ok,
      raised.condition,
      raised.source,
      raised.diagnostics.map((d) => [d.code, d.severity]),
    ]).toEqual([false, null, null, [["W0120", "error"]]]);
    expect(decompile(json, { diagnostics: { W0999: "off" } }).diagnostics.map((d) => d.code)).toEqual([
      "E0015",
    ]);
  });

  it("the language service (and so the CodeMirror extension) takes it among its options", () => {
    const service = createLanguageService({ diagnostics: { W0120: "error" } });
    expect(service.diagnostics(SECONDS).map((d) => [d.code, d.severity])).toEqual([["W0120", "error"]]);
    service.configure({ diagnostics: { W0120: "off" } });
    expect(service.diagnostics(SECONDS)).toEqual([]);
  });
});

describe("formatting keeps each ignore before what it silences", () => {
  it.each([
    'ClientCountry eq "us" and\n# filterc-ignore W0120: seconds\nEdgeStartTimestamp gt 1700000000',
    'ClientCountry eq "us"\n# filterc-ignore W0120: seconds\nand EdgeStartTimestamp gt 1700000000 and BotScore lt 5',
    '(ClientCountry eq "us" or\n  # filterc-ignore W0120: seconds\n  EdgeStartTimestamp gt 1700000000)\nand WAFFlags eq "1"',
    "EdgeResponseStatus in [200,\n# filterc-ignore W0102: on purpose\n200]",
  ])("%s", (source) => {
    const formatted = format(source).text!;
    expect(formatted).toContain("# filterc-ignore");
    expect(compile(formatted).diagnostics.map((d) => d.code)).toEqual(
      compile(source).diagnostics.map((d) => d.code),
    );
    expect(compile(source).diagnostics.map((d) => d.code)).not.toContain("W0150");
  });
});
