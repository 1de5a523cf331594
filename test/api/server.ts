import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

/** A request as the test server received it. */
export interface Received {
  method: string;
  /** The path and query under the base URL's `/client/v4`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A scripted reply: an envelope (or raw text), a status, headers, and a delay before answering. */
export interface Reply {
  status?: number;
  json?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  delayMs?: number;
  /** The body gzip-compressed (`Content-Encoding: gzip` unless the headers say otherwise). */
  gzip?: boolean;
  /** After the body, blanks without end, as fast as the client reads them. */
  endless?: boolean;
}

/** Writes blanks to `response` until the client goes away, keeping up with how fast it reads. */
function writeEndlessly(response: ServerResponse): void {
  const chunk = Buffer.alloc(64 * 1024, " ");
  const write = () => {
    while (!response.destroyed && response.write(chunk));
  };
  response.on("drain", write);
  write();
}

export const success = (result: unknown, extra: Record<string, unknown> = {}): Reply => ({
  json: { success: true, errors: [], messages: [], result, ...extra },
});

export const failure = (
  status: number,
  code: number,
  message: string,
  headers?: Record<string, string>,
): Reply => ({
  status,
  json: { success: false, errors: [{ code, message }], messages: [], result: null },
  ...(headers ? { headers } : {}),
});

/**
 * A scripted Cloudflare API on 127.0.0.1 (ephemeral port): each route has a queue of replies used in
 * order (the last one repeats); an unscripted route answers 404 with code 7003 like the real API.
 */
export class TestApi {
  readonly received: Received[] = [];
  private readonly routes = new Map<string, Reply[]>();
  private readonly server: Server;
  baseUrl = "";

  constructor() {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const path = (request.url ?? "").replace(/^\/client\/v4/, "");
        const method = request.method ?? "GET";
        this.received.push({
          method,
          path,
          headers: request.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        });
        const queue = this.routes.get(`${method} ${path}`);
        const reply =
          queue && queue.length > 1
            ? queue.shift()!
            : (queue?.[0] ?? failure(404, 7003, "No route for the URI"));
        const send = () => {
          if (response.destroyed) return;
          const text = reply.raw ?? JSON.stringify(reply.json);
          response.writeHead(reply.status ?? 200, {
            "content-type": "application/json",
            ...(reply.gzip ? { "content-encoding": "gzip" } : {}),
            ...reply.headers,
          });
          if (reply.endless) {
            response.write(text);
            writeEndlessly(response);
          } else response.end(reply.gzip ? gzipSync(text) : text);
        };
        if (reply.delayMs) setTimeout(send, reply.delayMs);
        else send();
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    const { port } = this.server.address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${port}/client/v4`;
    return this;
  }

  /** Scripts the replies of `METHOD /path` (path under /client/v4, with its query). */
  on(route: string, ...replies: Reply[]): this {
    this.routes.set(route, replies);
    return this;
  }

  reset(): void {
    this.received.length = 0;
    this.routes.clear();
  }

  /** `METHOD /path` of every request received, in order. */
  calls(): string[] {
    return this.received.map((r) => `${r.method} ${r.path}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
