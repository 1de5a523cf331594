import { randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { same } from "../sandbox/auth.js";
import { TOKEN_PROTOCOL_PREFIX } from "./live-tail-protocol.js";

/** The header the page sends its session token in (a header, so no other site's page can send it). */
export const TOKEN_HEADER = "x-filterc-console-token";

/** A new session token: 24 random bytes, base64url. */
export function newSessionToken(): string {
  return randomBytes(24).toString("base64url");
}

const one = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The names a browser on this machine reaches the console by. */
function consoleHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/**
 * Why a request for the page is refused, or undefined: its Host must name the console itself, so
 * that a site whose name was made to point at 127.0.0.1 (DNS rebinding) gets nothing.
 */
export function pageRefusal(headers: IncomingHttpHeaders, port: number): string | undefined {
  const host = one(headers, "host");
  if (host !== undefined && consoleHosts(port).includes(host.toLowerCase())) return undefined;
  return `refused: this console answers at ${consoleHosts(port).join(" or ")}, not at ${host === undefined ? "a request without a Host" : JSON.stringify(host)}`;
}

/**
 * Why a call of the console's API is refused, or undefined: the Host as for the page; an Origin, when
 * the browser sends one, must be the console's own, and the browser must not mark the call
 * cross-site; and the call carries the session token.
 */
export function apiRefusal(headers: IncomingHttpHeaders, port: number, token: string): string | undefined {
  const page = pageRefusal(headers, port);
  if (page) return page;
  const origin = one(headers, "origin");
  if (origin !== undefined && origin !== `http://${one(headers, "host")!.toLowerCase()}`)
    return `refused: a request from ${JSON.stringify(origin)}; the console takes calls from its own page only`;
  const site = one(headers, "sec-fetch-site");
  if (site !== undefined && site !== "same-origin")
    return `refused: a ${JSON.stringify(site)} request; the console takes calls from its own page only`;
  const given = one(headers, TOKEN_HEADER);
  if (given === undefined || given === "")
    return "refused: the call lacks the console's session token; open the address filterc console printed (it ends in #token=…)";
  if (!same(given, token))
    return "refused: the session token is not this console's; open the address filterc console printed";
  return undefined;
}

/**
 * Why the page's WebSocket (a live tail's records) is refused, or undefined: as a call is, and
 * more strictly, as any site's page may open a WebSocket to any address (WebSockets know no CORS):
 * the Origin, which a browser always sends with one, must be there and be the console's own. The
 * session token comes in the subprotocols (`TOKEN_PROTOCOL_PREFIX` + token), the one header a
 * page's WebSocket can set.
 */
export function socketRefusal(headers: IncomingHttpHeaders, port: number, token: string): string | undefined {
  if (one(headers, "origin") === undefined && pageRefusal(headers, port) === undefined)
    return "refused: a WebSocket without an Origin; the console takes them from its own page only";
  const offered = (one(headers, "sec-websocket-protocol") ?? "").split(",").map((name) => name.trim());
  const given = offered.find((name) => name.startsWith(TOKEN_PROTOCOL_PREFIX));
  return apiRefusal(
    { ...headers, [TOKEN_HEADER]: given?.slice(TOKEN_PROTOCOL_PREFIX.length) ?? "" },
    port,
    token,
  );
}
