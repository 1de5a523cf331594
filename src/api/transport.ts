import {
  InvalidArgumentError,
  isObject,
  isString,
  type NamedOption,
  type OptionLabels,
  optionLabel,
} from "../diagnostics/index.js";
import { type CustomFieldsLimit, DEFAULT_CUSTOM_FIELDS_LIMIT, isCustomFieldsLimit } from "./custom-fields.js";
import { destinationSecrets, maskDestination } from "./destination.js";
import { ApiError, ClientConfigError, type EnvelopeMessage } from "./errors.js";
import { maskAnswer } from "./masked-answer.js";
import { hasControlCharacter, MASK, maskSecrets } from "./secrets.js";

/** The Cloudflare API address a client uses unless told another (`baseUrl`, `CLOUDFLARE_API_BASE_URL`). */
export const DEFAULT_BASE_URL = "https://api.cloudflare.com/client/v4";
/** How long a client waits for one response, in milliseconds (`timeoutMs`). */
export const DEFAULT_TIMEOUT_MS = 30_000;
/**
 * How many times a client retries an idempotent request (GET, PUT, DELETE) on 429, 5xx, a timeout or a network failure
 * (`maxRetries`).
 */
export const DEFAULT_MAX_RETRIES = 2;
/** The longest `Retry-After` waited out (option maxRetryDelayMs); a longer one ends the call with the service's answer. */
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;
/**
 * The longest delay a timer takes (2^31 - 1 ms, about 24.8 days): a longer one fires at once, in
 * Node and in browsers, so timeoutMs and maxRetryDelayMs are refused past it rather than turned
 * into waits of a millisecond.
 */
export const MAX_TIMEOUT_MS = 2_147_483_647;
/** Same-origin redirects followed, at most; a redirect to another origin is never followed. */
const MAX_REDIRECTS = 3;
/**
 * The most bytes read of one response, after any Content-Encoding is undone (option
 * maxResponseBytes): an endless body, or a gzip answer that inflates a thousandfold, is never held
 * whole. A list of a thousand jobs is about 2 MB.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
/**
 * The largest maxResponseBytes: a body becomes one string (V8 holds at most 2^29 - 24 UTF-16
 * units) and JSON.parse builds a value of about its size again.
 */
export const MAX_RESPONSE_BYTES = 256 * 1024 * 1024;
/**
 * The most pages of a list read by one call (option maxPages): a service that hands out a new
 * cursor each time would be read without end.
 */
export const DEFAULT_MAX_PAGES = 100;
/**
 * How many times a write of the custom fields is done again when another write landed between its
 * read and its own (option maxConflictRetries): each retry reads what the other wrote and keeps it.
 */
export const DEFAULT_MAX_CONFLICT_RETRIES = 8;
/** The Content-Encodings fetch undoes (in Node and in browsers), one at a time; any other is refused. */
const DECODED_ENCODINGS: ReadonlySet<string> = new Set(["gzip", "x-gzip", "deflate", "br"]);

/** The HTTP methods the client sends. */
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
  /** The shape `result` must have; anything else is an error naming the operation. */
  expects: ResultShape;
  /** Destinations besides the body's whose credentials an error may echo (an updated job's own). */
  destinations?: readonly string[];
}

/** What an operation's `result` is: checked before anyone reads it. */
type ResultShape = "object" | "array" | "object or null" | "any";

/** An answer unwrapped: the envelope's `result` and `result_info`. */
export interface Envelope<T> {
  result: T;
  resultInfo: Record<string, unknown> | undefined;
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

/** Options of `createClient`: credentials, address and the limits of each request (every limit has a `DEFAULT_*`). */
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
  /** Retries of idempotent calls (GET, PUT, DELETE) on 429, 5xx, timeouts and network failures (default 2). */
  maxRetries?: number;
  /** The longest `Retry-After` waited out, in milliseconds (default 60,000). */
  maxRetryDelayMs?: number;
  /** How messages name the options (`timeoutMs`, `maxRetryDelayMs`): see OptionLabels. */
  optionLabels?: OptionLabels;
  /** The most bytes read of one response, after decompression (default 16 MiB, at most 256 MiB). */
  maxResponseBytes?: number;
  /** The most pages of a paginated list read by one call (default 100). */
  maxPages?: number;
  /** The custom-field limits checked before a write: `service` (default, 100 in each list) or `seed` (40 in all). */
  customFieldsLimit?: CustomFieldsLimit;
  /** Writes of the custom fields done again after another write got in between (default 8). */
  maxConflictRetries?: number;
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

/** A whole-number option in least…most, or the configuration error that names it. */
function wholeOption(name: string, value: number, least: number, most: number): number {
  if (Number.isInteger(value) && value >= least && value <= most) return value;
  throw new ClientConfigError(
    `${name} must be a whole number from ${least} to ${most}, not ${String(value)}`,
  );
}

const isFunction = (value: unknown) => typeof value === "function";

/** The options a type error would break, with what each takes; numbers are checked by wholeOption. */
const clientOptionShapes: Record<string, [(value: unknown) => boolean, string]> = {
  apiToken: [isString, "a string"],
  email: [isString, "a string"],
  apiKey: [isString, "a string"],
  baseUrl: [isString, "a string"],
  env: [isObject, "an object of environment variables"],
  optionLabels: [isObject, "an object of labels"],
  customFieldsLimit: [isCustomFieldsLimit, '"service" or "seed"'],
  fetch: [isFunction, "a function like fetch"],
  sleep: [isFunction, "a function"],
  random: [isFunction, "a function"],
  now: [isFunction, "a function"],
};

const nonEmpty = (value: string | undefined) => (value === undefined || value === "" ? undefined : value);

const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(["GET", "PUT", "DELETE"]);

/**
 * Sends requests: auth headers, the envelope unwrapped, a timeout on every attempt, retries with
 * backoff, every body read to a bound. It holds the bounds of a call, the pages of a list included.
 */
export class Transport {
  readonly baseUrl: string;
  readonly maxPages: number;
  readonly customFieldsLimit: CustomFieldsLimit;
  readonly maxConflictRetries: number;
  private readonly credentials: Credentials;
  private readonly secrets: string[];
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly maxRetryDelayMs: number;
  private readonly optionLabels: OptionLabels | undefined;
  private readonly maxResponseBytes: number;
  private readonly fetchImpl: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;

  constructor(options: ClientOptions = {}) {
    for (const [name, [test, expected]] of Object.entries(clientOptionShapes))
      if (options[name as keyof ClientOptions] !== undefined && !test(options[name as keyof ClientOptions]))
        throw new InvalidArgumentError(
          "createClient",
          `options.${name}`,
          expected,
          options[name as keyof ClientOptions],
        );
    const env = options.env ?? defaultEnv();
    const baseUrl = nonEmpty(options.baseUrl) ?? nonEmpty(env["CLOUDFLARE_BASE_URL"]) ?? DEFAULT_BASE_URL;
    if (!/^https?:\/\/[^/\s]+/.test(baseUrl))
      throw new ClientConfigError(
        `the base URL must start with https:// or http://, not ${JSON.stringify(maskDestination(baseUrl))}`,
      );
    // fetch refuses such a URL, and every error and dry run would show the password.
    if (/^[a-z]+:\/\/[^/?#]*@/i.test(baseUrl))
      throw new ClientConfigError(
        `the base URL holds a user name or password (${maskDestination(baseUrl)}): give credentials with CLOUDFLARE_API_TOKEN, or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY`,
      );
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    const token = credential(options.apiToken, env, "CLOUDFLARE_API_TOKEN", "the API token");
    const email = credential(options.email, env, "CLOUDFLARE_EMAIL", "the email");
    const key = credential(options.apiKey, env, "CLOUDFLARE_API_KEY", "the API key");
    this.credentials = token ? { kind: "token", token } : email && key ? { kind: "key", email, key } : null;
    this.secrets = [token, key].filter((s): s is string => s !== undefined);
    this.timeoutMs = wholeOption("timeoutMs", options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1, MAX_TIMEOUT_MS);
    this.maxRetries = wholeOption(
      "maxRetries",
      options.maxRetries ?? DEFAULT_MAX_RETRIES,
      0,
      Number.MAX_SAFE_INTEGER,
    );
    this.maxRetryDelayMs = wholeOption(
      "maxRetryDelayMs",
      options.maxRetryDelayMs ?? DEFAULT_MAX_RETRY_DELAY_MS,
      0,
      MAX_TIMEOUT_MS,
    );
    this.optionLabels = options.optionLabels;
    this.maxResponseBytes = wholeOption(
      "maxResponseBytes",
      options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      1,
      MAX_RESPONSE_BYTES,
    );
    this.maxPages = wholeOption(
      "maxPages",
      options.maxPages ?? DEFAULT_MAX_PAGES,
      1,
      Number.MAX_SAFE_INTEGER,
    );
    this.customFieldsLimit = options.customFieldsLimit ?? DEFAULT_CUSTOM_FIELDS_LIMIT;
    this.maxConflictRetries = wholeOption(
      "maxConflictRetries",
      options.maxConflictRetries ?? DEFAULT_MAX_CONFLICT_RETRIES,
      0,
      Number.MAX_SAFE_INTEGER,
    );
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
      body: request.body === undefined ? null : JSON.stringify(request.body, maskDestinationMember),
    };
  }

  /**
   * `answer` fit to show (see maskAnswer): the credentials masked wherever the service echoes them,
   * and, unless `showDestinations`, every destination's credentials, those of `destinations` too.
   */
  masked<T>(answer: T, destinations: readonly string[], showDestinations: boolean): T {
    const secrets = showDestinations
      ? this.secrets
      : [...this.secrets, ...destinations.flatMap(destinationSecrets)];
    return maskAnswer(answer, secrets, showDestinations) as T;
  }

  /** Sends the request and returns the envelope's `result` (and `result_info`). Throws ApiError. */
  async send<T>(request: ApiRequest): Promise<Envelope<T>> {
    if (!this.credentials) {
      throw new ClientConfigError(
        "no credentials: set CLOUDFLARE_API_TOKEN, or CLOUDFLARE_EMAIL and CLOUDFLARE_API_KEY",
      );
    }
    const retries = IDEMPOTENT.has(request.method) ? this.maxRetries : 0;
    const secrets = [...this.secrets, ...requestSecrets(request)];
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(request, secrets);
      // A body refused (too large, an encoding fetch does not undo) would be refused again.
      if (outcome.kind === "refused")
        throw new ApiError(
          request.operation,
          "response",
          outcome.status,
          [],
          `HTTP ${outcome.status}: ${outcome.detail}`,
          outcome.limit,
        );
      const retryable = outcome.kind !== "response" || outcome.status === 429 || outcome.status >= 500;
      if (attempt < retries && retryable) {
        const asked = outcome.kind === "response" ? this.parseRetryAfter(outcome.retryAfter) : null;
        if (asked !== null && asked > this.maxRetryDelayMs && outcome.kind === "response")
          return this.unwrap<T>(request, outcome.status, outcome.text, secrets, [
            `the service asked to retry after ${Math.ceil(asked / 1000)} s, longer than the ${this.maxRetryDelayMs / 1000} s filterc waits${this.setBy("maxRetryDelayMs")}: not retried`,
          ]);
        await this.sleep(asked ?? this.backoff(attempt));
        continue;
      }
      if (outcome.kind === "timeout")
        throw new ApiError(
          request.operation,
          "timeout",
          null,
          [],
          `no response within ${this.timeoutMs} ms${this.setBy("timeoutMs")} from ${request.method} ${this.url(request)}${attempt > 0 ? ` (${attempt + 1} attempts)` : ""}`,
        );
      if (outcome.kind === "network")
        throw new ApiError(request.operation, "network", null, [], maskSecrets(outcome.detail, secrets));
      return this.unwrap<T>(request, outcome.status, outcome.text, secrets, []);
    }
  }

  /** ` (option timeoutMs)`: where the limit a message gives is set, as the caller names it. */
  private setBy(name: NamedOption): string {
    const label = optionLabel(this.optionLabels, name);
    return label === undefined ? "" : ` (${label})`;
  }

  private async attempt(
    request: ApiRequest,
    secrets: readonly string[],
  ): Promise<
    | { kind: "response"; status: number; text: string; retryAfter: string | null }
    | { kind: "refused"; status: number; detail: string; limit?: "maxResponseBytes" }
    | { kind: "network"; detail: string }
    | { kind: "timeout" }
  > {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.timeoutMs);
    try {
      const init: RequestInit = {
        method: request.method,
        headers: this.headers(request, false),
        signal: controller.signal,
        redirect: "manual",
      };
      if (request.body !== undefined) init.body = JSON.stringify(request.body);
      let url = this.url(request);
      let response = await this.fetchImpl(url, init);
      for (
        let hops = 0;
        response.status >= 300 && response.status < 400 && response.headers.has("location");
        hops++
      ) {
        const next = new URL(response.headers.get("location")!, url);
        if (next.origin !== new URL(url).origin || hops === MAX_REDIRECTS) {
          const why =
            hops === MAX_REDIRECTS
              ? `more than ${MAX_REDIRECTS} redirects`
              : `a redirect to another origin (${maskSecrets(next.origin, secrets)}) is not followed: credentials go to the API's origin only`;
          return { kind: "network", detail: `HTTP ${response.status} from ${url}: ${why}` };
        }
        url = next.href;
        response = await this.fetchImpl(url, init);
      }
      const body = await readBody(response, this.maxResponseBytes);
      if ("refused" in body)
        return body.tooLarge
          ? { kind: "refused", status: response.status, detail: body.refused, limit: "maxResponseBytes" }
          : { kind: "refused", status: response.status, detail: body.refused };
      return {
        kind: "response",
        status: response.status,
        text: body.text,
        retryAfter: response.headers.get("retry-after"),
      };
    } catch (error) {
      if (controller.signal.aborted) return { kind: "timeout" };
      return { kind: "network", detail: `cannot reach ${this.url(request)}: ${describeNetworkError(error)}` };
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The wait before a write is done again after a conflict: 50 ms, 100 ms, 200 ms … (at most 2 s),
   * less up to a half, so that writers that met do not meet again.
   */
  async pauseAfterConflict(attempt: number): Promise<void> {
    const base = Math.min(50 * 2 ** attempt, 2_000);
    await this.sleep(Math.round(base * (1 - 0.5 * this.random())));
  }

  /** Exponential backoff with jitter: 0.5 s, 1 s, 2 s … (at most 8 s), less up to a quarter. */
  private backoff(attempt: number): number {
    const base = Math.min(500 * 2 ** attempt, 8_000);
    return Math.round(base * (1 - 0.25 * this.random()));
  }

  private parseRetryAfter(value: string | null): number | null {
    if (value === null) return null;
    const trimmed = value.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
    const date = Date.parse(trimmed);
    return Number.isNaN(date) ? null : Math.max(0, date - this.now());
  }

  private unwrap<T>(
    request: ApiRequest,
    status: number,
    text: string,
    secrets: readonly string[],
    notes: readonly string[],
  ): Envelope<T> {
    const noted = notes.map((note) => `; ${note}`).join("");
    let envelope: Record<string, unknown> | null = null;
    try {
      const parsed: unknown = JSON.parse(exactIds(text));
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
      throw new ApiError(
        request.operation,
        ok ? "response" : "http",
        status,
        [],
        `HTTP ${status}: ${what}${noted}`,
      );
    }
    const errors = envelopeErrors(envelope["errors"], secrets);
    if (!ok || envelope["success"] !== true) {
      const listed = errors.map((e) => (e.code === null ? e.message : `[${e.code}] ${e.message}`)).join("; ");
      throw new ApiError(
        request.operation,
        "http",
        status,
        errors,
        `HTTP ${status}${listed ? `: ${listed}` : ": the service gave no error message"}${noted}`,
      );
    }
    const result = envelope["result"];
    const shape = shapeOf(result);
    const fits =
      request.expects === "any" ||
      shape === request.expects ||
      (request.expects === "object or null" && (shape === "object" || shape === "null"));
    if (!fits)
      throw new ApiError(
        request.operation,
        "response",
        status,
        [],
        `HTTP ${status}: the service answered with ${SHAPE_WORDS[shape] ?? `a ${shape} result`} where ${SHAPE_WORDS[request.expects]} was due`,
      );
    const info = envelope["result_info"];
    return {
      result: result as T,
      resultInfo: info !== null && typeof info === "object" ? (info as Record<string, unknown>) : undefined,
    };
  }
}

/**
 * The body as text, read through its reader to at most `limit` bytes after fetch has undone its
 * Content-Encoding, so that an endless body and a gzip bomb alike stop at the bound; or why it was
 * not read: larger than the bound, or encoded in a way fetch does not undo (an unknown coding, or
 * several stacked, which no API answer needs).
 */
async function readBody(
  response: Response,
  limit: number,
): Promise<{ text: string } | { refused: string; tooLarge: boolean }> {
  const header = response.headers.get("content-encoding") ?? "";
  const encodings = header
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
  const refuse = async (refused: string, tooLarge: boolean) => {
    await response.body?.cancel().catch(() => undefined);
    return { refused, tooLarge };
  };
  if (encodings.length > 1 || (encodings.length === 1 && !DECODED_ENCODINGS.has(encodings[0]!)))
    return refuse(
      `the response is encoded as ${JSON.stringify(header.length > 60 ? `${header.slice(0, 60)}…` : header)} (Content-Encoding); filterc reads one of ${[...DECODED_ENCODINGS].join(", ")}, or none`,
      false,
    );
  const tooLarge = `the response is larger than ${limit} bytes (maxResponseBytes); not read further`;
  // An honest Content-Length past the bound spares reading up to it.
  if (encodings.length === 0 && Number(response.headers.get("content-length")) > limit)
    return refuse(tooLarge, true);
  if (!response.body) return { text: "" };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  for (let length = 0; ; ) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode() };
    length += value.byteLength;
    if (length > limit) {
      await reader.cancel().catch(() => undefined);
      return { refused: tooLarge, tooLarge: true };
    }
    text += decoder.decode(value, { stream: true });
  }
}

function envelopeErrors(value: unknown, secrets: readonly string[]): EnvelopeMessage[] {
  if (!Array.isArray(value)) return [];
  return value.map((entry) => {
    const item = (entry ?? {}) as { code?: unknown; message?: unknown };
    const message = typeof item.message === "string" ? item.message : JSON.stringify(entry);
    return { code: typeof item.code === "number" ? item.code : null, message: maskSecrets(message, secrets) };
  });
}

/** The credentials of the request's destinations (its body's, and those it names), masked in whatever the server echoes. */
function requestSecrets(request: ApiRequest): string[] {
  const destination = (request.body as { destination_conf?: unknown } | undefined)?.destination_conf;
  const destinations = [
    ...(request.destinations ?? []),
    ...(typeof destination === "string" ? [destination] : []),
  ];
  return destinations.flatMap(destinationSecrets);
}

/** A JSON.stringify replacer that shows a body's `destination_conf` with its credentials masked. */
function maskDestinationMember(this: unknown, key: string, value: unknown): unknown {
  return key === "destination_conf" && typeof value === "string" ? maskDestination(value) : value;
}

/**
 * A credential from its option or the environment; empty is none. One holding CR, LF or another
 * control character is refused: no header can carry it, and it is usually a pasted newline.
 */
function credential(
  option: string | undefined,
  env: Record<string, string | undefined>,
  name: string,
  what: string,
): string | undefined {
  const value = nonEmpty(option) ?? nonEmpty(env[name]);
  if (value !== undefined && hasControlCharacter(value))
    throw new ClientConfigError(
      `${what} (${nonEmpty(option) === undefined ? name : "given as an option"}) holds a control character (a line break or a tab?); remove it`,
    );
  return value;
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message ?? String(error);
}

const SHAPE_WORDS: Record<string, string> = {
  missing: "no result",
  null: "a null result",
  array: "a list",
  object: "an object",
  "object or null": "an object or null",
};

function shapeOf(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value === "object" ? "object" : typeof value;
}

/**
 * Job IDs beyond 2^53 kept exact: an `"id"` member holding a whole number of 16 digits or more is
 * read as a string of its digits (JSON.parse would round it to the nearest double).
 */
function exactIds(text: string): string {
  return text.replace(/("id"\s*:\s*)(\d{16,})(?=\s*[,}])/g, (whole, key: string, digits: string) =>
    Number.isSafeInteger(Number(digits)) ? whole : `${key}"${digits}"`,
  );
}
