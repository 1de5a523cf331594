import {
  type DiagnosticLevel,
  type NamedOption,
  type OptionLabels,
  settingsProblems,
} from "../diagnostics/index.js";
import type { ServiceOptions } from "../service/index.js";

export const SETTINGS_SECTION = "filterc";

/** How the server's messages name the options: by the setting that sets one; the others cannot be set. */
export const SETTING_LABELS: Record<NamedOption, string | null> & OptionLabels = {
  maxOperators: `setting ${SETTINGS_SECTION}.maxOperators`,
  maxBytes: `setting ${SETTINGS_SECTION}.maxBytes`,
  optimize: null,
  lineWidth: null,
  timeoutMs: null,
  maxSourceLength: null,
  maxInputLength: null,
  maxDepth: null,
  maxDiagnostics: null,
  maxRetryDelayMs: null,
};

const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= 0;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads settings as clients send them: the section's object itself (workspace/configuration),
 * or an object holding it under `filterc` (didChangeConfiguration, initializationOptions).
 * Returns the service options with the settings applied over `base`, the names of settings that
 * had the wrong type (they are ignored; `filterc` itself when the section is no object), and, when
 * there is any, what is wrong with each entry of `diagnostics` left out (a code no warning or note
 * has, a level that is none). No settings at all (null, undefined) is no mistake.
 */
export function applySettings(
  base: ServiceOptions,
  raw: unknown,
): { options: ServiceOptions; ignored: string[]; problems?: string[] } {
  const options: ServiceOptions = { ...base, optionLabels: SETTING_LABELS };
  const ignored: string[] = [];
  const problems: string[] = [];
  if (raw === null || raw === undefined) return { options, ignored };
  const nested = isObject(raw) ? raw[SETTINGS_SECTION] : undefined;
  const settings = nested === undefined || nested === null ? raw : nested;
  if (!isObject(settings)) {
    ignored.push(SETTINGS_SECTION);
    return { options, ignored };
  }
  const { dataset, maxOperators, maxBytes } = settings;
  if (typeof dataset === "string" && dataset !== "") {
    options.dataset = dataset;
    // A dataset named in settings replaces a catalog given on the command line.
    delete options.catalog;
  } else if (dataset !== undefined && dataset !== null && dataset !== "")
    ignored.push(`${SETTINGS_SECTION}.dataset`);
  if (isCount(maxOperators)) options.maxOperators = maxOperators;
  else if (maxOperators !== undefined && maxOperators !== null)
    ignored.push(`${SETTINGS_SECTION}.maxOperators`);
  if (isCount(maxBytes)) options.maxBytes = maxBytes;
  else if (maxBytes !== undefined && maxBytes !== null) ignored.push(`${SETTINGS_SECTION}.maxBytes`);
  const { diagnostics } = settings;
  if (isObject(diagnostics)) {
    const wrong = settingsProblems(diagnostics, `setting ${SETTINGS_SECTION}.diagnostics`);
    for (const { diagnostic } of wrong) problems.push(diagnostic.message);
    const left = new Set(wrong.map(({ code }) => code));
    options.diagnostics = Object.fromEntries(
      Object.entries(diagnostics).filter(([code]) => !left.has(code)),
    ) as Record<string, DiagnosticLevel>;
  } else if (diagnostics !== undefined && diagnostics !== null)
    ignored.push(`${SETTINGS_SECTION}.diagnostics`);
  return problems.length > 0 ? { options, ignored, problems } : { options, ignored };
}
