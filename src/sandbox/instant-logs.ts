/**
 * The sandbox plays Instant Logs: `POST /zones/{zone}/logpush/edge/jobs` opens a session whose
 * `destination_conf` is a WebSocket address on the sandbox itself
 * (`ws://127.0.0.1:<port>/instant-logs/ws/sessions/<session_id>`); every http_requests record the
 * zone's ingest takes then goes to each connected session through the session's filter and sample
 * (the push's RecordGate) and its fields (the push's output format), one record a message.
 *
 * Bounded as the service is: one session a zone at a time, `maxSessions` in all, a session lasts
 * at most `maxSessionMs` (then closed with 1000: expired) and waits at most `connectTimeoutMs` for
 * its client. The ingest never waits for a session: a client that reads slower than records come,
 * so that more than `maxBufferedBytes` wait to be sent, is dropped (closed with 1008, then cut).
 * The WebSocket server (`ws`) is loaded at the first connection, not at the sandbox's start.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { WebSocket, WebSocketServer } from "ws";
import { INSTANT_LOGS_DATASET, MAX_INSTANT_LOGS_SAMPLE } from "../api/index.js";
import type { LiveSessions, Reply, RequestContext } from "./context.js";
import { datasetCatalog } from "./datasets.js";
import { ErrorCode, SandboxError } from "./errors.js";
import { checkJobFilter } from "./filter.js";
import { type Job, newId } from "./model.js";
import { type OutputFormat, outputFormatOf } from "./output.js";
import { RecordGate } from "./push.js";

/** Where sessions' WebSockets are served: the path of the service's own addresses. */
const SESSION_PATH = /^\/instant-logs\/ws\/sessions\/([0-9a-f]{32})$/;

/** The most bytes a client may send in one message: a session's client only listens. */
const MAX_CLIENT_MESSAGE_BYTES = 4096;

/** How long a dropped client's connection is given to take its close frame before it is cut. */
const CLOSE_GRACE_MS = 1000;

export interface InstantLogsOptions {
  /** Sessions open at once, across zones; one more is answered 429 (default 16). */
  maxSessions: number;
  /** Bytes of records waiting to reach one client before it is dropped (default 4 MiB). */
  maxBufferedBytes: number;
  /** How long a session lasts (default 60 minutes, the service's). */
  maxSessionMs: number;
  /** How long a session waits for its client to connect (default 5 minutes). */
  connectTimeoutMs: number;
}

export const DEFAULT_INSTANT_LOGS_OPTIONS: InstantLogsOptions = {
  maxSessions: 16,
  maxBufferedBytes: 4 * 1024 * 1024,
  maxSessionMs: 60 * 60 * 1000,
  connectTimeoutMs: 5 * 60 * 1000,
};

/** A session as the API answers it. */
interface SessionAnswer {
  id: number;
  fields: string;
  sample: number;
  filter: string;
  destination_conf: string;
  session_id: string;
  kind: "instant-logs";
}

interface Session {
  zoneId: string;
  answer: SessionAnswer;
  gate: RecordGate;
  format: OutputFormat;
  socket?: WebSocket;
  timers: NodeJS.Timeout[];
  ended: boolean;
}

const invalid = (message: string, pointer: string) =>
  new SandboxError(400, ErrorCode.invalidJob, message, pointer);

/** A session's body, checked as a job's members are: the fields of http_requests, the sample, the filter. */
function checkedBody(body: Record<string, unknown>) {
  const catalog = datasetCatalog(INSTANT_LOGS_DATASET);
  const fieldsText = body["fields"] ?? [...catalog.fields.keys()].join(",");
  if (typeof fieldsText !== "string")
    throw invalid("fields must be a comma-separated list of fields", "/fields");
  const fields = fieldsText === "" ? [] : fieldsText.split(",").map((field) => field.trim());
  for (const field of fields)
    if (!catalog.fields.has(field))
      throw invalid(`${JSON.stringify(field)} is not a field of ${INSTANT_LOGS_DATASET}`, "/fields");
  const sample = body["sample"] ?? 1;
  if (!Number.isSafeInteger(sample) || (sample as number) < 1 || (sample as number) > MAX_INSTANT_LOGS_SAMPLE)
    throw invalid(`sample must be a whole number from 1 to ${MAX_INSTANT_LOGS_SAMPLE}`, "/sample");
  const kind = body["kind"];
  if (kind !== undefined && kind !== "instant-logs") throw invalid('kind must be "instant-logs"', "/kind");
  const filter = body["filter"] ?? "";
  checkJobFilter(filter, INSTANT_LOGS_DATASET);
  return { fields, fieldsText, sample: sample as number, filter: (filter as string | null) ?? "" };
}

export class InstantLogs implements LiveSessions {
  private readonly sessions = new Map<string, Session>();
  private created = 0;
  private server: WebSocketServer | undefined;
  /** The sandbox's address, known once it listens: sessions' addresses are on it. */
  origin = "";

  constructor(
    private readonly options: InstantLogsOptions,
    private readonly sampleSeed: number,
  ) {}

  /** `POST /zones/{zone}/logpush/edge/jobs`. */
  create = async (context: RequestContext): Promise<Reply> => {
    const { fields, fieldsText, sample, filter } = checkedBody(context.body);
    const zoneId = context.scope.id;
    if ([...this.sessions.values()].some((session) => session.zoneId === zoneId))
      throw new SandboxError(
        409,
        ErrorCode.instantLogsSessionActive,
        "an Instant Logs session is already active for this zone; a zone has one at a time",
      );
    if (this.sessions.size >= this.options.maxSessions)
      throw new SandboxError(
        429,
        ErrorCode.busy,
        `${this.options.maxSessions} Instant Logs sessions are open, the most the sandbox holds; retry later`,
      );
    const sessionId = newId();
    const answer: SessionAnswer = {
      id: ++this.created,
      fields: fieldsText,
      sample,
      filter,
      destination_conf: `${this.origin.replace(/^http/, "ws")}/instant-logs/ws/sessions/${sessionId}`,
      session_id: sessionId,
      kind: "instant-logs",
    };
    // Rendered as a job's records are, with the session's fields and the weight of each (as the service's carry).
    const job = {
      dataset: INSTANT_LOGS_DATASET,
      output_options: { field_names: [...fields, "sampleInterval"], timestamp_format: "unixnano" },
      logpull_options: null,
    } as unknown as Job;
    const session: Session = {
      zoneId,
      answer,
      gate: new RecordGate(INSTANT_LOGS_DATASET, filter, this.sampleSeed, -answer.id, 1 / sample),
      format: outputFormatOf(job),
      timers: [],
      ended: false,
    };
    this.sessions.set(sessionId, session);
    session.timers.push(
      setTimeout(() => {
        if (!session.socket) this.end(session);
      }, this.options.connectTimeoutMs).unref(),
      setTimeout(() => {
        this.end(
          session,
          1000,
          `session expired: a session lasts at most ${duration(this.options.maxSessionMs)}`,
        );
      }, this.options.maxSessionMs).unref(),
    );
    return { status: 200, result: answer };
  };

  /** `GET /zones/{zone}/logpush/edge/jobs`: the zone's open sessions. */
  list = async (context: RequestContext): Promise<Reply> => ({
    status: 200,
    result: [...this.sessions.values()]
      .filter((session) => session.zoneId === context.scope.id)
      .map((session) => session.answer),
  });

  /**
   * A client connecting to a session's address (every upgrade comes here): refused (an HTTP
   * answer, then the connection closed) on another path, when the session is unknown, ended or
   * taken, or when a page of another origin asks.
   */
  async upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const path = new URL(request.url ?? "/", "http://127.0.0.1").pathname;
    const id = SESSION_PATH.exec(path)?.[1];
    if (id === undefined) return refuse(socket, 404, "no WebSocket is served at this address");
    const session = this.sessions.get(id);
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== this.origin)
      return refuse(socket, 403, "connections from other origins are refused");
    if (!session || session.ended)
      return refuse(socket, 404, "no such session: it expired, ended or never was");
    if (session.socket) return refuse(socket, 409, "the session already has its client");
    const server = await this.webSocketServer();
    server.handleUpgrade(request, socket, head, (ws) => {
      // A second client that arrived during the first one's handshake.
      if (session.ended || session.socket) {
        ws.terminate();
        return;
      }
      session.socket = ws;
      ws.on("close", () => this.end(session));
      ws.on("error", () => ws.terminate());
      ws.on("message", () => undefined);
    });
  }

  /**
   * Sends a record of the zone to each of its connected sessions that keeps it. Never waits: a
   * session whose client has more than `maxBufferedBytes` waiting is dropped instead.
   */
  offer(zoneId: string, record: Record<string, unknown>): void {
    for (const session of this.sessions.values()) {
      const socket = session.socket;
      if (session.zoneId !== zoneId || !socket || session.ended) continue;
      if (!session.gate.passes(record)) continue;
      if (socket.bufferedAmount > this.options.maxBufferedBytes) {
        this.end(session, 1008, "dropped: the client read slower than records came");
        continue;
      }
      socket.send(session.format.render({ ...record, sampleInterval: session.answer.sample }));
    }
  }

  /** Whether any session of the zone is connected (the ingest skips the work otherwise). */
  listening(zoneId: string): boolean {
    for (const session of this.sessions.values())
      if (session.zoneId === zoneId && session.socket) return true;
    return false;
  }

  /** Ends every session: their connections are cut, as a server that stops cuts them. */
  close(): void {
    for (const session of this.sessions.values()) this.end(session);
    for (const session of this.sessions.values()) session.socket?.terminate();
    this.server?.close();
  }

  /** Ends a session: closed with `code` and `reason` when given (then cut after a grace), and forgotten. */
  private end(session: Session, code?: number, reason?: string): void {
    if (session.ended) return;
    session.ended = true;
    for (const timer of session.timers) clearTimeout(timer);
    this.sessions.delete(session.answer.session_id);
    const socket = session.socket;
    if (!socket || code === undefined) {
      socket?.terminate();
      return;
    }
    socket.close(code, reason);
    setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
  }

  private async webSocketServer(): Promise<WebSocketServer> {
    if (!this.server) {
      const { WebSocketServer } = await import("ws");
      this.server = new WebSocketServer({ noServer: true, maxPayload: MAX_CLIENT_MESSAGE_BYTES });
    }
    return this.server;
  }
}

/** `60 minutes`, `2 seconds`: a session's length as its close reason says it. */
function duration(ms: number): string {
  const [count, unit] =
    ms >= 60_000 ? [Math.round(ms / 60_000), "minute"] : [Math.max(1, Math.round(ms / 1000)), "second"];
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

/** Answers a refused upgrade in Cloudflare's envelope, then closes the connection. */
function refuse(socket: Duplex, status: number, message: string): void {
  const reasons: Record<number, string> = { 403: "Forbidden", 404: "Not Found", 409: "Conflict" };
  const body = JSON.stringify({
    result: null,
    success: false,
    errors: [{ code: ErrorCode.instantLogsSessionRefused, message }],
    messages: [],
  });
  socket.end(
    `HTTP/1.1 ${status} ${reasons[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
