import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compile } from "../../src/compile.js";
import {
  DIAGNOSTIC_LEVELS,
  type Diagnostic,
  DiagnosticKind,
  diagnose,
  LineIndex,
  levelOf,
  lineIgnores,
  mergeSettings,
  readIgnore,
  settingsProblems,
  TUNABLE_CODES,
  tuneDiagnostics,
  whyNotTunable,
} from "../../src/diagnostics/index.js";

const kinds = Object.values(DiagnosticKind);
const at = (offset: number) => new LineIndex(" ".repeat(offset + 1)).rangeOf(offset, offset + 1);
const warning = (code: string, offset = 0): Diagnostic => ({
  code,
  severity: "warning",
  message: code,
  range: at(offset),
});

/** The ignores of a filter source's `#` comments, as the compiler finds them. */
function ignoresOf(source: string) {
  const comments = [...source.matchAll(/#[^\n\r]*/g)].map((match) => ({
    start: match.index,
    end: match.index + match[0].length,
    textStart: match.index + 1,
  }));
  return lineIgnores(source, new LineIndex(source), comments);
}

/** A source with each fix of its diagnostics applied, from the last to the first. */
function applyFixes(source: string, diagnostics: Diagnostic[]): string {
  let text = source;
  const fixes = diagnostics.flatMap((d) => (d.suggestion ? [d.suggestion] : []));
  for (const fix of fixes.sort((a, b) => b.range.start.offset - a.range.start.offset))
    text = text.slice(0, fix.range.start.offset) + fix.replacement + text.slice(fix.range.end.offset);
  return text;
}

describe("which codes can be tuned", () => {
  it("are the warnings and the notes, and never an error: each error says what it would break", () => {
    expect(TUNABLE_CODES).toEqual(kinds.filter((k) => k.severity !== "error").map((k) => k.code));
    for (const kind of kinds)
      expect(whyNotTunable(kind.code, kind.severity) === undefined, kind.code).toBe(
        kind.severity !== "error",
      );
    expect(whyNotTunable("E0401", "error")).toBe("Logpush refuses JSON past its limits");
    expect(whyNotTunable("E0999", "error")).toBe("the Terraform file cannot be checked as written");
  });

  it("gives every range of error codes its own reason", () => {
    const ranges = new Set(kinds.filter((k) => k.severity === "error").map((k) => k.code.slice(0, 3)));
    const reasons = [...ranges].map((range) => whyNotTunable(`${range}00`, "error"));
    expect(new Set(reasons).size).toBe(ranges.size);
  });
});

describe("levels", () => {
  it("take a code's own level first, then `warnings` for a warning, else the severity", () => {
    const settings = { W0120: "off", warnings: "error", W0900: "warning" } as const;
    expect(levelOf(settings, "W0120", "warning")).toBe("off");
    expect(levelOf(settings, "W0101", "warning")).toBe("error");
    expect(levelOf(settings, "W0900", "note")).toBe("warning");
    expect(levelOf(settings, "W0901", "note")).toBe("note");
    // An error keeps its severity whatever the settings ask (they are refused before this).
    expect(levelOf({ E0201: "off" } as never, "E0201", "error")).toBe("error");
  });

  it("merge with a later layer winning code by code", () => {
    expect(mergeSettings({ W0120: "off", warnings: "error" }, undefined, { W0120: "error" })).toEqual({
      W0120: "error",
      warnings: "error",
    });
  });

  it("are refused with the codes that can be tuned, the levels there are, and why an error cannot", () => {
    const problems = settingsProblems(
      { W0120: "warn", W0210: "off", E0401: "off", warnings: 3, W0101: "note", "": "off" },
      "--x",
    );
    expect(problems.map(({ code, inLevel, diagnostic }) => [code, inLevel, diagnostic.code])).toEqual([
      ["W0120", true, "E0016"],
      ["W0210", false, "E0015"],
      ["E0401", false, "E0017"],
      ["warnings", true, "E0016"],
      ["", false, "E0015"],
    ]);
    expect(problems[2]!.diagnostic.message).toBe(
      "--x names `E0401`, an error, which cannot be tuned: Logpush refuses JSON past its limits; only warnings and notes can",
    );
    expect(problems[3]!.diagnostic.message).toBe(
      '--x sets `warnings` to 3; a level is "off", "note", "warning" or "error"',
    );
    expect(problems[1]!.diagnostic.message).toContain(
      `are ${TUNABLE_CODES.join(", ")}, and \`warnings\` for`,
    );
  });
});

describe("tuneDiagnostics", () => {
  it("changes each warning's severity, drops what is off and leaves errors alone", () => {
    const error = diagnose("UnknownField", at(9), { field: "x", dataset: "http_requests" });
    const tuned = tuneDiagnostics([warning("W0101"), warning("W0120", 5), error, warning("W0102", 12)], {
      settings: { W0101: "off", W0120: "note", warnings: "error" },
    });
    expect(tuned.map((d) => [d.code, d.severity])).toEqual([
      ["W0120", "note"],
      ["E0201", "error"],
      ["W0102", "error"],
    ]);
  });

  it("gives back the diagnostics as they are with no settings and no ignores", () => {
    const given = [warning("W0101")];
    expect(tuneDiagnostics(given, {})).toEqual(given);
  });

  it("does not report unused ignores where asked not to (a stage that sees some diagnostics only)", () => {
    const source = "# filterc-ignore W0120: seconds\nEdgeStartTimestamp gt 1\n";
    expect(tuneDiagnostics([], { ignores: ignoresOf(source), reportUnused: false })).toEqual([]);
    expect(tuneDiagnostics([], { ignores: ignoresOf(source) }).map((d) => d.code)).toEqual(["W0150"]);
  });

  it("silences by every ignore whose place holds the start, nested places included (a block and its argument)", () => {
    const source =
      "# filterc-ignore W0101: outer\n# filterc-ignore W0101: inner\n# filterc-ignore W0101: after\n";
    const lines = new LineIndex(source);
    const comment = (line: number) => {
      const start = lines.lineStart(line);
      return { start, end: start + lines.lineText(line).length, textStart: start + 1 };
    };
    const outer = readIgnore(source, lines, comment(1), { start: 100, end: 200 })!;
    const inner = readIgnore(source, lines, comment(2), { start: 120, end: 130 })!;
    const after = readIgnore(source, lines, comment(3), { start: 300, end: 310 })!;
    const tuned = tuneDiagnostics([warning("W0101", 150), warning("W0101", 125), warning("W0101", 250)], {
      ignores: [inner, after, outer],
    });
    expect(tuned.map((d) => `${d.code} ${d.range.start.offset}`)).toEqual(["W0150 77", "W0101 250"]);
  });

  it("silences whatever the settings make of the code, and counts an ignore used even where it is off", () => {
    const source = "# filterc-ignore W0120: seconds\nEdgeStartTimestamp gt 1700000000\n";
    const w0120 = compile(source, { diagnostics: { W0120: "off" } });
    expect(w0120.diagnostics).toEqual([]);
    expect(compile(source, { diagnostics: { warnings: "error" } }).ok).toBe(true);
  });
});

describe("reading a filterc-ignore comment", () => {
  const read = (source: string) => {
    const lines = new LineIndex(source);
    const end = source.search(/[\r\n]|$/);
    return readIgnore(
      source,
      lines,
      { start: 0, end, textStart: source.startsWith("//") ? 2 : 1 },
      undefined,
    );
  };

  it("is no ignore for other comments", () => {
    expect(read("# filterc-ignored for now")).toBeUndefined();
    expect(read("# dataset: http_requests")).toBeUndefined();
    expect(read("#filterc-ignore W0120: x")?.codes.map((c) => c.code)).toEqual(["W0120"]);
    expect(read("// filterc-ignore W0120: x")?.codes.map((c) => c.code)).toEqual(["W0120"]);
  });

  it("takes its whole line, the CRLF line break included, when its only code goes", () => {
    const source = "# filterc-ignore W0105: x\r\nBotScore lt 5\r\n";
    const [ignore] = ignoresOf(source);
    expect(ignore!.line).toEqual(new LineIndex(source).rangeOf(0, 27));
    expect(ignore!.applies).toEqual({ start: 27, end: 40 });
  });

  it("has fixes that take away exactly what silences nothing", () => {
    const cases = [
      ["# filterc-ignore W0105: x\nEdgeStartTimestamp gt 1700000000", "EdgeStartTimestamp gt 1700000000"],
      [
        "# filterc-ignore W0105, W0120: x\nEdgeStartTimestamp gt 1700000000",
        "# filterc-ignore W0120: x\nEdgeStartTimestamp gt 1700000000",
      ],
      [
        "# filterc-ignore W0120,W0105 ,  W0106: x\nEdgeStartTimestamp gt 1700000000",
        "# filterc-ignore W0120: x\nEdgeStartTimestamp gt 1700000000",
      ],
      ["# filterc-ignore W0105, W0106: x\nBotScore lt 5", "BotScore lt 5"],
    ] as const;
    for (const [source, fixed] of cases) {
      const unused = compile(source).diagnostics.filter((d) => d.code === "W0150");
      // Every fix of an ignore with all its codes unused takes the same line: one of them does.
      const distinct = unused.filter(
        (d, i) =>
          unused.findIndex((e) => e.suggestion!.range.start.offset === d.suggestion!.range.start.offset) ===
          i,
      );
      expect(applyFixes(source, distinct), source).toBe(fixed);
      expect(compile(fixed).diagnostics.filter((d) => d.code === "W0150")).toEqual([]);
    }
  });

  it("reads every comment its grammar allows, and tells every other one apart (property)", () => {
    const blank = fc.constantFrom(" ", "\t", "  ");
    const code = fc.constantFrom(...TUNABLE_CODES, "W0999", "E0201");
    const comment = fc.record({
      before: fc.constantFrom("", " ", "\t"),
      marker: fc.constantFrom("#", "//"),
      codes: fc.array(fc.tuple(code, fc.constantFrom("", " "), fc.constantFrom("", " ")), {
        minLength: 1,
        maxLength: 4,
      }),
      lead: blank,
      reason: fc.constantFrom("", ": ", ": the value is seconds", ":x", " : y"),
    });
    fc.assert(
      fc.property(comment, ({ before, marker, codes, lead, reason }) => {
        const list = codes.map(([c, pre, post], i) => (i === 0 ? c : `${pre},${post}${c}`)).join("");
        const source = `${before}${marker} filterc-ignore${lead}${list}${reason}\nBotScore lt 5`;
        const lines = new LineIndex(source);
        const start = before.length;
        const end = source.indexOf("\n");
        const ignore = readIgnore(
          source,
          lines,
          { start, end, textStart: start + marker.length },
          undefined,
        )!;
        const named = codes.map(([c]) => c);
        expect(ignore.codes.map((c) => c.code)).toEqual(named.filter((c) => TUNABLE_CODES.includes(c)));
        for (const { code: c, range } of ignore.codes)
          expect(source.slice(range.start.offset, range.end.offset)).toBe(c);
        const problems = ignore.problems.map((d) => d.code);
        expect(problems.filter((p) => p === "W0154")).toHaveLength(named.filter((c) => c === "W0999").length);
        expect(problems.filter((p) => p === "W0153")).toHaveLength(named.filter((c) => c === "E0201").length);
        const hasReason = /:\s*\S/.test(reason);
        expect(problems.includes("W0151")).toBe(!hasReason);
        expect(problems).not.toContain("W0152");
      }),
      { numRuns: 500 },
    );
  });

  it("never throws on any comment text, and reads none of an ignore that is not read (property)", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), (tail, code) => {
        const text = `# filterc-ignore${tail}`.replace(/[\r\n]/g, " ");
        const source = `${code.replace(/[\r\n]/g, " ")}\n${text}\nBotScore lt 5`;
        const start = source.indexOf("\n") + 1;
        const end = start + text.length;
        const ignore = readIgnore(
          source,
          new LineIndex(source),
          { start, end, textStart: start + 1 },
          undefined,
        );
        if (!ignore) return;
        if (ignore.problems.some((d) => d.code === "W0152")) expect(ignore.codes).toEqual([]);
        for (const d of ignore.problems) expect(DIAGNOSTIC_LEVELS).toContain(d.severity);
      }),
      { numRuns: 500 },
    );
  });
});
