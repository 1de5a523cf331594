import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { authenticate, type Credentials, resolveCredentials } from "./auth.js";
import type { Reply, RequestContext } from "./context.js";
import { ApiError, ErrorCode } from "./errors.js";
import { parseJsonObject, readBody, sendErrors, sendResult } from "./http.js";
import { createJob, datasetFields, deleteJob, getJob, listDatasetJobs, listJobs, updateJob } from "./jobs.js";
import { createChallenge, validateChallenge } from "./ownership.js";
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
  /** Largest NDJSON body the ingest accepts (default 64 MiB). */
  maxIngestBytes?: number;
  /** Where failures that are the sandbox's own fault are reported (default: nowhere). */
  log?: (line: string) => void;
}

export interface Sandbox {
  /** `http://127.0.0.1:<port>`; the API is under `/client/v4`. */
  url: string;
  /** The token the sandbox made, when no credentials were configured. */
  token?: string;
  close(): Promise<void>;
}

export const API_PREFIX = "/client/v4";
export const DEFAULT_PORT = 8787;
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const DEFAULT_MAX_INGEST_BYTES = 64 * 1024 * 1024;
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
  id: /^[0-9a-f]{32}$/,
  job: /^[0-9]{1,15}$/,
  phase: /^[a-z0-9_]+$/,
  dataset: /^[a-z0-9_]+$/,
};

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
  { segments: ["zones", ":zone", "logpush", "jobs"], methods: { GET: listJobs, POST: createJob } },
  {
    segments: ["zones", ":zone", "logpush", "jobs", ":job"],
    methods: { GET: getJob, PUT: updateJob, DELETE: deleteJob },
  },
  { segments: ["zones", ":zone", "logpush", "ownership"], methods: { POST: createChallenge } },
  { segments: ["zones", ":zone", "logpush", "ownership", "validate"], methods: { POST: validateChallenge } },
  {
    segments: ["zones", ":zone", "logpush", "datasets", ":dataset", "fields"],
    methods: { GET: datasetFields },
  },
  {
    segments: ["zones", ":zone", "logpush", "datasets", ":dataset", "jobs"],
    methods: { GET: listDatasetJobs },
  },
  { segments: ["zones", ":zone", "sandbox", "ingest"], methods: { POST: ingest }, ingest: true },
];

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

/** Serves the sandbox on 127.0.0.1 until `close()`. */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const dataDir = resolve(options.dataDir);
  const maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  const store = await Store.open(dataDir, maxJsonDepth + STATE_DEPTH);
  const { credentials, generatedToken } = resolveCredentials(options);
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxIngestBytes = options.maxIngestBytes ?? DEFAULT_MAX_INGEST_BYTES;

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
    const rawBody = await readBody(request, found.route.ingest ? maxIngestBytes : maxBodyBytes);
    const reply = await handler({
      store,
      dataDir,
      zoneId: found.params["zone"]!,
      params: found.params,
      query: url.searchParams,
      maxJsonDepth,
      body: found.route.ingest ? {} : parseJsonObject(rawBody, maxJsonDepth),
      rawBody,
    });
    if (reply.status === 204) {
      response.writeHead(204).end();
      return;
    }
    sendResult(response, reply.status, reply.result ?? null, reply.resultInfo);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (response.headersSent) return;
      if (error instanceof ApiError) {
        // A body refused part-way is not read to its end: close the connection after answering.
        if (error.status === 413) response.setHeader("connection", "close");
        sendErrors(response, error.status, [error.entry()]);
        return;
      }
      options.log?.(`filterc sandbox: ${(error as Error).stack ?? String(error)}`);
      sendErrors(response, 500, [{ code: ErrorCode.internal, message: "Internal error" }]);
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
  const sandbox: Sandbox = {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolveClose) => server.close(() => resolveClose())),
  };
  if (generatedToken !== undefined) sandbox.token = generatedToken;
  return sandbox;
}
