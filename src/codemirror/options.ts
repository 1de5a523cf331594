import { Facet } from "@codemirror/state";
import type { Catalog } from "../catalog/index.js";

/** What the editor checks against: the dataset (or a catalog of your own) and the Logpush limits. */
export interface LogpushFilterOptions {
  /** The Logpush dataset whose fields apply (default `http_requests`). */
  dataset?: string;
  /** A catalog for a dataset filterc does not ship; takes precedence over `dataset`. */
  catalog?: Catalog;
  /** The comparison limit (default 30). */
  maxOperators?: number;
  /** The byte limit of the JSON (default 1000). */
  maxBytes?: number;
  /** Whether the JSON is optimized (default true). */
  optimize?: boolean;
}

/** The options in effect: the last one given wins, so a compartment can swap the dataset. */
export const filterOptions = Facet.define<LogpushFilterOptions, LogpushFilterOptions>({
  combine: (values) => values[values.length - 1] ?? {},
});
