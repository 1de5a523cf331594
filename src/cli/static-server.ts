import { createReadStream } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
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

function reply(response: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) {
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

async function handle(root: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
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
  });
  if (request.method === "HEAD") {
    response.end();
    return;
  }
  createReadStream(file)
    .on("error", () => response.destroy())
    .pipe(response);
}

/** Serves a folder of static files on 127.0.0.1 (port 0 picks a free port). */
export async function serveStatic(folder: string, port: number): Promise<StaticServer> {
  const root = await realpath(folder);
  const server = createServer((request, response) => {
    handle(root, request, response).catch(() => {
      if (!response.headersSent) reply(response, 500, "internal error");
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
