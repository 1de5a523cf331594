import type { Readable } from "node:stream";
import {
  AbstractMessageReader,
  type DataCallback,
  Disposable,
  type Message,
} from "vscode-languageserver/node";

interface FrameLimits {
  /** A longer message is skipped (its bytes read and dropped), with a message on stderr. */
  maxMessageBytes: number;
  /** Headers longer than this without their blank line end the server. */
  maxHeaderBytes: number;
}

/** 16 MiB: a document at maxSourceLength (100,000 characters) is at most 600 kB of JSON. */
export const DEFAULT_FRAME_LIMITS: FrameLimits = { maxMessageBytes: 16 * 1024 * 1024, maxHeaderBytes: 8192 };

/** A frame the reader cannot read: once one is met, the bytes after it cannot be trusted. */
class FrameError extends Error {
  override readonly name = "FrameError";
}

const CRLF_CRLF = Buffer.from("\r\n\r\n");

/**
 * Reads LSP base-protocol frames (`Content-Length: N` CRLF, other headers, CRLF, N bytes of JSON)
 * strictly. vscode-jsonrpc's reader waited forever on a frame without Content-Length, on LF-only
 * headers and on input closed inside a frame, answering nothing. Here every such frame is an error
 * (onError, with its byte offset) after which nothing more is read, and `skipped` reports a message
 * over the size limit, which is dropped without being held: its length is known, so the next frame
 * is still found.
 */
export class StrictFrameReader extends AbstractMessageReader {
  private pending: Buffer = Buffer.alloc(0);
  /** The offset in the input of pending[0]. */
  private offset = 0;
  /** The body length of the frame whose headers were read, or -1 while reading headers. */
  private bodyLength = -1;
  /** Bytes of an oversized body still to drop. */
  private skipping = 0;
  private failed = false;

  constructor(
    private readonly input: Readable,
    private readonly limits: FrameLimits = DEFAULT_FRAME_LIMITS,
    private readonly skipped: (message: string) => void = () => {},
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    const onData = (chunk: Buffer) => {
      if (this.failed) return;
      try {
        this.read(chunk, callback);
      } catch (error) {
        this.failed = true;
        this.fireError(error);
      }
    };
    const onEnd = () => {
      if (this.failed) return;
      if (this.pending.length > 0 || this.bodyLength >= 0 || this.skipping > 0) {
        this.failed = true;
        this.fireError(
          new FrameError(`the input ended inside a message, at byte ${this.offset + this.pending.length}`),
        );
      } else this.fireClose();
    };
    const onError = (error: Error) => this.fireError(error);
    this.input.on("data", onData);
    this.input.on("end", onEnd);
    this.input.on("error", onError);
    return Disposable.create(() => {
      this.input.off("data", onData);
      this.input.off("end", onEnd);
      this.input.off("error", onError);
    });
  }

  private read(chunk: Buffer, callback: DataCallback): void {
    if (this.skipping > 0) {
      const dropped = Math.min(this.skipping, chunk.length);
      this.skipping -= dropped;
      this.offset += dropped;
      chunk = chunk.subarray(dropped);
    }
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    for (;;) {
      if (this.bodyLength < 0) {
        const end = this.pending.indexOf(CRLF_CRLF);
        const headerBytes = end < 0 ? this.pending.length : end;
        this.checkHeaders(this.pending.subarray(0, headerBytes), end >= 0);
        if (end < 0) return;
        this.bodyLength = this.contentLength(this.pending.toString("ascii", 0, end));
        this.consume(end + CRLF_CRLF.length);
        if (this.bodyLength > this.limits.maxMessageBytes) {
          this.skipped(
            `a message of ${this.bodyLength} bytes at byte ${this.offset} is longer than ${this.limits.maxMessageBytes} bytes: skipped`,
          );
          const dropped = Math.min(this.bodyLength, this.pending.length);
          this.skipping = this.bodyLength - dropped;
          this.consume(dropped);
          this.bodyLength = -1;
          if (this.skipping > 0) return;
          continue;
        }
      }
      if (this.pending.length < this.bodyLength) return;
      const body = this.pending.toString("utf8", 0, this.bodyLength);
      const at = this.offset;
      this.consume(this.bodyLength);
      this.bodyLength = -1;
      let message: unknown;
      try {
        message = JSON.parse(body);
      } catch {
        throw new FrameError(`the message at byte ${at} is not JSON (is its Content-Length right?)`);
      }
      if (typeof message !== "object" || message === null || Array.isArray(message))
        throw new FrameError(`the message at byte ${at} is not a JSON object`);
      callback(message as Message);
    }
  }

  /** Headers are ASCII lines ending in CRLF, within the size limit. */
  private checkHeaders(headers: Buffer, complete: boolean): void {
    for (let lf = headers.indexOf(10); lf >= 0; lf = headers.indexOf(10, lf + 1))
      if (lf === 0 || headers[lf - 1] !== 13)
        throw new FrameError(`a header line at byte ${this.offset + lf} ends in LF without CR`);
    if (!complete && headers.length > this.limits.maxHeaderBytes)
      throw new FrameError(
        `no end of the headers (a blank line) within ${this.limits.maxHeaderBytes} bytes at byte ${this.offset}`,
      );
  }

  private contentLength(headers: string): number {
    let length: number | undefined;
    for (const line of headers.split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon <= 0)
        throw new FrameError(`the header line ${JSON.stringify(line)} at byte ${this.offset} has no name`);
      if (line.slice(0, colon).trim().toLowerCase() !== "content-length") continue;
      const value = line.slice(colon + 1).trim();
      if (!/^\d{1,15}$/.test(value))
        throw new FrameError(
          `the Content-Length ${JSON.stringify(value)} at byte ${this.offset} is not a number`,
        );
      length = Number(value);
    }
    if (length === undefined)
      throw new FrameError(`the message at byte ${this.offset} has no Content-Length`);
    return length;
  }

  private consume(bytes: number): void {
    this.pending = this.pending.subarray(bytes);
    this.offset += bytes;
  }
}
