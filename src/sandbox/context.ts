import type { CustomFieldsLimit, ResolvedScope } from "../api/index.js";
import type { RulesetVersions } from "./ruleset-versions.js";
import type { Store } from "./store.js";

/** What a route handler gets: the scope, the path parameters, the query and the parsed JSON body. */
export interface RequestContext {
  store: Store;
  dataDir: string;
  /** Where the route lives: `/zones/{id}/…` or `/accounts/{id}/…` (the job routes exist under both). */
  scope: ResolvedScope;
  /** The store's key of the scope's state: the zone id, or `account-` and the account id. */
  stateKey: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  /** The versions of each ruleset written since the start, for `GET …/versions/{v}`. */
  rulesetVersions: RulesetVersions;
  /** The custom-field limits the rules of the custom fields phase are held to. */
  customFieldsLimit: CustomFieldsLimit;
  /** The seed of the push's samples (output_options.sample_rate). */
  sampleSeed: number;
  /** The deepest nesting of arrays and objects accepted in a JSON value. */
  maxJsonDepth: number;
  /** The streamed body of the ingest (empty on the other routes). */
  upload: Upload;
  /** Where faults of the sandbox itself are reported. */
  log: (line: string) => void;
  /** The Instant Logs sessions the ingest sends records to. */
  instantLogs: LiveSessions;
}

/**
 * The Instant Logs sessions as the routes and the ingest use them (`InstantLogs` in
 * instant-logs.ts, which imports this module, so the type is declared here).
 */
export interface LiveSessions {
  /** `GET /zones/{id}/logpush/edge/jobs`: the zone's sessions. */
  list(context: RequestContext): Promise<Reply>;
  /** `POST /zones/{id}/logpush/edge/jobs`: a new session, its filter checked. */
  create(context: RequestContext): Promise<Reply>;
  /** Whether a session of the zone has its WebSocket open, so records are worth gating for it. */
  listening(zoneId: string): boolean;
  /** One record of the zone, for each of its open sessions to take through its own filter and sample. */
  offer(zoneId: string, record: Record<string, unknown>): void;
}

/** A body read as it arrives: its chunks (refused past the size limit), and how to read them. */
export interface Upload {
  chunks: AsyncIterable<Buffer>;
  /** `Content-Encoding: gzip` was sent (gzip is also known by its magic bytes). */
  gzip: boolean;
  /** Longest line held in memory; a longer one is malformed. */
  maxLineBytes: number;
  /** Most bytes of content once inflated, and most lines: beyond either the body is refused. */
  maxInflatedBytes: number;
  maxLines: number;
  /** Aborted when the client goes away or the sandbox stops: the work for it stops too. */
  signal: AbortSignal;
}

/** The upload of a route that takes none. */
export function noUpload(): Upload {
  return {
    chunks: (async function* () {})(),
    gzip: false,
    maxLineBytes: 0,
    maxInflatedBytes: 0,
    maxLines: 0,
    signal: new AbortController().signal,
  };
}

/** A successful answer: the envelope's `result` (and `result_info`), or no body at all (204). */
export interface Reply {
  status: number;
  result?: unknown;
  resultInfo?: Record<string, unknown>;
}
