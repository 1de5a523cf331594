import { describe, expect, it } from "vitest";
import { DiagnosticKind } from "../../src/diagnostics/index.js";
import { type CompileOptions, compile, type Diagnostic, OPERATORS } from "../../src/index.js";
import { scan, tokenFacts } from "../../src/syntax/index.js";
import { compileOptionsOf, loadConformance, textOf } from "../helpers/conformance.js";

/*
 * A suggestion must fix: applying its replacement makes its diagnostic go away, brings no new
 * error, and leaves no error beside what it wrote. Checked for every suggestion of the conformance corpus and of near misses generated from
 * its valid filters (unquoted values, values in other brackets, slips of keywords, operators and
 * field names), so that each kind of mistake is tried in many places.
 */

interface Case {
  source: string;
  options: CompileOptions;
}

const encloses = (outer: Diagnostic["range"], inner: Diagnostic["range"]) =>
  outer.start.offset <= inner.start.offset && inner.end.offset <= outer.end.offset;

/** How many diagnostics of each code. */
function codeCounts(diagnostics: readonly Diagnostic[], severity?: "error"): Map<string, number> {
  const counts = new Map<string, number>();
  for (const d of diagnostics)
    if (severity === undefined || d.severity === severity) counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
  return counts;
}

/**
 * The limits of the emitted filter (E0401, E0402) are measured only once the filter checks: a fix
 * may show that a filter that had errors is also too long, which is no error of the fix's making.
 */
const emittedLimits = /^E04/;

/**
 * A fix that makes a comment a dataset directive (W0122) has the filter checked against the
 * dataset it names, as its message says: the field errors (E02xx) of that dataset are what the
 * user asked to see, not errors of the fix's making.
 */
const newCatalogErrors = (fixed: Diagnostic, code: string) =>
  fixed.code === DiagnosticKind.NearMissDirective.code && /^E02/.test(code);

/** What is wrong with the suggestion of `diagnostic` in `source`, or undefined when it fixes. */
function suggestionProblem({ source, options }: Case, diagnostics: Diagnostic[], diagnostic: Diagnostic) {
  const { range, replacement } = diagnostic.suggestion!;
  const fixed = source.slice(0, range.start.offset) + replacement + source.slice(range.end.offset);
  if (fixed === source) return "changes nothing";
  const after = compile(fixed, options).diagnostics;
  const before = codeCounts(diagnostics);
  const still = codeCounts(after).get(diagnostic.code) ?? 0;
  const problems: string[] = [];
  if (still >= before.get(diagnostic.code)!) problems.push(`${diagnostic.code} stays`);
  for (const [code, count] of codeCounts(after, "error"))
    if (count > (before.get(code) ?? 0) && !emittedLimits.test(code) && !newCatalogErrors(diagnostic, code))
      problems.push(`new ${code}: ${after.find((d) => d.code === code)!.message}`);
  // A fix of part of the mistake leaves an error beside what it wrote (`eq a.com` → `"a".com`).
  // Another complaint about text that holds this one's (E0302 beside E0106 on `007`, E0111 around
  // a duplicate of W0102) has a fix of its own.
  const start = range.start.offset;
  const end = start + replacement.length;
  const sameText = new Set(
    diagnostics.filter((d) => d !== diagnostic && encloses(d.range, range)).map((d) => d.code),
  );
  for (const d of after) {
    const from = d.range.start.offset;
    const to = d.range.end.offset;
    // Text written touches what is beside it; a deletion only what spans the place it closes.
    const touches =
      start === end
        ? from < start && to > start
        : from < to
          ? from <= end && to >= start
          : from > start && from < end;
    if (d.severity === "error" && touches && !sameText.has(d.code))
      problems.push(`${d.code} at the fix: ${d.message}`);
  }
  return problems.length === 0 ? undefined : `${JSON.stringify(fixed)}: ${problems.join("; ")}`;
}

/** Every suggestion of the cases that does not fix, described. */
function failingSuggestions(cases: Iterable<Case>): string[] {
  const failures: string[] = [];
  for (const testCase of cases) {
    const { diagnostics } = compile(testCase.source, testCase.options);
    for (const diagnostic of diagnostics) {
      if (!diagnostic.suggestion) continue;
      const problem = suggestionProblem(testCase, diagnostics, diagnostic);
      if (problem)
        failures.push(
          `${JSON.stringify(testCase.source)} ${diagnostic.code} → ${JSON.stringify(diagnostic.suggestion.replacement)}: ${problem}`,
        );
    }
  }
  return failures;
}

const corpus: Case[] = loadConformance()
  .flatMap((file) => file.cases)
  .flatMap((testCase) => {
    const source = textOf(testCase);
    return source === undefined || source.length >= 2000
      ? []
      : [{ source, options: compileOptionsOf(testCase) }];
  });

const keywordSlips: Record<string, string[]> = {
  and: ["adn", "nad", "dan", "an", "annd", "AND", "&", "Adn"],
  "&&": ["&", "adn"],
  or: ["ro", "oor", "OR", "|", "Ro"],
  "||": ["|", "ro"],
  not: ["nto", "ont", "NOT", "no", "nott"],
};

/** Letter slips of a word: one dropped, one doubled, two neighbours swapped (a `!` stays first), all in capitals. */
function letterSlips(word: string): string[] {
  const slips = new Set<string>([word.toUpperCase(), word.toLowerCase()]);
  for (let i = 0; i < word.length; i++) {
    slips.add(word.slice(0, i) + word.slice(i + 1));
    slips.add(word.slice(0, i + 1) + word.slice(i));
    if (i + 1 < word.length && word[i] !== "!")
      slips.add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2));
  }
  slips.delete(word);
  slips.delete("");
  return [...slips];
}

/** The near misses of one valid source: each token of it written wrong one way at a time. */
function nearMisses(source: string): string[] {
  const tokens = scan(source).tokens;
  const misses: string[] = [];
  const replace = (start: number, end: number, text: string) =>
    misses.push(source.slice(0, start) + text + source.slice(end));
  tokens.forEach((token, index) => {
    const start = token.startOffset;
    const end = start + token.image.length;
    const facts = tokenFacts(token);
    const previous = index > 0 ? tokenFacts(tokens[index - 1]!) : undefined;
    switch (facts.class) {
      case "logic":
        for (const slip of keywordSlips[token.image.toLowerCase()] ?? []) replace(start, end, slip);
        break;
      case "operator": {
        const operator = OPERATORS[facts.operator];
        for (const slip of [...operator.nearMisses, ...letterSlips(token.image), `not ${token.image}`])
          replace(start, end, slip);
        if (!operator.negative) replace(start, end, `!${token.image}`);
        replace(start, end, "=");
        break;
      }
      case "field":
        if (previous?.class === "operator") break;
        for (const slip of letterSlips(token.image)) replace(start, end, slip);
        // A member of the object field.
        replace(start, end, `${token.image}.x-debug`);
        break;
      case "value": {
        const inList = previous?.class === "punctuation";
        if (facts.value === "string") {
          const text = token.image.slice(1, -1);
          // Unquoted, as people write hosts, paths, addresses and several words.
          if (/^[^\s\p{C}"'\\#,()[\]{}=&|!<>]+$/u.test(text)) replace(start, end, text);
          if (/^[^\p{C}"'\\#,()[\]{}=&|!<>]*$/u.test(text)) replace(start, end, `${text} more`.trim());
          replace(start, end, `“${text}”`);
          replace(start, end, token.image.slice(0, -1));
          // Patterns and letter case as other tools write them: wildcards, anchors, capitals.
          if (text !== "")
            for (const pattern of [`*${text}`, `%${text}%`, `^${text}`, text.toUpperCase()])
              replace(start, end, JSON.stringify(pattern));
        } else if (facts.value === "number" && /^[1-9][0-9]*$/.test(token.image)) {
          replace(start, end, `0${token.image}`);
          replace(start, end, `${token.image}e0`);
          replace(start, end, `${token.image}.${token.image}.1.1`);
          // A unit or a status class after the digits.
          replace(start, end, `${token.image}ms`);
          replace(start, end, `${token.image.slice(0, 1)}xx`);
        }
        if (!inList) {
          replace(start, end, `(${token.image})`);
          replace(start, end, `{${token.image}}`);
          replace(start, end, `[${token.image}]`);
        }
        break;
      }
      case "punctuation":
        if (facts.punctuation === "[") {
          const close = tokens.findIndex((t, i) => i > index && t.image === "]");
          const closeAt = tokens[close]!.startOffset;
          for (const [open, shut] of [
            ["(", ")"],
            ["{", "}"],
          ])
            misses.push(
              source.slice(0, start) + open + source.slice(end, closeAt) + shut + source.slice(closeAt + 1),
            );
          misses.push(source.slice(0, start) + source.slice(end, closeAt) + source.slice(closeAt + 1));
        }
        break;
    }
  });
  return misses;
}

const validSources = [
  ...new Set(
    loadConformance()
      .flatMap((file) => file.cases)
      .filter((testCase) => testCase.filter !== null && !testCase.options)
      .flatMap((testCase) => textOf(testCase) ?? [])
      .filter((source) => source.length < 300),
  ),
  'ClientRequestHost eq "a.com" and ClientRequestPath startsWith "/api/v1"',
  'ClientIP in ["1.2.3.4", "2001:db8::1"] or not ClientCountry in ["us", "ca"]',
  'EdgeResponseStatus in [500, 502] && (ClientRequestUserAgent contains "curl" || BotScore lt 30)',
  'SecurityActions contains "block" and ClientRequestHost endsWith ".example.com"',
  'ClientRequestHost eq "x-debug" or BotScore geq 5',
];

/**
 * The filters that check but can never match, or that mean something else than they say, each
 * with the diagnostic it must get (issue 39, part 3): each has a fix, and the fix takes it away.
 */
const neverMatching: [source: string, dataset: string, code: string][] = [
  ['ClientIP in ["1.2.3.4", "10.0.0.0/8"]', "http_requests", "W0124"],
  ['SrcIP in ["192.0.2.0/24"]', "gateway_dns", "W0124"],
  ['ClientIP eq "192.0.2.8/30"', "http_requests", "W0124"],
  ['ClientRequestHost eq "*.example.com"', "http_requests", "W0125"],
  ['ClientRequestHost contains "%example%"', "http_requests", "W0125"],
  ['ClientRequestPath startsWith "^/api"', "http_requests", "W0125"],
  ['ClientRequestHost like "%example%"', "http_requests", "E0205"],
  ['ClientCountry eq "US"', "http_requests", "W0126"],
  ['ClientRequestMethod eq "get"', "http_requests", "W0126"],
  ['ClientRequestProtocol eq "http/2"', "http_requests", "W0126"],
  ['CacheCacheStatus eq "HIT"', "http_requests", "W0126"],
  ['ClientCountry in "us,ca"', "http_requests", "E0304"],
  ['ClientCountry in ["us,ca"]', "http_requests", "W0127"],
  ["EdgeResponseStatus eq 5xx", "http_requests", "E0311"],
  ["CPUTimeMs gt 50ms", "workers_trace_events", "E0310"],
  ["EdgeResponseStatus ≥ 500", "http_requests", "E0205"],
  ["EdgeResponseStatus ≤ 500", "http_requests", "E0205"],
  ["EdgeResponseStatus ≠ 500", "http_requests", "E0205"],
  ['EdgeResponseStatus ＝＝ 500 ｜｜ ClientCountry eq "us"', "http_requests", "E0205"],
  ['EdgeResponseStatus eq 500 ＆＆ ClientCountry eq "us"', "http_requests", "E0101"],
  ['QueryType eq "AAAA"', "dns_logs", "E0309"],
  ["ClientIp eq 1.2.3.4", "http_requests", "E0202"],
  ["ClientIp eq 1.2.3.4", "http_requests", "E0303"],
  ['SecurityActions in ["block", "log"]', "http_requests", "W0123"],
];

describe("suggestions fix", () => {
  it.each(neverMatching)("%s (%s): %s has a fix, and the fix takes it away", (source, dataset, code) => {
    const before = compile(source, { dataset }).diagnostics.filter((d) => d.code === code);
    expect(before).toHaveLength(1);
    const { range, replacement } = before[0]!.suggestion!;
    const fixed = source.slice(0, range.start.offset) + replacement + source.slice(range.end.offset);
    const after = compile(fixed, { dataset }).diagnostics;
    expect(after.filter((d) => d.code === code)).toEqual([]);
    // The filter is whole again (the other mistake of `ClientIp eq 1.2.3.4` aside).
    const others = compile(source, { dataset }).diagnostics.filter((d) => d.code !== code);
    expect(after.filter((d) => d.severity === "error").length).toBeLessThanOrEqual(
      others.filter((d) => d.severity === "error").length,
    );
  });

  it("in every conformance case", () => {
    expect(failingSuggestions(corpus)).toEqual([]);
  });

  it("in near misses of valid filters: unquoted values, other brackets, slips of keywords, operators, fields", () => {
    const cases = validSources.flatMap((source) =>
      nearMisses(source).map((miss) => ({ source: miss, options: {} })),
    );
    expect(cases.length).toBeGreaterThan(3000);
    expect(failingSuggestions(cases)).toEqual([]);
  });
});
