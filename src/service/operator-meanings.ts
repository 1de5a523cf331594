import type { CanonicalOperator } from "../syntax/index.js";

/** Each operator in words, as completion details and hovers show it. */
export const operatorMeanings: Record<CanonicalOperator, string> = {
  eq: "equals the value",
  "!eq": "does not equal the value",
  lt: "is less than the value",
  leq: "is less than or equal to the value",
  gt: "is greater than the value",
  geq: "is greater than or equal to the value",
  startsWith: "starts with the text",
  endsWith: "ends with the text",
  "!startsWith": "does not start with the text",
  "!endsWith": "does not end with the text",
  contains: "contains the text; on an array field, has the element",
  "!contains": "does not contain the text; on an array field, lacks the element",
  in: "is one of the listed values; on an array field, has one of them",
  "!in": "is none of the listed values; on an array field, has none of them",
};
