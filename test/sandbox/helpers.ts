import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import Cloudflare from "cloudflare";
import { afterEach, beforeEach, expect } from "vitest";
import { type Sandbox, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";
import type { Job } from "../../src/sandbox/model.js";
import { builtCli } from "../helpers/bundles.js";

export const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";
export const OTHER_ZONE = "9a7806061c88ada191ed06f989cc3dac";
export const TOKEN = "sandbox-test-token";

/** Cloudflare's forms: 32-hex ids, digit-string versions, ISO timestamps with microseconds. */
export const HEX_ID = /^[0-9a-f]{32}$/;
export const MICRO_TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;

export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), "filterc-sandbox-"));
}

export interface Running {
  sandbox: Sandbox;
  dataDir: string;
  api: string;
  stop(): Promise<void>;
}

/** A sandbox on a free port with a fresh data directory (or the one given, to test restarts). */
export async function runSandbox(options: Partial<SandboxOptions> = {}): Promise<Running> {
  const dataDir = options.dataDir ?? (await tempDir());
  const sandbox = await startSandbox({ apiToken: TOKEN, ...options, dataDir, port: 0 });
  return {
    sandbox,
    dataDir,
    api: `${sandbox.url}/client/v4`,
    stop: async () => {
      await sandbox.close();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The official SDK pointed at the sandbox; no retries, so every failure shows as it is. */
export function sdk(running: Running, auth: { apiToken?: string; apiEmail?: string; apiKey?: string } = {}) {
  const credentials = Object.keys(auth).length ? auth : { apiToken: TOKEN };
  return new Cloudflare({ ...credentials, baseURL: running.api, maxRetries: 0 });
}

/** What the official SDK rejected with: the HTTP status and the envelope's errors. */
/** A sandbox started before each test and stopped after it, with the official SDK pointed at it. */
export function sandboxForEachTest(): { running: Running; client: Cloudflare } {
  const current = {} as { running: Running; client: Cloudflare };
  beforeEach(async () => {
    current.running = await runSandbox();
    current.client = sdk(current.running);
  });
  afterEach(() => current.running.stop());
  return current;
}

export async function sdkRejection(promise: Promise<unknown>): Promise<{ status: number; errors: unknown }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Cloudflare.APIError);
  const apiError = error as InstanceType<typeof Cloudflare.APIError>;
  return { status: apiError.status as number, errors: apiError.errors };
}

/** A raw request, for what the SDK would refuse to send. */
export async function call(
  running: Running,
  method: string,
  path: string,
  body?: string | object,
  headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` },
): Promise<{ status: number; json: unknown }> {
  const response = await fetch(`${running.api}${path}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, json: text === "" ? null : JSON.parse(text) };
}

export function failure(code: number, message: string, pointer?: string) {
  const error = pointer === undefined ? { code, message } : { code, message, source: { pointer } };
  return { result: null, success: false, errors: [error], messages: [] };
}

/** Every file under `dir`, as paths relative to it, sorted. */
export async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

/** The ownership challenge dance: ask for a challenge, read the token from the file it wrote. */
export async function ownershipToken(
  client: Cloudflare,
  running: Running,
  destination: string,
): Promise<string> {
  const { readFile } = await import("node:fs/promises");
  const challenge = await client.logpush.ownership.create({ zone_id: ZONE, destination_conf: destination });
  return readFile(join(running.dataDir, challenge!.filename!), "utf8");
}

/**
 * A job as the sandbox stores and serves it, each field at a new job's value but the ones given: for
 * tests that write state files by hand or read them back (jobs-sdk.test.ts spells out the record the
 * API answers with once, in full).
 */
export function storedJob(id: number, fields: Partial<Job> = {}): Job {
  return {
    id,
    dataset: "http_requests",
    enabled: false,
    name: null,
    kind: "",
    destination_conf: "",
    filter: "",
    logpull_options: null,
    output_options: null,
    frequency: "high",
    max_upload_bytes: null,
    max_upload_interval_seconds: null,
    max_upload_records: null,
    error_message: null,
    last_complete: null,
    last_error: null,
    ...fields,
  } as Job;
}

/** A gzip body of `count` short NDJSON lines: tens of kilobytes sent, seconds of work. */
export function bombOf(count: number): Buffer {
  return gzipSync(Buffer.from(`{"RayID":"a"}\n`.repeat(count)), { level: 9 });
}

/**
 * Starts the built `filterc sandbox` on a free port with `dataDir` and the test token, more `args`
 * after them, and waits for the API address it prints.
 */
export async function spawnSandbox(
  dataDir: string,
  args: string[] = [],
  { fileBlocks }: { fileBlocks?: number } = {},
): Promise<{ child: ChildProcess; api: string; log: () => string }> {
  const command = [
    builtCli(),
    "sandbox",
    "--port",
    "0",
    "--data-dir",
    dataDir,
    "--api-token",
    TOKEN,
    ...args,
  ];
  // Under `ulimit -f BLOCKS` (of 512 bytes): a write past it fails as on a full disk.
  const child =
    fileBlocks === undefined
      ? spawn(process.execPath, command)
      : spawn("sh", ["-c", `ulimit -f ${fileBlocks} && exec "$@"`, "sh", process.execPath, ...command]);
  let output = "";
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const api = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
      const match = /listening on (\S+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
  return { child, api, log: () => output };
}
