import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { ApiError, ClientConfigError, maskSecrets, ValidationError } from "../api/index.js";
import { SandboxError } from "../sandbox/errors.js";
import { type BodyPace, readBody, requestUrl } from "../sandbox/http.js";
import { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MIN_BODY_BYTES_PER_SECOND } from "../sandbox/index.js";
import { BadCall, type Call, type ConsoleContext, calls, type Handler } from "./calls.js";
import { explorerCalls } from "./explorer-calls.js";
import { apiRefusal, newSessionToken, pageRefusal, socketRefusal } from "./guard.js";
import { DEFAULT_LIVE_TAIL_LIMITS, type LiveTailLimits, LiveTails } from "./live-tail.js";
import { closeNow, listenOnLoopback, reply, staticFiles } from "./static-server.js";

export interface ConsoleOptions extends ConsoleContext {
  /** The built page (`dist/console`). */
  pageFolder: string;
  /** 0 picks a free port (the default). */
  port?: number;
  /** Credentials, masked in every answer whatever the API echoed. */
  secrets?: readonly string[];
  /** The session token the page must send (default: a new random one). */
  token?: string;
  /** Largest JSON body accepted (default MAX_CALL_BYTES). */
  maxBodyBytes?: number;
  /** How long a call's body may keep the server waiting, plus a second a DEFAULT_MIN_BODY_BYTES_PER_SECOND (default DEFAULT_BODY_TIMEOUT_MS). */
  bodyTimeoutMs?: number;
  /** The bounds of live tails (Instant Logs): each defaults to DEFAULT_LIVE_TAIL_LIMITS' own. */
  liveTails?: Partial<LiveTailLimits>;
  /** Where failures that are the console's own fault are reported (default: nowhere). */
  log?: (line: string) => void;
}

export interface ConsoleServer {
  /** The page's address with the session token: `http://127.0.0.1:PORT/#token=…`. */
  url: string;
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  token: string;
  close(): Promise<void>;
}

/** The largest body of a call: a job's settings with a filter of the longest source the compiler reads. */
const MAX_CALL_BYTES = 1024 * 1024;

/**
 * The page's own headers: nothing but its own scripts and calls, never inside another site's frame,
 * no address leaked to another site.
 */
const PAGE_HEADERS = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

function sendJson(response: ServerResponse, status: number, body: unknown, secrets: readonly string[]): void {
  const text = maskSecrets(JSON.stringify(body), secrets);
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  });
  response.end(text);
}

/**
 * What a call that reached the API's client answers when the client throws: refused before
 * sending (every problem, the filter's diagnostics), the API's failure, or a client that cannot
 * send. These are answers for the page to show in place, with status 200 (see docs/console.md).
 */
function failure(error: unknown): Record<string, unknown> | undefined {
  if (error instanceof ValidationError)
    return {
      kind: "refused",
      operation: error.operation,
      problems: error.problems,
      diagnostics: error.diagnostics,
      filterSource: error.filterSource ?? null,
    };
  if (error instanceof ApiError)
    return {
      kind: "api",
      operation: error.operation,
      failure: error.failure,
      status: error.status,
      errors: error.errors,
      message: error.message,
    };
  if (error instanceof ClientConfigError) return { kind: "config", message: error.message };
  return undefined;
}

/**
 * The body of a call as JSON, read as the sandbox reads one: refused past `limit` bytes (413) and
 * when the client sends it slower than `pace` (408).
 */
async function readJson(request: IncomingMessage, limit: number, pace: BodyPace): Promise<unknown> {
  if (request.method === "GET" || request.method === "DELETE") return undefined;
  let body: Buffer;
  try {
    body = await readBody(request, limit, pace);
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    throw new BadCall(
      error.status === 408
        ? `the body arrived too slowly: the console waits ${pace.timeoutMs / 1000} s for a body, and one more second for every ${pace.minBytesPerSecond} bytes`
        : `the body is larger than ${limit} bytes`,
      error.status,
    );
  }
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    throw new BadCall("the body is not JSON");
  }
}

/** The ID a path holds, decoded; `parent`, the path of what it names (`/api/jobs`: a job ID). */
function pathId(encoded: string, parent: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    const noun = parent.slice(parent.lastIndexOf("/") + 1).replace(/s$/, "");
    throw new BadCall(`the ${noun} ID in the path is not percent-encoded UTF-8`);
  }
}

/** The call that answers a method and path, with the ID a path of a call's `…/:id` holds. */
function findCall(
  table: ReadonlyArray<{ method: string; path: string; handle: Handler }>,
  method: string,
  path: string,
) {
  const [, parent, id] = /^(.*)\/([^/]+)$/.exec(path) ?? [];
  const withId = table.some((call) => call.path === `${parent}/:id`);
  const pattern = withId ? `${parent}/:id` : path;
  const onPath = table.filter((call) => call.path === pattern);
  return {
    found: onPath.find((call) => call.method === method),
    onPath,
    id: withId ? { encoded: id!, parent: parent! } : undefined,
  };
}

/**
 * Serves the console on 127.0.0.1: the page, and the JSON API the page calls (`/api/…`), which
 * performs every call with the API client and its credentials, held here. Requests for another
 * host, calls from another origin and calls without the session token are refused with 403.
 */
export async function startConsole(options: ConsoleOptions): Promise<ConsoleServer> {
  const token = options.token ?? newSessionToken();
  const secrets = [token, ...(options.secrets ?? [])];
  const maxBodyBytes = options.maxBodyBytes ?? MAX_CALL_BYTES;
  const pace: BodyPace = {
    timeoutMs: options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS,
    minBytesPerSecond: DEFAULT_MIN_BODY_BYTES_PER_SECOND,
  };
  const files = await staticFiles(options.pageFolder, PAGE_HEADERS);
  const context: ConsoleContext = {
    client: options.client,
    api: options.api,
    zoneId: options.zoneId,
    accountId: options.accountId,
    challengeFolder: options.challengeFolder,
    diagnostics: options.diagnostics,
  };
  const tails = new LiveTails({ ...DEFAULT_LIVE_TAIL_LIMITS, ...options.liveTails }, secrets);
  const table = [
    ...calls,
    ...explorerCalls,
    { method: "POST", path: "/api/instant-logs", handle: tails.start },
  ];
  let port = 0;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = requestUrl(request);
    if (!url) return reply(response, 400, "bad request: the path does not read as a URL's path");
    if (url.pathname !== "/api" && !url.pathname.startsWith("/api/")) {
      const refused = pageRefusal(request.headers, port);
      if (refused) reply(response, 403, refused);
      else await files(request, response);
      return;
    }
    const refused = apiRefusal(request.headers, port, token);
    if (refused)
      return sendJson(response, 403, { ok: false, error: { kind: "denied", message: refused } }, []);
    const { found, onPath, id } = findCall(table, request.method ?? "", url.pathname);
    if (!found) {
      const status = onPath.length > 0 ? 405 : 404;
      const message = status === 405 ? `${request.method} is not a call of ${url.pathname}` : "no such call";
      return sendJson(response, status, { ok: false, error: { kind: "request", message } }, secrets);
    }
    let answer: Record<string, unknown>;
    try {
      const call: Call = { query: url.searchParams, body: await readJson(request, maxBodyBytes, pace) };
      if (id !== undefined) call.id = pathId(id.encoded, id.parent);
      answer = { ok: true, ...(await found.handle(context, call)) };
    } catch (error) {
      if (error instanceof BadCall) {
        // A body refused before its end leaves bytes that would read as the next request.
        if (error.status === 408 || error.status === 413) response.setHeader("connection", "close");
        return sendJson(
          response,
          error.status,
          { ok: false, error: { kind: "request", message: error.message } },
          secrets,
        );
      }
      const failed = failure(error);
      if (!failed) throw error;
      answer = { ok: false, error: failed };
    }
    sendJson(response, 200, answer, secrets);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (request.socket.destroyed) return;
      options.log?.(`filterc console: ${(error as Error).stack ?? String(error)}`);
      if (!response.headersSent)
        sendJson(response, 500, { ok: false, error: { kind: "internal", message: "internal error" } }, []);
      else response.destroy();
    });
  });
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    tails
      .upgrade(request, socket, head, (headers) => socketRefusal(headers, port, token))
      .catch((error) => {
        options.log?.(`filterc console: ${(error as Error).stack ?? String(error)}`);
        socket.destroy();
      });
  });
  port = await listenOnLoopback(server, options.port ?? 0);
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/#token=${token}`,
    origin,
    token,
    close: () => {
      tails.close();
      return closeNow(server);
    },
  };
}
