/**
 * Diagnostics a project tunes (docs/diagnostics.md): settings give a warning or note the level
 * `off`, `note`, `warning` or `error` (by its code, or every warning at once with `warnings`), and
 * `filterc-ignore` comments silence codes in one place. `tuneDiagnostics` takes the diagnostics of
 * any stage, the source's ignores and the settings and gives what the user sees, with the reports
 * on the ignores themselves. Pure and browser-safe: every front end (the compiler, the Terraform
 * check, the language service) calls it, however its diagnostics were produced.
 */
import { type Diagnostic, diagnose, sortDiagnostics } from "./diagnostic.js";
import type { IgnoreComment } from "./ignore-comment.js";
import { DiagnosticKind, type Severity, whyNotTunable } from "./kinds.js";
import type { Range } from "./range.js";
import { closestMatch } from "./suggest.js";

/** The level a setting gives a code: `off` reports nothing; `note` and `warning` never fail a run; `error` does. */
export type DiagnosticLevel = "off" | "note" | "warning" | "error";

/** Every level, in order. */
export const DIAGNOSTIC_LEVELS: readonly DiagnosticLevel[] = ["off", "note", "warning", "error"];

/** The key that sets every warning whose own code is not set: `--deny warnings`, `"warnings": "error"`. */
export const EVERY_WARNING = "warnings";

/** Levels by code (`"W0120": "off"`), and by `warnings` for every warning whose code is not set. */
export type DiagnosticSettings = Readonly<Record<string, DiagnosticLevel>>;

/** Every code's severity, by the code. */
const SEVERITY_OF: ReadonlyMap<string, Severity> = new Map(
  Object.values(DiagnosticKind).map((kind) => [kind.code, kind.severity]),
);

/** Every code a project may tune (warnings and notes), in the table's order. */
export const TUNABLE_CODES: readonly string[] = [...SEVERITY_OF]
  .filter(([code, severity]) => whyNotTunable(code, severity) === undefined)
  .map(([code]) => code);

/** The severity of a code of the table; undefined for a string that is no code. */
export const severityOfCode = (code: string): Severity | undefined => SEVERITY_OF.get(code);

const atStart: Range = { start: { offset: 0, line: 1, column: 1 }, end: { offset: 0, line: 1, column: 1 } };

/**
 * What is wrong with naming `code` in `setting` (a label: `--deny`, `option diagnostics`, `"diagnostics"`):
 * E0015 for no code of a warning or note, E0017 for an error's; undefined when it can be tuned.
 */
export function settingCodeProblem(
  code: string,
  setting: string,
  range: Range = atStart,
): Diagnostic | undefined {
  if (code === EVERY_WARNING) return undefined;
  const severity = SEVERITY_OF.get(code);
  if (severity === undefined) {
    const meant = closestMatch(code, TUNABLE_CODES);
    return diagnose("UnknownDiagnosticCode", range, {
      setting,
      code,
      meant,
      known: TUNABLE_CODES.join(", "),
    });
  }
  const why = whyNotTunable(code, severity);
  return why === undefined ? undefined : diagnose("DiagnosticNotTunable", range, { setting, code, why });
}

/** What is wrong with one entry of a settings object: its code (E0015, E0017) or its level (E0016). */
export interface SettingProblem {
  code: string;
  /** Whether the level is what is wrong (the value), not the code (the key). */
  inLevel: boolean;
  diagnostic: Diagnostic;
}

const isLevel = (value: unknown): value is DiagnosticLevel =>
  typeof value === "string" && (DIAGNOSTIC_LEVELS as readonly string[]).includes(value);

/** Every problem of a settings object as given (JSON, an editor's settings, a caller's option), in its order. */
export function settingsProblems(
  settings: Readonly<Record<string, unknown>>,
  setting: string,
): SettingProblem[] {
  const problems: SettingProblem[] = [];
  for (const [code, level] of Object.entries(settings)) {
    const wrong = settingCodeProblem(code, setting);
    if (wrong) problems.push({ code, inLevel: false, diagnostic: wrong });
    else if (!isLevel(level)) {
      const shown = JSON.stringify(level) ?? String(level);
      const diagnostic = diagnose("InvalidDiagnosticLevel", atStart, { setting, code, level: shown });
      problems.push({ code, inLevel: true, diagnostic });
    }
  }
  return problems;
}

/** Settings one over another: a later layer's level of a code (or of `warnings`) wins. */
export function mergeSettings(...layers: readonly (DiagnosticSettings | undefined)[]): DiagnosticSettings {
  return Object.assign({}, ...layers.filter((layer) => layer !== undefined));
}

/** The level of a diagnostic of `code` reported as `severity`: its code's setting, else `warnings` for a warning. */
export function levelOf(settings: DiagnosticSettings, code: string, severity: Severity): DiagnosticLevel {
  if (whyNotTunable(code, severity) !== undefined) return severity;
  const own = Object.hasOwn(settings, code) ? settings[code] : undefined;
  if (own !== undefined) return own;
  if (severity === "warning" && Object.hasOwn(settings, EVERY_WARNING)) return settings[EVERY_WARNING]!;
  return severity;
}

export interface TuneOptions {
  settings?: DiagnosticSettings | undefined;
  /** The source's `filterc-ignore` comments. */
  ignores?: readonly IgnoreComment[] | undefined;
  /**
   * Whether an ignore that silences nothing is reported (W0150): true where `diagnostics` are every
   * one the source has (check, compile); false where they are a stage's only (`fmt --check` sees the
   * parser's), since an ignore may be meant for a later stage.
   */
  reportUnused?: boolean;
}

/**
 * The diagnostics as the user sees them: each warning or note an ignore silences goes (the ignore
 * applies where the diagnostic starts, and names its code); the others take their level from the
 * settings (`off` goes); errors stay as they are. The ignores' own problems (W0151–W0154) and, with
 * `reportUnused`, each code an ignore names that silenced nothing (W0150) are added, at their
 * levels too. Sorted as every front end shows them.
 */
export function tuneDiagnostics(diagnostics: readonly Diagnostic[], options: TuneOptions): Diagnostic[] {
  const settings = options.settings ?? {};
  const ignores = options.ignores ?? [];
  if (ignores.length === 0 && Object.keys(settings).length === 0) return [...diagnostics];
  const used = ignores.map((ignore) => ignore.codes.map(() => false));
  const places = ignoredPlaces(ignores);
  const tuned: Diagnostic[] = [];
  const report = (diagnostic: Diagnostic) => {
    const level = levelOf(settings, diagnostic.code, diagnostic.severity);
    if (level === "off") return;
    tuned.push(level === diagnostic.severity ? diagnostic : { ...diagnostic, severity: level });
  };
  for (const diagnostic of diagnostics) {
    if (whyNotTunable(diagnostic.code, diagnostic.severity) !== undefined) {
      tuned.push(diagnostic);
      continue;
    }
    if (!silence(diagnostic, places, used)) report(diagnostic);
  }
  ignores.forEach((ignore, i) => {
    for (const problem of ignore.problems) report(problem);
    if (options.reportUnused === false) return;
    const unused = ignore.codes.filter((_, j) => !used[i]![j]);
    if (unused.length === 0) return;
    const fix = unusedFix(ignore, new Set(unused.map(({ code }) => code)));
    for (const { code, range } of unused) report(diagnose("UnusedIgnore", range, { code }, fix));
  });
  return sortDiagnostics(tuned);
}

/**
 * The one fix of every unused code of an ignore, so that applying any of them applies all: the
 * codes that silence something (or that other reports are about) kept, else the comment's line gone.
 */
function unusedFix(ignore: IgnoreComment, unused: ReadonlySet<string>) {
  const kept = (ignore.list?.written ?? []).filter((code) => !unused.has(code));
  if (kept.length === 0 || !ignore.list)
    return { message: "remove the comment", range: ignore.line, replacement: "" };
  const gone = [...unused].map((code) => `\`${code}\``).join(", ");
  return {
    message: `remove ${gone} from the comment`,
    range: ignore.list.range,
    replacement: kept.join(", "),
  };
}

/** Where each code is ignored: by code, sorted by start, with the furthest end up to each one. */
interface IgnoredPlaces {
  entries: { start: number; end: number; ignore: number; code: number }[];
  furthestEnd: number[];
}

function ignoredPlaces(ignores: readonly IgnoreComment[]): Map<string, IgnoredPlaces> {
  const byCode = new Map<string, IgnoredPlaces>();
  ignores.forEach(({ codes, applies }, ignore) => {
    if (!applies) return;
    codes.forEach(({ code }, index) => {
      const places = byCode.get(code) ?? { entries: [], furthestEnd: [] };
      places.entries.push({ ...applies, ignore, code: index });
      byCode.set(code, places);
    });
  });
  for (const places of byCode.values()) {
    places.entries.sort((a, b) => a.start - b.start);
    let furthest = -1;
    places.furthestEnd = places.entries.map(({ end }) => {
      furthest = Math.max(furthest, end);
      return furthest;
    });
  }
  return byCode;
}

/**
 * Whether an ignore of its code applies where `diagnostic` starts; each that does is marked used.
 * A search, not a scan: a file may hold thousands of ignores and of diagnostics.
 */
function silence(diagnostic: Diagnostic, byCode: Map<string, IgnoredPlaces>, used: boolean[][]): boolean {
  const places = byCode.get(diagnostic.code);
  if (!places) return false;
  const at = diagnostic.range.start.offset;
  const { entries, furthestEnd } = places;
  // The last entry that starts at or before `at`; those before it may still reach past it.
  let low = 0;
  let high = entries.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (entries[mid]!.start <= at) low = mid + 1;
    else high = mid - 1;
  }
  let silenced = false;
  for (let i = high; i >= 0 && furthestEnd[i]! > at; i--) {
    const entry = entries[i]!;
    if (at >= entry.end) continue;
    used[entry.ignore]![entry.code] = true;
    silenced = true;
  }
  return silenced;
}
