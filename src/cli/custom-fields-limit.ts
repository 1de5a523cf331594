/**
 * `--custom-fields-limit service|seed`: which limits a zone's custom fields are held to (the
 * library's CUSTOM_FIELDS_LIMITS). fields, check (Terraform), sandbox and console take it.
 */
import {
  CUSTOM_FIELDS_LIMITS,
  type CustomFieldsLimit,
  customFieldsLimitWords,
  DEFAULT_CUSTOM_FIELDS_LIMIT,
  isCustomFieldsLimit,
} from "../api/custom-fields.js";
import { UsageError } from "./io.js";

export const customFieldsLimitFlag = { "custom-fields-limit": { type: "string" } } as const;

const names = Object.keys(CUSTOM_FIELDS_LIMITS) as CustomFieldsLimit[];

/** The flag's lines of a usage text, aligned at column 24 as the commands' other flags are. */
export const CUSTOM_FIELDS_LIMIT_USAGE = `  --custom-fields-limit ${names.join("|")}
                        the custom-field limits checked: service (default), Cloudflare's docs today,
                        ${customFieldsLimitWords("service")}; seed, the older limit, ${customFieldsLimitWords("seed")}`;

/** The limit the flag names (the default when it is not given); another word is a usage error. */
export function customFieldsLimitFrom(values: {
  "custom-fields-limit"?: string | undefined;
}): CustomFieldsLimit {
  const given = values["custom-fields-limit"];
  if (given === undefined) return DEFAULT_CUSTOM_FIELDS_LIMIT;
  if (isCustomFieldsLimit(given)) return given;
  throw new UsageError(`--custom-fields-limit takes ${names.join(" or ")}, not ${JSON.stringify(given)}`);
}
