import { randomInt } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { MAX_TIMEOUT_MS } from "../api/index.js";
import { authenticate, type Credentials, resolveCredentials } from "./auth.js";
import { noUpload, type Reply, type RequestContext, type Scope, type Upload } from "./context.js";
import { ApiError, ErrorCode } from "./errors.js";
import { limitedBody, parseJsonObject, readBody, sendErrors, sendResult } from "./http.js";
import { createJob, datasetFields, deleteJob, getJob, listDatasetJobs, listJobs, updateJob } from "./jobs.js";
import { createChallenge, destinationExists, validateChallenge, validateDestination } from "./ownership.js";
import { ingest } from "./push.js";
import {
  createRuleset,
  deleteRuleset,
  getEntrypoint,
  getRuleset,
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
  /** Requests served at once; one more is answered 503 (default 64). */
  maxRequestsInFlight?: number;
  /** On close, how long requests under way may take to finish before their connections are closed (default 10 s). */
  shutdownGraceMs?: number;
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
  phase: /^[a-z0-9_]+$/,
  dataset: /^[a-z0-9_]+$/,
};

/** The routes of Logpush jobs, the same under a zone and under an account. */
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
    { segments: at("sandbox", "ingest"), methods: { POST: ingest }, ingest: true },
  ];
}

const routes: Route[] = [
  { segments: ["zones", ":zone", "rulesets"], methods: { GET: listRulesets, POST: createRuleset } },
  {
    segments: ["zones", ":zone", "rulesets", "phases", ":phase", "entrypoint"],
    methods: { GET: getEntrypoint, PUT: updateEntrypoint },
  },
  {
    segments: ["zones", ":zone", "rulesets", ":id"],
    methods: { GET: getRuleset, PUT: updateRuleset, DELETE: deleteRuleset },
  },
  ...jobRoutes("zones"),
  ...jobRoutes("accounts"),
];

/** The scope a route's parameters name, and the key of its state in the store. */
function scopeOf(params: Record<string, string>): { scope: Scope; stateKey: string } {
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

const noRoute = () => new ApiError(404, ErrorCode.noRoute, "No route for that URI");

/** What Node answers by itself (a request it cannot parse), in Cloudflare's envelope. */
function clientErrorAnswer(error: NodeJS.ErrnoException): {
  status: number;
  reason: string;
  message: string;
} {
  if (error.code === "HPE_HEADER_OVERFLOW")
    return {
      status: 431,
      reason: "Request Header Fields Too Large",
      message: "request headers are too large",
    };
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT")
    return { status: 408, reason: "Request Timeout", message: "the request took too long to arrive" };
  return { status: 400, reason: "Bad Request", message: "malformed HTTP request" };
}

/** A request its client gave up on (its socket gone, or already let go): nothing to answer, and not the sandbox's fault. */
const isDisconnect = (request: IncomingMessage, error: unknown) =>
  !request.socket || request.socket.destroyed || (error as NodeJS.ErrnoException).code === "ECONNRESET";

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
  const store = await Store.open(dataDir, maxJsonDepth + STATE_DEPTH, options.log ?? (() => undefined));
  const { credentials, generatedToken } = resolveCredentials(options);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxIngestBytes = options.maxIngestBytes ?? DEFAULT_MAX_INGEST_BYTES;
  const maxIngestLineBytes = options.maxIngestLineBytes ?? DEFAULT_MAX_INGEST_LINE_BYTES;
  const maxIngestsInFlight = options.maxIngestsInFlight ?? DEFAULT_MAX_INGESTS_IN_FLIGHT;
  const maxRequestsInFlight = options.maxRequestsInFlight ?? DEFAULT_MAX_REQUESTS_IN_FLIGHT;
  const sampleSeed = options.sampleSeed ?? randomInt(2 ** 32);
  const log = options.log ?? (() => undefined);
  let requestsInFlight = 0;
  let ingestsInFlight = 0;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== API_PREFIX && !url.pathname.startsWith(`${API_PREFIX}/`)) throw noRoute();
    authenticate(request.headers, credentials);
    const segments = url.pathname.slice(API_PREFIX.length).split("/").filter(Boolean);
    const found = match(segments);
    if (!found) throw noRoute();
    const handler = found.route.methods[request.method ?? ""];
    if (!handler)
      throw new ApiError(
        405,
        ErrorCode.methodNotAllowed,
        `Method ${request.method} not allowed for this route`,
      );
    for (const [name, value] of Object.entries(found.params))
      if (!identifiers[name]!.test(value))
        throw new ApiError(
          400,
          ErrorCode.invalidIdentifier,
          `Could not route to ${url.pathname.slice(API_PREFIX.length)}, perhaps your object identifier is invalid?`,
        );
    const context = {
      store,
      dataDir,
      ...scopeOf(found.params),
      sampleSeed,
      params: found.params,
      query: url.searchParams,
      maxJsonDepth,
      log,
    };
    if (!found.route.ingest) {
      const body = parseJsonObject(await readBody(request, maxBodyBytes), maxJsonDepth);
      return reply(response, await handler({ ...context, body, upload: noUpload() }));
    }
    if (ingestsInFlight >= maxIngestsInFlight)
      throw new ApiError(
        429,
        ErrorCode.busy,
        `${maxIngestsInFlight} ingests are under way, the most the sandbox runs at once; retry later`,
      );
    ingestsInFlight++;
    try {
      const upload: Upload = {
        chunks: limitedBody(request, maxIngestBytes),
        gzip: /^\s*gzip\s*$/i.test(request.headers["content-encoding"] ?? ""),
        maxLineBytes: maxIngestLineBytes,
      };
      reply(response, await handler({ ...context, body: {}, upload }));
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
      if (error instanceof ApiError) {
        // A body refused before or part-way through is not read to its end: close the connection after answering.
        if (!request.complete) response.setHeader("connection", "close");
        if (error.status === 429 || error.status === 503) response.setHeader("retry-after", "1");
        sendErrors(response, error.status, [error.entry()]);
        return;
      }
      if (isDisconnect(request, error)) return;
      log(`filterc sandbox: ${(error as Error).stack ?? String(error)}`);
      sendErrors(response, 500, [{ code: ErrorCode.internal, message: "Internal error" }]);
    } catch (answering) {
      log(
        `filterc sandbox: could not answer a failed request: ${(answering as Error).stack ?? String(answering)}`,
      );
      response.destroy();
    }
  }

  const server = createServer((request, response) => {
    if (requestsInFlight >= maxRequestsInFlight) {
      const busy = new ApiError(
        503,
        ErrorCode.busy,
        `${maxRequestsInFlight} requests are under way, the most the sandbox serves at once; retry later`,
      );
      fail(request, response, busy);
      return;
    }
    requestsInFlight++;
    handle(request, response)
      .catch((error: unknown) => fail(request, response, error))
      .finally(() => {
        requestsInFlight--;
      });
  });
  // A client that half-closes its side after sending still gets its answer (Node ends the socket otherwise).
  (server as unknown as { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on("clientError", (error: NodeJS.ErrnoException, socket) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, reason, message } = clientErrorAnswer(error);
    const body = JSON.stringify({
      result: null,
      success: false,
      errors: [{ code: ErrorCode.malformedRequest, message }],
      messages: [],
    });
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? DEFAULT_PORT, "127.0.0.1", () => {
      server.off("error", reject);
      resolveListen();
    });
  });
  const { port } = server.address() as AddressInfo;
  const sandbox: Sandbox = {
    url: `http://127.0.0.1:${port}`,
    close: () => closeServer(server, shutdownGraceMs),
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
