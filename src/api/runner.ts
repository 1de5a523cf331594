import { ClientConfigError } from "./errors.js";
import type { ApiRequest, Envelope, ShownRequest, Transport } from "./transport.js";

/**
 * How an operation's requests are carried out. The client's operations are written once against
 * this: the live runner sends every request; a dry run sends only the reads (a GET changes nothing,
 * and it is what lets the dry run show the exact write) and records the writes without sending them.
 */
export interface Runner {
  readonly dryRun: boolean;
  /** Whether reads can be sent (a dry run without credentials cannot). */
  readonly canRead: boolean;
  read<T>(request: ApiRequest): Promise<Envelope<T>>;
  /** Sends a write; a dry run records it and answers with `preview()`, what the service would return. */
  write<T>(request: ApiRequest, preview: () => T, note?: string): Promise<T>;
}

/** A request of a dry run: what was read (sent) and what would be written (not sent). */
export type PlannedRequest = ShownRequest & { sent: boolean; note?: string };

export class LiveRunner implements Runner {
  readonly dryRun = false;
  constructor(private readonly transport: Transport) {}
  get canRead(): boolean {
    return this.transport.hasCredentials;
  }
  read<T>(request: ApiRequest): Promise<Envelope<T>> {
    return this.transport.send<T>(request);
  }
  async write<T>(request: ApiRequest): Promise<T> {
    return (await this.transport.send<T>(request)).result;
  }
}

export class DryRunner implements Runner {
  readonly dryRun = true;
  readonly requests: PlannedRequest[] = [];
  constructor(private readonly transport: Transport) {}
  get canRead(): boolean {
    return this.transport.hasCredentials;
  }
  async read<T>(request: ApiRequest): Promise<Envelope<T>> {
    if (!this.transport.hasCredentials)
      throw new ClientConfigError(
        `a dry run of ${request.operation} reads first (${request.method} ${this.transport.url(request)}; nothing is written): set CLOUDFLARE_API_TOKEN, or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY`,
      );
    this.requests.push({ ...this.transport.show(request), sent: true });
    return this.transport.send<T>(request);
  }
  async write<T>(request: ApiRequest, preview: () => T, note?: string): Promise<T> {
    this.requests.push({ ...this.transport.show(request), sent: false, ...(note ? { note } : {}) });
    return preview();
  }
}
