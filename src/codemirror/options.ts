import { Facet } from "@codemirror/state";
import type { ServiceOptions } from "../service/index.js";

/** What the editor checks against: the dataset (or a catalog of your own) and the Logpush limits. */
export type LogpushFilterOptions = ServiceOptions;

/** The options in effect: the last one given wins, so a compartment can swap the dataset. */
export const filterOptions = Facet.define<LogpushFilterOptions, LogpushFilterOptions>({
  combine: (values) => values[values.length - 1] ?? {},
});
