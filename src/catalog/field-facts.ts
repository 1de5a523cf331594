import type { FieldInfo } from "./catalog.js";
import table from "./field-facts.json";
import { isTimestampField } from "./timestamps.js";

/*
 * What the documentation says a field's values look like, beyond its type: the values it takes and
 * their letter case, the fields that hold IP addresses, the unit of a number, the names of numbered
 * codes, and why a field cannot be filtered. All of it is data (field-facts.json, each entry with
 * its source); the checker's warnings and the editor's completion read it here.
 */

/** How a string field's values are written. */
export interface ValueForm {
  /** The values the documentation lists (completion offers them; a value differing only in case is fixed to one). */
  values?: readonly string[];
  /** Every value is written in this letter case. */
  case?: "lower" | "upper";
  /** Other spellings people write for a value, each with the value meant. */
  variants?: Readonly<Record<string, string>>;
  /** What the values are, for messages: "two-letter country codes in small letters (\"us\")". */
  holds: string;
}

/** The unit a number field counts in. */
export type FieldUnit = "nanoseconds" | "microseconds" | "milliseconds" | "seconds" | "bytes";

/** Numbered codes with names (DNS record types): what they are, and each name's number. */
export interface NamedNumbers {
  what: string;
  /** Upper-cased name → number. */
  byName: ReadonlyMap<string, string>;
}

interface ValueEntry {
  fields: string[];
  datasets?: string[];
  values?: string[];
  case?: "lower" | "upper";
  variants?: Record<string, string>;
  holds?: string;
  source: string;
}

interface NamesEntry {
  fields: string[];
  datasets?: string[];
  what: string;
  names: Record<string, number>;
  source: string;
}

interface Facts {
  values: ValueEntry[];
  addresses: { fields: string[]; source: string };
  units: { suffixes: Record<string, FieldUnit>; fields: Record<string, FieldUnit>; source: string };
  names: NamesEntry[];
  notFilterable: { dataset: string; field: string; instead: string }[];
}

const facts = table as unknown as Facts;

const appliesTo = (entry: { fields: string[]; datasets?: string[] }, dataset: string, field: string) =>
  entry.fields.includes(field) && (entry.datasets === undefined || entry.datasets.includes(dataset));

const listed = (values: readonly string[]) =>
  `one of ${values.map((value) => JSON.stringify(value)).join(", ")}`;

/** How the values of `field` in `dataset` are written, when the documentation says. */
export function valueFormOf(dataset: string, field: string): ValueForm | undefined {
  const entry = facts.values.find((candidate) => appliesTo(candidate, dataset, field));
  if (!entry) return undefined;
  const form: ValueForm = { holds: entry.holds ?? (entry.values ? listed(entry.values) : "") };
  if (entry.values) form.values = entry.values;
  if (entry.case) form.case = entry.case;
  if (entry.variants) form.variants = entry.variants;
  return form;
}

const addressFields = new Set(facts.addresses.fields);

/** Whether the field (or each element of the array field) holds one IP address. */
export function holdsAddresses(field: string): boolean {
  return addressFields.has(field);
}

const unitSuffixes = Object.entries(facts.units.suffixes);

/** The unit a number field counts in, when its name or the catalog says: timestamps compare in nanoseconds. */
export function unitOf(field: FieldInfo): FieldUnit | undefined {
  if (field.type !== "int" && field.type !== "float") return undefined;
  if (isTimestampField(field)) return "nanoseconds";
  const named = facts.units.fields[field.name];
  if (named) return named;
  return unitSuffixes.find(([suffix]) => field.name.endsWith(suffix))?.[1];
}

const namedNumbers = facts.names.map((entry) => ({
  entry,
  numbers: {
    what: entry.what,
    byName: new Map(
      Object.entries(entry.names).map(([name, number]) => [name.toUpperCase(), String(number)]),
    ),
  } satisfies NamedNumbers,
}));

/** The names of the numbered codes an int field holds (DNS record types for QueryType), when there are. */
export function namedNumbersOf(dataset: string, field: string): NamedNumbers | undefined {
  return namedNumbers.find(({ entry }) => appliesTo(entry, dataset, field))?.numbers;
}

/** What to filter on instead of a field the documentation lists as not filterable, when there is something. */
export function insteadOfUnfilterable(dataset: string, field: string): string | undefined {
  return facts.notFilterable.find((entry) => entry.dataset === dataset && entry.field === field)?.instead;
}
