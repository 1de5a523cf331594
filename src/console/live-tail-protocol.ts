/**
 * What the console's server and its page say to each other about a live tail (Instant Logs): the
 * WebSocket's path and subprotocols, and its messages. Browser-safe: the page imports it too, so
 * that both sides read one declaration.
 */
import type { SessionEnding } from "../api/instant-logs.js";

/** The path of a live tail's WebSocket: `/api/instant-logs/ID`, ID what the call that started it answered. */
export const LIVE_TAIL_PATH = "/api/instant-logs/";

/** The subprotocol the server chooses: a WebSocket that offers none of its own is no page of the console. */
export const LIVE_TAIL_PROTOCOL = "filterc-console-tail";

/**
 * The prefix of the second subprotocol the page offers, which carries its session token: a page's
 * WebSocket can set no header but this one (base64url, the token's alphabet, is a valid protocol name).
 */
export const TOKEN_PROTOCOL_PREFIX = "filterc-console-token.";

/** A message of a live tail's WebSocket, one JSON text each. */
export type LiveTailMessage =
  | {
      kind: "records";
      /** The records of one message of the session, each the line of JSON the service sent, as it sent it. */
      lines: string[];
      /** Records dropped so far because the page read slower than they came (the server holds a bounded amount). */
      dropped: number;
    }
  | {
      kind: "end";
      ending: SessionEnding;
      /** How the session ended, in words ("code 1000: session expired: …", "the connection was lost"). */
      detail: string;
      dropped: number;
    };
