import {
  CUSTOM_FIELD_LISTS,
  CUSTOM_FIELDS_LIMITS,
  type CustomFieldList,
  type CustomFieldsConfig,
  type CustomFieldsLimit,
} from "../src/api/custom-fields.js";

const total = (config: CustomFieldsConfig) =>
  CUSTOM_FIELD_LISTS.reduce((sum, { list }) => sum + (config[list]?.length ?? 0), 0);

/** The zone's count against the limit in force: "3 of 40 custom fields", or "3 custom fields, at most 100 in each list". */
export function customFieldCount(config: CustomFieldsConfig, limit: CustomFieldsLimit): string {
  const { most, per } = CUSTOM_FIELDS_LIMITS[limit];
  const count = total(config);
  return per === "zone"
    ? `${count} of ${most} custom fields`
    : `${count} custom field${count === 1 ? "" : "s"}, at most ${most} in each list`;
}

/** The count a new name makes, against the limit in force: "4 of 40 custom fields with this one." or "2 of 100 cookies with this one." */
export function countWithNew(
  merged: CustomFieldsConfig,
  list: CustomFieldList,
  limit: CustomFieldsLimit,
): string {
  const { most, per } = CUSTOM_FIELDS_LIMITS[limit];
  if (per === "zone") return `${total(merged)} of ${most} custom fields with this one.`;
  const { noun } = CUSTOM_FIELD_LISTS.find((entry) => entry.list === list)!;
  return `${merged[list]?.length ?? 0} of ${most} ${noun}s with this one.`;
}

/** Whether `merged` holds no more names than `config` (the name typed is already there). */
export const addsNothing = (config: CustomFieldsConfig, merged: CustomFieldsConfig) =>
  total(merged) === total(config);
