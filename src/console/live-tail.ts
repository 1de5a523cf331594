/**
 * Instant Logs in the console. The page asks for a session (`POST /api/instant-logs`): the API
 * client checks and creates it, and this server connects to the session's WebSocket itself, since
 * its address is all it takes to read the zone's records and the page is given neither it nor the
 * credentials. The records go on to the page over a WebSocket of the console's own origin
 * (LIVE_TAIL_PATH and the tail's ID, which only the call that started it answers), guarded as the
 * page's calls are (socketRefusal). Memory stays bounded when the page reads slower than records
 * come: what waits to reach it is held to `maxBufferedBytes`, and past that a message of the
 * session is dropped and its records counted, never held. The `ws` package is loaded at the first
 * tail, not at the console's start.
 */
import { randomBytes } from "node:crypto";
import { type IncomingHttpHeaders, type IncomingMessage, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import type { WebSocket, WebSocketServer } from "ws";
import {
  ApiError,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  type InstantLogsSettings,
  maskedSessionAddress,
  maskSecrets,
  sessionEnding,
  sessionRecords,
} from "../api/index.js";
import {
  BadCall,
  type Call,
  type ConsoleContext,
  isObject,
  objectBody,
  scopeOf,
  stringList,
} from "./calls.js";
import { LIVE_TAIL_PATH, LIVE_TAIL_PROTOCOL, type LiveTailMessage } from "./live-tail-protocol.js";

export interface LiveTailLimits {
  /** Tails relayed at once; one more is refused (default 4: the service gives a zone one session). */
  maxTails: number;
  /** Bytes waiting to reach one page, at most; past it the session's messages are dropped and counted (default 4 MiB). */
  maxBufferedBytes: number;
  /** How long a tail waits for its page to connect once the session is created (default 30 s). */
  pageConnectTimeoutMs: number;
  /** How long the session's WebSocket handshake may take (default the client's DEFAULT_TIMEOUT_MS). */
  handshakeTimeoutMs: number;
  /** The largest message taken from the service; a larger one drops the session (default DEFAULT_MAX_RESPONSE_BYTES). */
  maxMessageBytes: number;
}

export const DEFAULT_LIVE_TAIL_LIMITS: LiveTailLimits = {
  maxTails: 4,
  maxBufferedBytes: 4 * 1024 * 1024,
  pageConnectTimeoutMs: 30_000,
  handshakeTimeoutMs: DEFAULT_TIMEOUT_MS,
  maxMessageBytes: DEFAULT_MAX_RESPONSE_BYTES,
};

/** The most bytes the page may send in one message: it only listens. */
const MAX_PAGE_MESSAGE_BYTES = 1024;
/** How long a closed WebSocket is given to answer its close before its connection is cut. */
const CLOSE_GRACE_MS = 2000;
/** The most bytes of a refused handshake's answer read, for the envelope's message. */
const MAX_REFUSAL_BYTES = 4096;

const OPERATION = "connect to the Instant Logs session";

interface Tail {
  upstream: WebSocket;
  page: WebSocket | undefined;
  /** Messages that came before the page connected, `waitingBytes` in all. */
  waiting: string[];
  waitingBytes: number;
  dropped: number;
  /** The session's end, kept for a page that has not connected yet. */
  ended: string | undefined;
  /** Whether this side closed the session (the page went away, or the console stops). */
  closedHere: boolean;
  timer: NodeJS.Timeout | undefined;
}

/** The settings the page sends for a session, each of the type the client takes. */
function settingsOf(value: unknown): InstantLogsSettings {
  if (!isObject(value)) throw new BadCall("settings is an object");
  const { fields, sample, filter, ...rest } = value;
  const [other] = Object.keys(rest);
  if (other !== undefined) throw new BadCall(`settings.${other} is not a setting of a session`);
  const settings: InstantLogsSettings = {};
  if (fields !== undefined) {
    if (!stringList(fields)) throw new BadCall("settings.fields is a list of field names");
    settings.fields = fields as string[];
  }
  if (sample !== undefined) {
    if (typeof sample !== "number") throw new BadCall("settings.sample is a number");
    settings.sample = sample;
  }
  if (filter !== undefined && filter !== null) {
    if (!isObject(filter) || typeof filter["source"] !== "string")
      throw new BadCall("settings.filter is null or {source}");
    settings.filter = { source: filter["source"] };
  }
  return settings;
}

/** A handshake's refusal, in the console's JSON, then the connection closed. */
function refuse(socket: Duplex, status: number, kind: string, message: string): void {
  const body = JSON.stringify({ ok: false, error: { kind, message } });
  socket.on("error", () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\ncache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
  );
}

/** Closes a WebSocket, and cuts it if the other side does not answer in time. */
function closeSoon(socket: WebSocket, code: number, reason: string): void {
  socket.close(code, reason);
  setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
}

/** The message of an upstream WebSocket as text: a text frame is UTF-8 (ws checks it), a binary one may not be. */
function messageText(data: Buffer | ArrayBuffer | Buffer[]): string | undefined {
  const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The live tails of one console: started by a call, read by the page's WebSocket. */
export class LiveTails {
  private readonly tails = new Map<string, Tail>();
  /** Tails counted against `maxTails` while their session is being created. */
  private starting = 0;
  private server: WebSocketServer | undefined;

  constructor(
    private readonly limits: LiveTailLimits,
    /** Masked in every message to the page, as in every answer. */
    private readonly secrets: readonly string[],
  ) {}

  /** `POST /api/instant-logs`: creates the session, connects to it, and answers the tail's ID. */
  start = async (context: ConsoleContext, call: Call): Promise<Record<string, unknown>> => {
    const body = objectBody(call);
    const scope = scopeOf(body["scope"], "scope");
    if (!("zoneId" in scope))
      throw new BadCall("scope names a zoneId: Instant Logs streams a zone's records");
    const settings = settingsOf(body["settings"]);
    if (this.tails.size + this.starting >= this.limits.maxTails)
      throw new BadCall(
        `${this.limits.maxTails} live tails are open in this console, the most it relays at once; stop one first`,
        429,
      );
    this.starting++;
    try {
      if (context.diagnostics !== undefined) settings.compileOptions = { diagnostics: context.diagnostics };
      const created = await context.client.createInstantLogsSession(scope, settings);
      const upstream = await this.connect(created.address);
      const id = randomBytes(18).toString("base64url");
      this.follow(id, upstream);
      const { destination_conf: _address, ...session } = context.client.masked(created.session);
      return {
        tail: id,
        session: { ...session, destination_conf: maskedSessionAddress(created.address) },
        diagnostics: created.diagnostics,
        filterSource: created.filterSource ?? null,
      };
    } finally {
      this.starting--;
    }
  };

  /**
   * A WebSocket asked of the console (every upgrade comes here): the page connecting to its tail,
   * or refused with an answer in the console's JSON (`refusal` says why a page's is refused).
   */
  async upgrade(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    refusal: (headers: IncomingHttpHeaders) => string | undefined,
  ): Promise<void> {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    if (!path.startsWith(LIVE_TAIL_PATH))
      return refuse(socket, 404, "request", "no WebSocket is served here");
    const refused = refusal(request.headers);
    if (refused) return refuse(socket, 403, "denied", refused);
    const id = path.slice(LIVE_TAIL_PATH.length);
    const tail = this.tails.get(id);
    if (!tail) return refuse(socket, 404, "request", "no such live tail: it ended, or was never started");
    if (tail.page) return refuse(socket, 409, "request", "the live tail already has its page");
    const server = await this.webSocketServer();
    server.handleUpgrade(request, socket, head, (page) => {
      // A second page that arrived during the first one's handshake.
      if (tail.page || this.tails.get(id) !== tail) return page.terminate();
      tail.page = page;
      clearTimeout(tail.timer);
      page.on("error", () => page.terminate());
      page.on("close", () => this.stop(id, tail));
      for (const message of tail.waiting) page.send(message);
      tail.waiting = [];
      tail.waitingBytes = 0;
      if (tail.ended !== undefined) {
        page.send(tail.ended);
        closeSoon(page, 1000, "the session ended");
        this.tails.delete(id);
      }
    });
  }

  /** Ends every tail: the sessions closed, the pages' connections cut. */
  close(): void {
    for (const [id, tail] of this.tails) {
      this.stop(id, tail);
      tail.upstream.terminate();
      tail.page?.terminate();
    }
    this.server?.close();
  }

  /** Connects to the session's WebSocket; an ApiError when it is refused or cannot be reached. */
  private async connect(address: string): Promise<WebSocket> {
    const { WebSocket } = await import("ws");
    const shown = maskedSessionAddress(address);
    return new Promise((resolve, reject) => {
      const upstream = new WebSocket(address, {
        handshakeTimeout: this.limits.handshakeTimeoutMs,
        maxPayload: this.limits.maxMessageBytes,
        followRedirects: false,
      });
      upstream.on("error", (error: NodeJS.ErrnoException) =>
        reject(
          new ApiError(
            OPERATION,
            "network",
            null,
            [],
            `cannot connect to ${shown} (${error.code ?? error.message})`,
          ),
        ),
      );
      upstream.once("unexpected-response", (_request, response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          if (text.length < MAX_REFUSAL_BYTES) text += chunk;
        });
        response.on("end", () => {
          let said = "";
          try {
            const message = (JSON.parse(text) as { errors?: { message?: unknown }[] }).errors?.[0]?.message;
            if (typeof message === "string") said = `: ${message.slice(0, 200)}`;
          } catch {
            // An answer that is not Cloudflare's envelope says nothing more than its status.
          }
          const status = response.statusCode ?? null;
          reject(
            new ApiError(
              OPERATION,
              "http",
              status,
              [],
              `the service refused the connection to ${shown} (HTTP ${status}${maskSecrets(said, this.secrets)})`,
            ),
          );
          upstream.terminate();
        });
      });
      upstream.once("open", () => resolve(upstream));
    });
  }

  /** Relays the connected session's records to the tail's page, once it connects, until either ends. */
  private follow(id: string, upstream: WebSocket): void {
    const tail: Tail = {
      upstream,
      page: undefined,
      waiting: [],
      waitingBytes: 0,
      dropped: 0,
      ended: undefined,
      closedHere: false,
      timer: setTimeout(() => this.stop(id, tail), this.limits.pageConnectTimeoutMs).unref(),
    };
    this.tails.set(id, tail);
    upstream.on("message", (data: Buffer | ArrayBuffer | Buffer[]) => {
      const text = messageText(data);
      // A message that is no text holds no line of JSON: as the CLI does, it is not a record.
      if (text === undefined) return;
      const lines = sessionRecords(text);
      if (lines.length > 0) this.relay(tail, lines);
    });
    upstream.on("close", (code: number, reason: Buffer) => {
      if (tail.closedHere) return;
      const said = reason.toString("utf8");
      const end: LiveTailMessage = {
        kind: "end",
        ending: sessionEnding(code, false),
        detail: code === 1006 ? "the connection was lost" : `code ${code}${said === "" ? "" : `: ${said}`}`,
        dropped: tail.dropped,
      };
      const message = maskSecrets(JSON.stringify(end), this.secrets);
      // A page yet to connect gets it when it does (the timer still forgets the tail if it never does).
      if (!tail.page) {
        tail.ended = message;
        return;
      }
      tail.page.send(message);
      closeSoon(tail.page, 1000, "the session ended");
      this.tails.delete(id);
    });
  }

  /** Sends a message of the session on to the page, or holds it for a page yet to connect, or drops it. */
  private relay(tail: Tail, lines: string[]): void {
    const message = maskSecrets(
      JSON.stringify({ kind: "records", lines, dropped: tail.dropped } satisfies LiveTailMessage),
      this.secrets,
    );
    const bytes = Buffer.byteLength(message);
    const held = tail.page ? tail.page.bufferedAmount : tail.waitingBytes;
    if (held + bytes > this.limits.maxBufferedBytes) {
      tail.dropped += lines.length;
      return;
    }
    if (tail.page) tail.page.send(message);
    else {
      tail.waiting.push(message);
      tail.waitingBytes += bytes;
    }
  }

  /** Ends a tail from this side: its session closed (the page went away or never came), forgotten. */
  private stop(id: string, tail: Tail): void {
    clearTimeout(tail.timer);
    if (this.tails.get(id) === tail) this.tails.delete(id);
    if (tail.closedHere) return;
    tail.closedHere = true;
    if (tail.upstream.readyState === tail.upstream.OPEN)
      closeSoon(tail.upstream, 1000, "stopped by the client");
    tail.page?.terminate();
  }

  private async webSocketServer(): Promise<WebSocketServer> {
    if (!this.server) {
      const { WebSocketServer } = await import("ws");
      this.server = new WebSocketServer({
        noServer: true,
        maxPayload: MAX_PAGE_MESSAGE_BYTES,
        handleProtocols: (offered) => (offered.has(LIVE_TAIL_PROTOCOL) ? LIVE_TAIL_PROTOCOL : false),
      });
    }
    return this.server;
  }
}
