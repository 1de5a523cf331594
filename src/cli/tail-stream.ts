/**
 * `filterc tail`'s reading of an Instant Logs session: connects to the session's WebSocket (the
 * `ws` package, loaded only here: Node 20 has no WebSocket client), prints each record as it comes
 * and ends with a message and an exit status for each way a session ends. Memory stays bounded
 * when the output is read slower than records come: records wait in a queue of at most
 * `maxBufferedBytes`, and past it they are dropped and counted, never held.
 */
import { maskedSessionAddress, type SessionEnding, sessionEnding, sessionRecords } from "../api/index.js";
import { recordCell } from "../api/instant-logs.js";
import { terminalJsonText, terminalText } from "../diagnostics/index.js";
import { parseRecord } from "../eval/index.js";
import type { CliIO } from "./io.js";

/** How `filterc tail` ends, and its exit status: what a script reads. */
export const TAIL_EXIT = { stopped: 0, refused: 1, dropped: 3, expired: 4 } as const;

export interface TailOptions {
  format: "ndjson" | "table";
  /** The fields of the session: the table's columns. */
  fields: readonly string[];
  /** Stop once this many records were printed. */
  maxLines: number | undefined;
  /** The most bytes of records waiting to be written; past it a record is dropped. */
  maxBufferedBytes: number;
  /** The largest message taken from the service; a larger one ends the session (dropped). */
  maxMessageBytes: number;
  /** How long the WebSocket's handshake may take. */
  handshakeTimeoutMs: number;
  /** Resolves when the person asks to stop (Ctrl-C, SIGTERM), with what they sent. */
  stopped: Promise<string>;
}

/** How long a stop waits for the service's answer to its close before the connection is cut. */
const CLOSE_WAIT_MS = 2000;
/** The widest column of the table but the last (a longer value is cut with `…`); narrower is its name's width. */
const TABLE_COLUMN_WIDTH = 16;

function tableRow(cells: readonly string[], fields: readonly string[]): string {
  return `${cells
    .map((text, index) => {
      const shown = terminalText(text).replaceAll("\n", " ").replaceAll("\t", " ");
      if (index === cells.length - 1) return shown;
      const width = Math.max(fields[index]!.length, TABLE_COLUMN_WIDTH);
      return shown.length > width ? `${shown.slice(0, width - 1)}…` : shown.padEnd(width);
    })
    .join("  ")}\n`;
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** Reads the session at `address` until it ends; returns the exit status (TAIL_EXIT). */
export async function tailSession(io: CliIO, address: string, options: TailOptions): Promise<number> {
  const { WebSocket } = await import("ws");
  const shown = maskedSessionAddress(address);
  return new Promise<number>((resolve) => {
    const socket = new WebSocket(address, {
      handshakeTimeout: options.handshakeTimeoutMs,
      maxPayload: options.maxMessageBytes,
      followRedirects: false,
    });
    /** What waits to be written: records, and the table's header (which is no record). */
    const queue: { text: string; record: boolean }[] = [];
    let queuedBytes = 0;
    let writing: Promise<void> | undefined;
    let accepted = 0;
    let printed = 0;
    let dropped = 0;
    let malformed = 0;
    let opened = false;
    let stopReason: string | undefined;
    let finished = false;

    const write = async (text: string) => {
      if (io.writeStdout) await io.writeStdout(Buffer.from(text, "utf8"));
      else io.stdout(text);
    };
    /** Writes what waits, in order, one write at a time (each waits for the output to take it). */
    const drain = (): Promise<void> => {
      writing ??= (async () => {
        while (queue.length > 0) {
          const { text, record } = queue.shift()!;
          queuedBytes -= Buffer.byteLength(text);
          await write(text);
          if (record) printed++;
          if (io.stdoutGone?.()) stop("the reader of the output has gone");
        }
        writing = undefined;
      })();
      return writing;
    };
    const enqueue = (text: string) => {
      const bytes = Buffer.byteLength(text);
      if (queuedBytes + bytes > options.maxBufferedBytes) {
        dropped++;
        return;
      }
      queue.push({ text, record: true });
      queuedBytes += bytes;
      accepted++;
      void drain();
      if (options.maxLines !== undefined && accepted >= options.maxLines)
        stop(`--max-lines ${options.maxLines}`);
    };
    const stop = (reason: string) => {
      if (stopReason !== undefined || finished) return;
      stopReason = reason;
      if (!opened) {
        socket.terminate();
        return;
      }
      socket.close(1000, "stopped by the client");
      setTimeout(() => socket.terminate(), CLOSE_WAIT_MS).unref();
    };
    const finish = async (status: number, message: (count: string) => string) => {
      if (finished) return;
      finished = true;
      await drain();
      io.stderr(`${message(`${plural(printed, "record")} printed`)}\n`);
      if (dropped > 0)
        io.stderr(
          `note: ${plural(dropped, "record")} dropped: the output was read slower than records came (--max-buffered-bytes ${options.maxBufferedBytes})\n`,
        );
      if (malformed > 0)
        io.stderr(
          `note: ${plural(malformed, "line")} of the session's messages were no JSON records; not printed\n`,
        );
      resolve(status);
    };
    const endedAs = (ending: SessionEnding, detail: string) => {
      if (ending === "stopped")
        return finish(TAIL_EXIT.stopped, (count) => `stopped (${stopReason}): ${count}`);
      if (ending === "expired")
        return finish(
          TAIL_EXIT.expired,
          (count) => `the session expired: the service ended it (${detail}); ${count}`,
        );
      return finish(TAIL_EXIT.dropped, (count) => `the session was dropped (${detail}); ${count}`);
    };

    void options.stopped.then(stop);

    socket.on("unexpected-response", (_request, response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        if (body.length < 4096) body += chunk;
      });
      response.on("end", () => {
        let said = "";
        try {
          const message = (JSON.parse(body) as { errors?: { message?: unknown }[] }).errors?.[0]?.message;
          if (typeof message === "string") said = `: ${terminalText(message.slice(0, 200))}`;
        } catch {
          // An answer that is not Cloudflare's envelope says nothing more than its status.
        }
        void finish(
          TAIL_EXIT.refused,
          () =>
            `refused: the service refused the connection to ${shown} (HTTP ${response.statusCode}${said})`,
        );
        socket.terminate();
      });
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (!opened && stopReason !== undefined)
        void finish(
          TAIL_EXIT.stopped,
          (count) => `stopped (${stopReason}) before the session connected: ${count}`,
        );
      else if (!opened)
        void finish(
          TAIL_EXIT.refused,
          () =>
            `refused: cannot connect to the session at ${shown} (${terminalText(error.code ?? error.message)})`,
        );
    });
    socket.on("open", () => {
      opened = true;
      io.stderr(`connected to the Instant Logs session at ${shown}; Ctrl-C stops\n`);
      if (options.format === "table")
        queue.push({ text: tableRow(options.fields, options.fields), record: false });
      if (stopReason !== undefined) socket.close(1000, "stopped by the client");
    });
    socket.on("message", (data: Buffer | ArrayBuffer | Buffer[]) => {
      if (stopReason !== undefined) return;
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      let text: string;
      try {
        text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
      } catch {
        malformed++;
        return;
      }
      for (const line of sessionRecords(text)) {
        if (stopReason !== undefined) return;
        const record = parseRecord(line);
        if (!record) {
          malformed++;
          continue;
        }
        // JSON as it came (numbers exact), any character a terminal must not get raw escaped.
        if (options.format === "ndjson") enqueue(`${terminalJsonText(line.trim())}\n`);
        else
          enqueue(
            tableRow(
              options.fields.map((field) => recordCell(record[field])),
              options.fields,
            ),
          );
      }
    });
    socket.on("close", (code: number, reason: Buffer) => {
      if (!opened) return;
      const said = terminalText(reason.toString("utf8"));
      const detail =
        code === 1006 ? "the connection was lost" : `code ${code}${said === "" ? "" : `: ${said}`}`;
      void endedAs(sessionEnding(code, stopReason !== undefined), detail);
    });
  });
}
