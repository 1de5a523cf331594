import { LIVE_TAIL_PROTOCOL, TOKEN_PROTOCOL_PREFIX } from "../src/console/live-tail-protocol.js";
import type { Diagnostic, Problem } from "../src/index.js";

/** Why a call did not do what it was asked: what the console's server answered, or that it did not. */
export type Failure =
  | {
      kind: "refused";
      operation: string;
      problems: Problem[];
      diagnostics: Diagnostic[];
      filterSource: string | null;
    }
  | { kind: "api"; operation: string; status: number | null; message: string }
  | { kind: "config" | "denied" | "request" | "internal" | "unreachable"; message: string };

type Outcome<T> = ({ ok: true } & T) | { ok: false; error: Failure };

const TOKEN_HEADER = "x-filterc-console-token";
const TOKEN_KEY = "filterc-console-token";

/**
 * The session token: given in the address filterc console printed (`#token=…`), kept for this tab
 * only, and taken out of the address bar so it is not copied along with it.
 */
function sessionToken(): string | null {
  const given = /^#token=([A-Za-z0-9_-]+)$/.exec(location.hash)?.[1];
  if (given) {
    sessionStorage.setItem(TOKEN_KEY, given);
    history.replaceState(null, "", `${location.pathname}${location.search}`);
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

const token = sessionToken();

/** Calls the console's server; every answer it gives comes back as an outcome, a lost connection as `unreachable`. */
export async function call<T>(
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  body?: unknown,
): Promise<Outcome<T>> {
  const headers: Record<string, string> = {};
  if (token) headers[TOKEN_HEADER] = token;
  if (body !== undefined) headers["content-type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      cache: "no-store",
    });
  } catch {
    return {
      ok: false,
      error: {
        kind: "unreachable",
        message: "the console's server is not answering: is filterc console still running?",
      },
    };
  }
  try {
    return (await response.json()) as Outcome<T>;
  } catch {
    return {
      ok: false,
      error: { kind: "internal", message: `the console answered ${response.status} without JSON` },
    };
  }
}

/**
 * Opens a WebSocket of the console's own (a live tail's records): the session token goes in its
 * subprotocols, the one header a page's WebSocket can set.
 */
export function openSocket(path: string): WebSocket {
  const url = new URL(path, location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  return new WebSocket(url, [LIVE_TAIL_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token ?? ""}`]);
}

/** The query of a scope: `zoneId=…` or `accountId=…`. */
export function scopeQuery(scope: { zoneId: string } | { accountId: string }): string {
  return new URLSearchParams(scope as Record<string, string>).toString();
}
