import { randomInt } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import type { Duplex } from "node:stream";
import {
  type CustomFieldsLimit,
  DEFAULT_CUSTOM_FIELDS_LIMIT,
  MAX_TIMEOUT_MS,
  type ResolvedScope,
} from "../api/index.js";
import { authenticate, type Credentials, resolveCredentials } from "./auth.js";
import { noUpload, type Reply, type RequestContext, type Upload } from "./context.js";
import { ErrorCode, SandboxError, stateNotWritten } from "./errors.js";
import {
  createExplorerDataset,
  deleteExplorerDataset,
  getExplorerDataset,
  listExplorerDatasets,
  updateExplorerDataset,
} from "./explorer.js";
import {
  type BodyPace,
  limitedBody,
  parseJsonObject,
  readBody,
  requestUrl,
  sendErrors,
  sendResult,
} from "./http.js";
import { DEFAULT_INSTANT_LOGS_OPTIONS, InstantLogs } from "./instant-logs.js";
import { createJob, datasetFields, deleteJob, getJob, listDatasetJobs, listJobs, updateJob } from "./jobs.js";
import { createChallenge, destinationExists, validateChallenge, validateDestination } from "./ownership.js";
import { ingest } from "./push.js";
import { RulesetVersions } from "./ruleset-versions.js";
import {
  createRuleset,
  deleteRuleset,
  getEntrypoint,
  getRuleset,
  getRulesetVersion,
  listRulesets,
  updateEntrypoint,
  updateRuleset,
} from "./rulesets.js";
import { Store } from "./store.js";

export interface SandboxOptions extends Credentials {
  /** The folder holding the state and the pushed files. */
  dataDir: string;
  /** 0 picks a free port (default 8787). */
  port?: number;
  /** Largest JSON body accepted (default 1 MiB). */
  maxBodyBytes?: number;
  /** Deepest nesting of arrays and objects in a JSON body or an ingested record (default 64). */
  maxJsonDepth?: number;
  /** Largest NDJSON body the ingest accepts, as sent (default 64 MiB). */
  maxIngestBytes?: number;
  /** Longest line of an ingest held in memory; a longer one is a malformed line (default 1 MiB). */
  maxIngestLineBytes?: number;
  /** Ingests run at once; one more is answered 429 (default 2). */
  maxIngestsInFlight?: number;
  /** Most bytes of NDJSON one ingest holds once inflated; more is answered 413 (default 1 GiB). */
  maxIngestInflatedBytes?: number;
  /** Most lines one ingest holds, blank ones included; more is answered 413 (default 1,000,000). */
  maxIngestLines?: number;
  /** Requests handled at once, counted once their body is in; one more is answered 503 (default 64). */
  maxRequestsInFlight?: number;
  /** Connections open at once; a request on one more is answered 503 and its connection closed (default 256). */
  maxConnections?: number;
  /** How long a request's headers may take to arrive; then it is answered 408 (default 10 s). */
  headersTimeoutMs?: number;
  /** How long the sandbox waits for a body, plus a second per `minBodyBytesPerSecond` bytes received; then 408 (default 10 s). */
  bodyTimeoutMs?: number;
  /** The rate a body must keep up once `bodyTimeoutMs` is spent (default 64 KiB/s). */
  minBodyBytesPerSecond?: number;
  /** Most bytes of rulesets, jobs, challenges and Log Explorer datasets one zone (or account) holds; a write past it is refused (default 32 MiB). */
  maxZoneBytes?: number;
  /** On close, how long requests under way may take to finish before their connections are closed (default 10 s). */
  shutdownGraceMs?: number;
  /** Instant Logs sessions open at once, across zones; one more is answered 429 (default 16). */
  maxInstantLogsSessions?: number;
  /** Bytes of records waiting to reach one Instant Logs client before it is dropped (default 4 MiB). */
  maxInstantLogsBufferedBytes?: number;
  /** How long an Instant Logs session lasts (default 60 minutes, the service's). */
  instantLogsSessionMs?: number;
  /** How long an Instant Logs session waits for its client to connect (default 5 minutes). */
  instantLogsConnectTimeoutMs?: number;
  /** The versions of each ruleset kept for `GET …/rulesets/{id}/versions/{v}`, the latest first (default 100). */
  maxRulesetVersions?: number;
  /** The custom-field limits rules are held to: `service` (default, 100 in each list) or `seed` (40 in all). */
  customFieldsLimit?: CustomFieldsLimit;
  /** The seed of `output_options.sample_rate`'s sample: the same records every run (default: a random one). */
  sampleSeed?: number;
  /** Where failures that are the sandbox's own fault are reported (default: nowhere). */
  log?: (line: string) => void;
}

export interface Sandbox {
  /** `http://127.0.0.1:<port>`; the API is under `/client/v4`. */
  url: string;
  /** The token the sandbox made, when no credentials were configured. */
  token?: string;
  /** Stops accepting, lets requests under way finish within the grace period, then closes every connection left. */
  close(): Promise<void>;
}

export const API_PREFIX = "/client/v4";
/** Where the CLI keeps the sandbox's state (and the console its embedded one's) unless told. */
export const DEFAULT_DATA_DIR = ".filterc-sandbox";

export const DEFAULT_PORT = 8787;
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_MAX_INGEST_BYTES = 64 * 1024 * 1024;
const DEFAULT_MAX_INGEST_LINE_BYTES = 1024 * 1024;
/**
 * An ingest holds one line, one chunk of the body and a gzip stream per job: a few MB whatever the
 * body's size (bench/sandbox-ingest.mjs). Two at once keep the work bounded on a small machine.
 */
const DEFAULT_MAX_INGESTS_IN_FLIGHT = 2;
/** Each JSON request holds at most its body (1 MiB by default): 64 of them stay under 64 MiB. */
const DEFAULT_MAX_REQUESTS_IN_FLIGHT = 64;
/**
 * A gzip body of 128 KB sent can inflate to 2 million lines. A
 * line costs about 10 µs with two jobs (bench/sandbox-bomb.mjs), so an ingest at the limits costs
 * seconds, not minutes. A million is also the most records the service puts in one upload.
 */
export const DEFAULT_MAX_INGEST_LINES = 1_000_000;
export const DEFAULT_MAX_INGEST_INFLATED_BYTES = 1024 * 1024 * 1024;
/**
 * Slow clients: a connection that sends its headers or its body slower than this is answered 408
 * and closed, so it holds nothing for long; a request waiting for its body holds no request slot.
 * The connections themselves are capped (each may hold a body of `maxBodyBytes` while it arrives).
 */
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
export const DEFAULT_MIN_BODY_BYTES_PER_SECOND = 64 * 1024;
const DEFAULT_MAX_CONNECTIONS = 256;
/** Versions of a ruleset kept for reading: far more than the writes a client's conflict reads back at once. */
const DEFAULT_MAX_RULESET_VERSIONS = 100;
/**
 * What a zone may hold: 32 MiB is 32 rulesets of the largest body, or some 45,000 jobs. Everything
 * is kept in memory, and loaded at start-up; a write costs only what it changes (zone-files.ts).
 */
const DEFAULT_MAX_ZONE_BYTES = 32 * 1024 * 1024;
export const DEFAULT_SHUTDOWN_GRACE_MS = 10_000;
/** Far deeper than any body of the API needs (a ruleset rule is 4 levels), far from the stack's limits. */
const DEFAULT_MAX_JSON_DEPTH = 64;
/** The levels a zone file adds around a body: zone, rulesets, a ruleset, its rules. */
const STATE_DEPTH = 4;

type Handler = (context: RequestContext) => Promise<Reply>;

interface Route {
  segments: string[];
  methods: Partial<Record<string, Handler>>;
  ingest?: boolean;
}

/** Path parameters and the form Cloudflare gives them: anything else is an invalid identifier. */
const identifiers: Record<string, RegExp> = {
  zone: /^[0-9a-f]{32}$/,
  account: /^[0-9a-f]{32}$/,
  id: /^[0-9a-f]{32}$/,
  job: /^[0-9]{1,15}$/,
  version: /^[0-9]{1,15}$/,
  phase: /^[a-z0-9_]+$/,
  dataset: /^[a-z0-9_]+$/,
  datasetId: /^[A-Za-z0-9_-]{1,128}$/,
};

/** The routes of Logpush jobs and Log Explorer datasets, the same under a zone and under an account. */
function jobRoutes(scope: "zones" | "accounts"): Route[] {
  const owner = scope === "zones" ? ":zone" : ":account";
  const at = (...segments: string[]) => [scope, owner, ...segments];
  return [
    { segments: at("logpush", "jobs"), methods: { GET: listJobs, POST: createJob } },
    { segments: at("logpush", "jobs", ":job"), methods: { GET: getJob, PUT: updateJob, DELETE: deleteJob } },
    { segments: at("logpush", "ownership"), methods: { POST: createChallenge } },
    { segments: at("logpush", "ownership", "validate"), methods: { POST: validateChallenge } },
    { segments: at("logpush", "validate", "destination"), methods: { POST: validateDestination } },
    { segments: at("logpush", "validate", "destination", "exists"), methods: { POST: destinationExists } },
    { segments: at("logpush", "datasets", ":dataset", "fields"), methods: { GET: datasetFields } },
    { segments: at("logpush", "datasets", ":dataset", "jobs"), methods: { GET: listDatasetJobs } },
    {
      segments: at("logs", "explorer", "datasets"),
      methods: { GET: listExplorerDatasets, POST: createExplorerDataset },
    },
    {
      segments: at("logs", "explorer", "datasets", ":datasetId"),
      methods: { GET: getExplorerDataset, PUT: updateExplorerDataset, DELETE: deleteExplorerDataset },
    },
    { segments: at("sandbox", "ingest"), methods: { POST: ingest }, ingest: true },
  ];
}

const routes: Route[] = [
  {
    segments: ["zones", ":zone", "logpush", "edge", "jobs"],
    methods: {
      GET: (context) => context.instantLogs.list(context),
      POST: (context) => context.instantLogs.create(context),
    },
  },
  { segments: ["zones", ":zone", "rulesets"], methods: { GET: listRulesets, POST: createRuleset } },
  {
    segments: ["zones", ":zone", "rulesets", "phases", ":phase", "entrypoint"],
    methods: { GET: getEntrypoint, PUT: updateEntrypoint },
  },
  {
    segments: ["zones", ":zone", "rulesets", ":id"],
    methods: { GET: getRuleset, PUT: updateRuleset, DELETE: deleteRuleset },
  },
  {
    segments: ["zones", ":zone", "rulesets", ":id", "versions", ":version"],
    methods: { GET: getRulesetVersion },
  },
  ...jobRoutes("zones"),
  ...jobRoutes("accounts"),
];

/** The scope a route's parameters name, and the key of its state in the store. */
function scopeOf(params: Record<string, string>): { scope: ResolvedScope; stateKey: string } {
  const account = params["account"];
  if (account !== undefined)
    return { scope: { kind: "account", id: account }, stateKey: `account-${account}` };
  const zone = params["zone"]!;
  return { scope: { kind: "zone", id: zone }, stateKey: zone };
}

/** The route whose shape the path has (no two routes share a shape). */
function match(segments: string[]): { route: Route; params: Record<string, string> } | undefined {
  const route = routes.find(
    (candidate) =>
      candidate.segments.length === segments.length &&
      candidate.segments.every((part, i) => part.startsWith(":") || part === segments[i]),
  );
  if (!route) return undefined;
  const params: Record<string, string> = {};
  route.segments.forEach((part, i) => {
    if (part.startsWith(":")) params[part.slice(1)] = segments[i]!;
  });
  return { route, params };
}

const noRoute = () => new SandboxError(404, ErrorCode.noRoute, "No route for that URI");

/** What Node answers by itself (a request it cannot parse, headers too slow), in Cloudflare's envelope. */
function clientErrorAnswer(error: NodeJS.ErrnoException): {
  status: number;
  reason: string;
  code: number;
  message: string;
} {
  if (error.code === "HPE_HEADER_OVERFLOW")
    return {
      status: 431,
      reason: "Request Header Fields Too Large",
      code: ErrorCode.malformedRequest,
      message: "request headers are too large",
    };
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT")
    return {
      status: 408,
      reason: "Request Timeout",
      code: ErrorCode.requestTimeout,
      message: "request headers took too long to arrive",
    };
  return {
    status: 400,
    reason: "Bad Request",
    code: ErrorCode.malformedRequest,
    message: "malformed HTTP request",
  };
}

/** A request its client gave up on (its socket gone, or already let go): nothing to answer, and not the sandbox's fault. */
const isDisconnect = (request: IncomingMessage, error: unknown) =>
  !request.socket || request.socket.destroyed || (error as NodeJS.ErrnoException).code === "ECONNRESET";

/** How often a client that closed its side during an ingest is asked whether it is still there. */
const HALF_CLOSED_PROBE_MS = 250;

/**
 * A client that closes its side while its ingest is at work has either half-closed (it still reads,
 * and gets its answer) or gone. Writing tells them apart: an interim 102 Processing, which HTTP
 * clients skip, draws a reset from a client that has gone, and the connection closes (aborting
 * the ingest's work) instead of running on for minutes.
 */
function probeOnHalfClose(request: IncomingMessage, response: ServerResponse): void {
  const socket = request.socket;
  let probe: NodeJS.Timeout | undefined;
  const onEnd = () => {
    probe = setInterval(() => {
      if (!response.headersSent && socket.writable) response.writeProcessing();
    }, HALF_CLOSED_PROBE_MS);
  };
  socket.once("end", onEnd);
  response.once("close", () => {
    socket.off("end", onEnd);
    clearInterval(probe);
  });
}

/** Serves the sandbox on 127.0.0.1 until `close()`. */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const shutdownGraceMs = options.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
  // A longer timer fires at once: the grace would be none at all.
  if (!(Number.isInteger(shutdownGraceMs) && shutdownGraceMs >= 0 && shutdownGraceMs <= MAX_TIMEOUT_MS))
    throw new RangeError(
      `shutdownGraceMs must be a whole number from 0 to ${MAX_TIMEOUT_MS}, not ${String(shutdownGraceMs)}`,
    );
  const dataDir = resolve(options.dataDir);
  const maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const log = options.log ?? (() => undefined);
  const store = await Store.open(
    dataDir,
    maxJsonDepth + STATE_DEPTH,
    options.maxZoneBytes ?? DEFAULT_MAX_ZONE_BYTES,
    log,
  );
  try {
    return await serve(options, dataDir, store, shutdownGraceMs);
  } catch (error) {
    await store.close();
    throw error;
  }
}

/** Serves `store`'s data directory, and lets go of it once closed. */
async function serve(
  options: SandboxOptions,
  dataDir: string,
  store: Store,
  shutdownGraceMs: number,
): Promise<Sandbox> {
  const maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const log = options.log ?? (() => undefined);
  const { credentials, generatedToken } = resolveCredentials(options);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxIngestBytes = options.maxIngestBytes ?? DEFAULT_MAX_INGEST_BYTES;
  const maxIngestLineBytes = options.maxIngestLineBytes ?? DEFAULT_MAX_INGEST_LINE_BYTES;
  const maxIngestInflatedBytes = options.maxIngestInflatedBytes ?? DEFAULT_MAX_INGEST_INFLATED_BYTES;
  const maxIngestLines = options.maxIngestLines ?? DEFAULT_MAX_INGEST_LINES;
  const maxIngestsInFlight = options.maxIngestsInFlight ?? DEFAULT_MAX_INGESTS_IN_FLIGHT;
  const maxRequestsInFlight = options.maxRequestsInFlight ?? DEFAULT_MAX_REQUESTS_IN_FLIGHT;
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const pace: BodyPace = {
    timeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    minBytesPerSecond: options.minBodyBytesPerSecond ?? DEFAULT_MIN_BODY_BYTES_PER_SECOND,
  };
  const sampleSeed = options.sampleSeed ?? randomInt(2 ** 32);
  const rulesetVersions = new RulesetVersions(options.maxRulesetVersions ?? DEFAULT_MAX_RULESET_VERSIONS);
  const defaults = DEFAULT_INSTANT_LOGS_OPTIONS;
  const instantLogs = new InstantLogs(
    {
      maxSessions: options.maxInstantLogsSessions ?? defaults.maxSessions,
      maxBufferedBytes: options.maxInstantLogsBufferedBytes ?? defaults.maxBufferedBytes,
      maxSessionMs: options.instantLogsSessionMs ?? defaults.maxSessionMs,
      connectTimeoutMs: options.instantLogsConnectTimeoutMs ?? defaults.connectTimeoutMs,
    },
    sampleSeed,
  );
  let requestsInFlight = 0;
  let ingestsInFlight = 0;
  let connections = 0;
  /** Connections opened past `maxConnections`: their request is answered 503 and they are closed. */
  const overCap = new WeakSet<object>();
  /** Requests being handled, awaited by `close()`. */
  const handling = new Set<Promise<void>>();

  /** Runs `work` in a request slot; with none free it is answered 503. */
  async function inSlot(work: () => Promise<void>): Promise<void> {
    if (requestsInFlight >= maxRequestsInFlight)
      throw new SandboxError(
        503,
        ErrorCode.busy,
        `${maxRequestsInFlight} requests are under way, the most the sandbox serves at once; retry later`,
      );
    requestsInFlight++;
    try {
      await work();
    } finally {
      requestsInFlight--;
    }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (overCap.has(request.socket))
      throw new SandboxError(
        503,
        ErrorCode.busy,
        `${maxConnections} connections are open, the most the sandbox holds; retry later`,
      );
    const url = requestUrl(request);
    if (!url) throw new SandboxError(400, ErrorCode.malformedRequest, "the request's path is not a URL path");
    if (url.pathname !== API_PREFIX && !url.pathname.startsWith(`${API_PREFIX}/`)) throw noRoute();
    authenticate(request.headers, credentials);
    const segments = url.pathname.slice(API_PREFIX.length).split("/").filter(Boolean);
    const found = match(segments);
    if (!found) throw noRoute();
    const handler = found.route.methods[request.method ?? ""];
    if (!handler)
      throw new SandboxError(
        405,
        ErrorCode.methodNotAllowed,
        `Method ${request.method} not allowed for this route`,
      );
    for (const [name, value] of Object.entries(found.params))
      if (!identifiers[name]!.test(value))
        throw new SandboxError(
          400,
          ErrorCode.invalidIdentifier,
          `Could not route to ${url.pathname.slice(API_PREFIX.length)}, perhaps your object identifier is invalid?`,
        );
    const context = {
      store,
      dataDir,
      ...scopeOf(found.params),
      sampleSeed,
      customFieldsLimit: options.customFieldsLimit ?? DEFAULT_CUSTOM_FIELDS_LIMIT,
      rulesetVersions,
      params: found.params,
      query: url.searchParams,
      maxJsonDepth,
      log,
      instantLogs,
    };
    if (!found.route.ingest) {
      // Read before taking a slot: a client slow to send its body holds only its own connection.
      const body = parseJsonObject(await readBody(request, maxBodyBytes, pace), maxJsonDepth);
      return inSlot(async () => reply(response, await handler({ ...context, body, upload: noUpload() })));
    }
    if (ingestsInFlight >= maxIngestsInFlight)
      throw new SandboxError(
        429,
        ErrorCode.busy,
        `${maxIngestsInFlight} ingests are under way, the most the sandbox runs at once; retry later`,
      );
    // An ingest works as its body streams in: it holds its slots from the start, and stops when its
    // client goes away or the sandbox closes its connection.
    ingestsInFlight++;
    try {
      await inSlot(async () => {
        const gone = new AbortController();
        response.once("close", () => {
          if (!response.writableFinished) gone.abort();
        });
        probeOnHalfClose(request, response);
        const upload: Upload = {
          chunks: limitedBody(request, maxIngestBytes, pace),
          gzip: /^\s*gzip\s*$/i.test(request.headers["content-encoding"] ?? ""),
          maxLineBytes: maxIngestLineBytes,
          maxInflatedBytes: maxIngestInflatedBytes,
          maxLines: maxIngestLines,
          signal: gone.signal,
        };
        reply(response, await handler({ ...context, body: {}, upload }));
      });
    } finally {
      ingestsInFlight--;
    }
  }

  /**
   * Answers a request that failed. Never throws: whatever goes wrong while answering is logged and
   * the response dropped, so no error of a request escapes to end the process.
   */
  function fail(request: IncomingMessage, response: ServerResponse, error: unknown): void {
    try {
      if (response.headersSent) return;
      if (error instanceof SandboxError) {
        // A body refused before or part-way through is not read to its end, and a connection over the
        // cap is let go: close the connection after answering.
        if (!request.complete || overCap.has(request.socket)) response.setHeader("connection", "close");
        if (error.status === 429 || error.status === 503) response.setHeader("retry-after", "1");
        sendErrors(response, error.status, [error.entry()]);
        return;
      }
      if (isDisconnect(request, error)) return;
      const notWritten = stateNotWritten(error);
      if (notWritten) {
        log(`filterc sandbox: answered 507: ${notWritten.message}`);
        sendErrors(response, notWritten.status, [notWritten.entry()]);
        return;
      }
      log(`filterc sandbox: ${(error as Error).stack ?? String(error)}`);
      sendErrors(response, 500, [{ code: ErrorCode.internal, message: "Internal error" }]);
    } catch (answering) {
      log(
        `filterc sandbox: could not answer a failed request: ${(answering as Error).stack ?? String(answering)}`,
      );
      response.destroy();
    }
  }

  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      // The body has its own pace (per request kind); Node's whole-request limit would cut long ingests.
      requestTimeout: 0,
      // How often Node looks for headers past their timeout (its default, 30 s, let them run 30 s over).
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeoutMs / 4))),
    },
    (request, response) => {
      const handled = handle(request, response)
        .catch((error: unknown) => fail(request, response, error))
        .finally(() => handling.delete(handled));
      handling.add(handled);
    },
  );
  server.on("connection", (socket) => {
    connections++;
    if (connections > maxConnections) overCap.add(socket);
    socket.once("close", () => {
      connections--;
    });
  });
  // A client that half-closes its side after sending still gets its answer (Node ends the socket otherwise).
  (server as unknown as { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, reason, code, message } = clientErrorAnswer(error);
    const body = JSON.stringify({
      result: null,
      success: false,
      errors: [{ code, message }],
      messages: [],
    });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  // An Instant Logs session's WebSocket: the only upgrade the sandbox takes.
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (overCap.has(socket)) {
      socket.destroy();
      return;
    }
    instantLogs.upgrade(request, socket, head).catch((error: unknown) => {
      log(`filterc sandbox: an Instant Logs connection failed: ${(error as Error).stack ?? String(error)}`);
      socket.destroy();
    });
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? DEFAULT_PORT, "127.0.0.1", () => {
      server.off("error", reject);
      resolveListen();
    });
  });
  const { port } = server.address() as AddressInfo;
  instantLogs.origin = `http://127.0.0.1:${port}`;
  const sandbox: Sandbox = {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      instantLogs.close();
      await closeServer(server, shutdownGraceMs);
      // The connections are closed: what is left of a request stops at its next step.
      await Promise.allSettled([...handling]);
      await store.close();
    },
  };
  if (generatedToken !== undefined) sandbox.token = generatedToken;
  return sandbox;
}

/**
 * Stops accepting connections and closes the idle ones; requests under way get `graceMs` to
 * finish, then every connection left (a stalled client) is closed. Resolves once all are closed.
 */
function closeServer(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolveClose) => {
    const deadline = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearTimeout(deadline);
      resolveClose();
    });
    server.closeIdleConnections();
  });
}

function reply(response: ServerResponse, answer: Reply): void {
  if (answer.status === 204) response.writeHead(204).end();
  else sendResult(response, answer.status, answer.result ?? null, answer.resultInfo);
}
