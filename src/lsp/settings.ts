import type { ServiceOptions } from "../service/index.js";

/** The client settings filterc reads, under the section `filterc`. */
export interface FiltercSettings {
  dataset?: string;
  maxOperators?: number;
  maxBytes?: number;
}

export const SETTINGS_SECTION = "filterc";

const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= 0;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads settings as clients send them: the section's object itself (workspace/configuration),
 * or an object holding it under `filterc` (didChangeConfiguration, initializationOptions).
 * Returns the service options with the settings applied over `base`, and the names of
 * settings that had the wrong type (they are ignored; `filterc` itself when the section is no
 * object). No settings at all (null, undefined) is no mistake.
 */
export function applySettings(
  base: ServiceOptions,
  raw: unknown,
): { options: ServiceOptions; ignored: string[] } {
  const options: ServiceOptions = { ...base };
  const ignored: string[] = [];
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
  return { options, ignored };
}
