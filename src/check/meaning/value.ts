/**
 * A value one field of a record may hold, as the meaning analysis builds it: a value of the field's
 * catalog type. Integers are exact (bigint, within -2^63 … 2^64-1); floats are exact decimals
 * (canonical text), as a log may write any decimal and the evaluator compares exact values.
 */
export type FieldValue =
  | { type: "string"; value: string }
  | { type: "int"; value: bigint }
  | { type: "float"; value: string }
  | { type: "bool"; value: boolean }
  | { type: "array"; elements: (string | bigint)[] };

/** A record found by the analysis: the fields it holds, by name; every other field is missing. */
export type Witness = Map<string, FieldValue>;
