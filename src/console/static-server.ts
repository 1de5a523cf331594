import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, sep } from "node:path";

const contentTypes: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".txt": "text/plain; charset=utf-8",
};

export interface StaticServer {
  /** Where the folder is served, e.g. `http://127.0.0.1:41234/`. */
  url: string;
  close(): Promise<void>;
}

/** Answers a request for a file of a served folder (GET and HEAD). */
export type FileHandler = (request: IncomingMessage, response: ServerResponse) => Promise<void>;

export function reply(
  response: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "text/plain; charset=utf-8", ...headers });
  response.end(`${text}\n`);
}

/**
 * The file a URL path names inside `root`, or undefined when it names nothing there: `..`
 * segments, encoded separators and symbolic links cannot leave the folder.
 */
async function fileFor(root: string, urlPath: string): Promise<string | undefined> {
  let path: string;
  try {
    path = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (path.includes("\0") || path.includes("\\")) return undefined;
  const segments = path.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) return undefined;
  if (path.endsWith("/")) segments.push("index.html");
  try {
    const real = await realpath(join(root, ...segments));
    if (real !== root && !real.startsWith(root + sep)) return undefined;
    return (await stat(real)).isFile() ? real : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The handler of a folder's files: each with its content type and `headers`; other methods get 405,
 * a path that names no file of the folder 404.
 */
export async function staticFiles(
  folder: string,
  headers: Record<string, string> = {},
): Promise<FileHandler> {
  const root = await realpath(folder);
  return async (request, response) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      reply(response, 405, "method not allowed", { allow: "GET, HEAD" });
      return;
    }
    const urlPath = (request.url ?? "/").split(/[?#]/, 1)[0]!;
    const file = urlPath.startsWith("/") ? await fileFor(root, urlPath) : undefined;
    if (!file) {
      reply(response, 404, "not found");
      return;
    }
    response.writeHead(200, {
      "content-type": contentTypes[extname(file).toLowerCase()] ?? "application/octet-stream",
      "x-content-type-options": "nosniff",
      "cache-control": "no-cache",
      ...headers,
    });
    if (request.method === "HEAD") {
      response.end();
      return;
    }
    createReadStream(file)
      .on("error", () => response.destroy())
      .pipe(response);
  };
}

/** Starts `server` on 127.0.0.1 (port 0 picks a free port); resolves with the port it listens on. */
export async function listenOnLoopback(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** Stops accepting connections and closes the open ones. */
export function closeNow(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Serves a folder of static files on 127.0.0.1 (port 0 picks a free port). */
export async function serveStatic(folder: string, port: number): Promise<StaticServer> {
  const files = await staticFiles(folder);
  const server = createServer((request, response) => {
    files(request, response).catch(() => {
      if (!response.headersSent) reply(response, 500, "internal error");
      else response.destroy();
    });
  });
  const listening = await listenOnLoopback(server, port);
  return { url: `http://127.0.0.1:${listening}/`, close: () => closeNow(server) };
}
