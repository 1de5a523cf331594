import { ApiError, ClientConfigError, type EnvelopeMessage } from "./errors.js";

export const DEFAULT_BASE_URL = "https://api.cloudflare.com/client/v4";
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 2;
/** No wait between retries is longer than this, whatever `Retry-After` asks. */
export const MAX_RETRY_DELAY_MS = 60_000;
/** What replaces a credential wherever a request is shown. */
export const MASK = "****";

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

/** One call to the API, before it is sent (or shown by a dry run). */
export interface ApiRequest {
  /** What the call does, in words: "list jobs". Named in errors. */
  operation: string;
  method: HttpMethod;
  /** The path under the base URL, e.g. `/zones/{zone}/logpush/jobs`. */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
}

/** A request as it would go on the wire, credentials masked. */
export interface ShownRequest {
  operation: string;
  method: HttpMethod;
  url: string;
  headers: Record<string, string>;
  /** The JSON body exactly as sent, or null. */
  body: string | null;
}

export interface ClientOptions {
  /** API token (`Authorization: Bearer`); default `CLOUDFLARE_API_TOKEN`. Wins over email and key. */
  apiToken?: string;
  /** Account email for `X-Auth-Email`; default `CLOUDFLARE_EMAIL`. */
  email?: string;
  /** Global API key for `X-Auth-Key`; default `CLOUDFLARE_API_KEY`. */
  apiKey?: string;
  /** Default `CLOUDFLARE_BASE_URL`, else `https://api.cloudflare.com/client/v4`. */
  baseUrl?: string;
  /** Where the `CLOUDFLARE_*` names are read; default the process environment where there is one (Node), else none. */
  env?: Record<string, string | undefined>;
  /** Per attempt, in milliseconds (default 30,000). */
  timeoutMs?: number;
  /** Retries of idempotent calls (GET, PUT, DELETE) on 429, 5xx and network failures (default 2). */
  maxRetries?: number;
  fetch?: typeof fetch;
  /** Waits between retries; tests make them instant. */
  sleep?: (ms: number) => Promise<void>;
  /** A number in [0, 1) for the backoff jitter; tests make it fixed. */
  random?: () => number;
  /** Milliseconds since the epoch, for a `Retry-After` given as an HTTP date. */
  now?: () => number;
}

type Credentials = { kind: "token"; token: string } | { kind: "key"; email: string; key: string } | null;

function defaultEnv(): Record<string, string | undefined> {
  // Feature detection, so the module also runs in browsers (where there is no environment).
  const host = Reflect.get(globalThis, "process") as { env?: Record<string, string | undefined> } | undefined;
  return host?.env ?? {};
}

const nonEmpty = (value: string | undefined) => (value === undefined || value === "" ? undefined : value);

const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(["GET", "PUT", "DELETE"]);

/** Sends requests: auth headers, the envelope unwrapped, a timeout on every attempt, retries with backoff. */
export class Transport {
  readonly baseUrl: string;
  private readonly credentials: Credentials;
  private readonly secrets: string[];
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(options: ClientOptions = {}) {
    const env = options.env ?? defaultEnv();
    const baseUrl = nonEmpty(options.baseUrl) ?? nonEmpty(env["CLOUDFLARE_BASE_URL"]) ?? DEFAULT_BASE_URL;
    if (!/^https?:\/\/[^/\s]+/.test(baseUrl))
      throw new ClientConfigError(
        `the base URL must start with https:// or http://, not ${JSON.stringify(baseUrl)}`,
      );
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    const token = nonEmpty(options.apiToken) ?? nonEmpty(env["CLOUDFLARE_API_TOKEN"]);
    const email = nonEmpty(options.email) ?? nonEmpty(env["CLOUDFLARE_EMAIL"]);
    const key = nonEmpty(options.apiKey) ?? nonEmpty(env["CLOUDFLARE_API_KEY"]);
    this.credentials = token ? { kind: "token", token } : email && key ? { kind: "key", email, key } : null;
    this.secrets = [token, key].filter((s): s is string => s !== undefined);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
  }

  get hasCredentials(): boolean {
    return this.credentials !== null;
  }

  url(request: ApiRequest): string {
    const query = request.query ? `?${new URLSearchParams(request.query).toString()}` : "";
    return `${this.baseUrl}${request.path}${query}`;
  }

  private headers(request: ApiRequest, masked: boolean): Record<string, string> {
    const headers: Record<string, string> = { Accept: "application/json" };
    if (request.body !== undefined) headers["Content-Type"] = "application/json";
    const credentials = this.credentials;
    if (credentials?.kind === "token")
      headers["Authorization"] = `Bearer ${masked ? MASK : credentials.token}`;
    if (credentials?.kind === "key") {
      headers["X-Auth-Email"] = masked ? MASK : credentials.email;
      headers["X-Auth-Key"] = masked ? MASK : credentials.key;
    }
    return headers;
  }

  /** The request as it would be sent, with every credential replaced by `****`. */
  show(request: ApiRequest): ShownRequest {
    return {
      operation: request.operation,
      method: request.method,
      url: this.url(request),
      headers: this.headers(request, true),
      body: request.body === undefined ? null : JSON.stringify(request.body),
    };
  }

  /** Sends the request and returns the envelope's `result` (and `result_info`). Throws ApiError. */
  async send<T>(
    request: ApiRequest,
  ): Promise<{ result: T; resultInfo: Record<string, unknown> | undefined }> {
    if (!this.credentials) {
      throw new ClientConfigError(
        "no credentials: set CLOUDFLARE_API_TOKEN, or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY",
      );
    }
    const retries = IDEMPOTENT.has(request.method) ? this.maxRetries : 0;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(request);
      const retryable = outcome.kind === "network" || outcome.status === 429 || outcome.status >= 500;
      if (attempt < retries && retryable) {
        await this.sleep(this.retryDelay(attempt, outcome.kind === "response" ? outcome.retryAfter : null));
        continue;
      }
      if (outcome.kind === "network")
        throw new ApiError(request.operation, "network", null, [], this.redact(outcome.detail));
      return this.unwrap<T>(request, outcome.status, outcome.text);
    }
  }

  private async attempt(
    request: ApiRequest,
  ): Promise<
    | { kind: "response"; status: number; text: string; retryAfter: string | null }
    | { kind: "network"; status: 0; detail: string }
  > {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      const init: RequestInit = {
        method: request.method,
        headers: this.headers(request, false),
        signal: controller.signal,
      };
      if (request.body !== undefined) init.body = JSON.stringify(request.body);
      const response = await this.fetchImpl(this.url(request), init);
      const text = await response.text();
      return {
        kind: "response",
        status: response.status,
        text,
        retryAfter: response.headers.get("retry-after"),
      };
    } catch (error) {
      if (controller.signal.aborted) {
        throw new ApiError(
          request.operation,
          "timeout",
          null,
          [],
          `no response within ${this.timeoutMs} ms (timeout) from ${request.method} ${this.url(request)}`,
        );
      }
      return {
        kind: "network",
        status: 0,
        detail: `cannot reach ${this.url(request)}: ${describeNetworkError(error)}`,
      };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Exponential backoff with jitter (0.5 s, 1 s, 2 s … less up to a quarter), or what `Retry-After` asks. */
  private retryDelay(attempt: number, retryAfter: string | null): number {
    const asked = retryAfter === null ? null : this.parseRetryAfter(retryAfter);
    if (asked !== null) return Math.min(asked, MAX_RETRY_DELAY_MS);
    const base = Math.min(500 * 2 ** attempt, 8_000);
    return Math.round(base * (1 - 0.25 * this.random()));
  }

  private parseRetryAfter(value: string): number | null {
    const trimmed = value.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
    const date = Date.parse(trimmed);
    return Number.isNaN(date) ? null : Math.max(0, date - this.now());
  }

  private unwrap<T>(
    request: ApiRequest,
    status: number,
    text: string,
  ): { result: T; resultInfo: Record<string, unknown> | undefined } {
    let envelope: Record<string, unknown> | null = null;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed !== null && typeof parsed === "object" && !Array.isArray(parsed))
        envelope = parsed as Record<string, unknown>;
    } catch {
      envelope = null;
    }
    const ok = status >= 200 && status < 300;
    if (envelope === null) {
      const what = ok
        ? "a response that is not a Cloudflare envelope"
        : "an error that is not a Cloudflare envelope";
      throw new ApiError(request.operation, ok ? "response" : "http", status, [], `HTTP ${status}: ${what}`);
    }
    const errors = this.envelopeErrors(envelope["errors"]);
    if (!ok || envelope["success"] !== true) {
      const listed = errors.map((e) => (e.code === null ? e.message : `[${e.code}] ${e.message}`)).join("; ");
      throw new ApiError(
        request.operation,
        "http",
        status,
        errors,
        `HTTP ${status}${listed ? `: ${listed}` : ": the service gave no error message"}`,
      );
    }
    return {
      result: envelope["result"] as T,
      resultInfo: (envelope["result_info"] as Record<string, unknown> | undefined) ?? undefined,
    };
  }

  private envelopeErrors(value: unknown): EnvelopeMessage[] {
    if (!Array.isArray(value)) return [];
    return value.map((entry) => {
      const item = (entry ?? {}) as { code?: unknown; message?: unknown };
      return {
        code: typeof item.code === "number" ? item.code : null,
        message: this.redact(typeof item.message === "string" ? item.message : JSON.stringify(entry)),
      };
    });
  }

  /** Removes any credential a message might echo back. */
  private redact(text: string): string {
    return this.secrets.reduce((result, secret) => result.split(secret).join(MASK), text);
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}
