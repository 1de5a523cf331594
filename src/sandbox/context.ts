import type { Store } from "./store.js";

/** What a route handler gets: the zone, the path parameters, the query and the parsed JSON body. */
export interface RequestContext {
  store: Store;
  dataDir: string;
  zoneId: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  /** The deepest nesting of arrays and objects accepted in a JSON value. */
  maxJsonDepth: number;
  /** The raw body, for the NDJSON ingest. */
  rawBody: Buffer;
}

/** A successful answer: the envelope's `result` (and `result_info`), or no body at all (204). */
export interface Reply {
  status: number;
  result?: unknown;
  resultInfo?: Record<string, unknown>;
}
