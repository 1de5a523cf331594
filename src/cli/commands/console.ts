import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { resolveScope } from "../../api/ids.js";
import {
  type CustomFieldsLimit,
  createClient,
  DEFAULT_BASE_URL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type LogpushClient,
  ValidationError,
} from "../../api/index.js";
import { type ApiDescription, type ConsoleServer, startConsole } from "../../console/index.js";
import { mergeSettings, terminalText } from "../../diagnostics/index.js";
import { moduleFile } from "../../files/index.js";
import { API_PREFIX, DEFAULT_DATA_DIR, type Sandbox, startSandbox } from "../../sandbox/index.js";
import { apiFlags, clientFrom } from "../api-common.js";
import { parseCommandArgs, parseCount } from "../args.js";
import { folderDefaults } from "../compiler-options.js";
import {
  CUSTOM_FIELDS_LIMIT_USAGE,
  customFieldsLimitFlag,
  customFieldsLimitFrom,
} from "../custom-fields-limit.js";
import { type CliIO, UsageError, UserError } from "../io.js";
import { untilStopped } from "../signals.js";
import { TUNING_USAGE, tuningFlags, tuningFromFlags } from "../tuning-flags.js";

/** The zone the page opens with on the embedded sandbox, which takes any ID: the API documentation's example. */
const SANDBOX_ZONE = "023e105f4ecef8ad9ca31a8372d0c353";

export const usage = `filterc console [--port N] [--data-dir DIR] [API options]

Serves the dashboard's two flows as a local web app on http://127.0.0.1: Custom Fields (Edit Custom
Fields, Set new Custom Field: Field Type, Field Name, Save) and Connect a service (Dataset, the data
fields, the Filter section's Field / Operator / Value rows joined with AND / OR beside the filter's
text, then Destination, Ownership challenge and Create job), with the jobs list. The first line it
prints is the page's address, with this run's access token. Stops on Ctrl-C (SIGINT) or SIGTERM.

With no API option it drives an embedded sandbox (as filterc sandbox), its state in --data-dir.
With --base-url or credentials it drives that API, a running filterc sandbox or Cloudflare's: this
server holds the credentials and makes every call, and the page never receives them. The
environment's CLOUDFLARE_* values are used then, but alone never turn the embedded sandbox off.

Options:
  --port N              port to listen on (default 0: a free port)
  --data-dir DIR        the embedded sandbox's state (default ${DEFAULT_DATA_DIR}); with --base-url,
                        the data directory of the filterc sandbox it names, where the console reads
                        the ownership challenge files for you
  --zone ID             the zone the page opens with (default CLOUDFLARE_ZONE_ID; on the embedded
                        sandbox, ${SANDBOX_ZONE})
  --account ID          the account the page opens with (default CLOUDFLARE_ACCOUNT_ID)
  --base-url URL        the API to drive (default CLOUDFLARE_BASE_URL, else
                        ${DEFAULT_BASE_URL})
  --api-token T, --email E --api-key K
                        its credentials (default CLOUDFLARE_API_TOKEN / CLOUDFLARE_EMAIL +
                        CLOUDFLARE_API_KEY; flags are visible in process lists)
  --timeout-ms N        per-request timeout in ms (default ${DEFAULT_TIMEOUT_MS})
  --max-retries N       retries of a GET, PUT or DELETE (default ${DEFAULT_MAX_RETRIES})
${CUSTOM_FIELDS_LIMIT_USAGE}
                        (the page counts against it; the embedded sandbox holds rules to it)
The filterc.json of the current folder sets the levels of the filters' warnings (diagnostics),
and so do these flags, over it:
${TUNING_USAGE}
Exit status: 0 stopped, 1 cannot serve (port in use, page not built, no credentials), 2 usage.`;

/** The built page ships beside the CLI bundle, in dist/console. */
const pageFolder = join(dirname(moduleFile(import.meta.url)), "console/");

const { "dry-run": _dryRun, json: _json, ...consoleApiFlags } = apiFlags;

const nonEmpty = (value: string | undefined) => (value === undefined || value === "" ? undefined : value);

/**
 * A zone or account ID from its flag, else the environment, checked as the client checks it; a
 * mistake names where the ID came from.
 */
function scopeId(kind: "zone" | "account", flag: string | undefined, env: CliIO["env"]): string | undefined {
  const variable = kind === "zone" ? "CLOUDFLARE_ZONE_ID" : "CLOUDFLARE_ACCOUNT_ID";
  const value = nonEmpty(flag) ?? nonEmpty(env[variable]);
  if (value === undefined) return undefined;
  try {
    resolveScope(kind === "zone" ? { zoneId: value } : { accountId: value }, "console");
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const message = error.problems[0]!.message;
    if (nonEmpty(flag) !== undefined) throw new UsageError(`--${kind}: ${message}`);
    throw new UserError(`${variable}: ${message}`);
  }
  return value;
}

/** The API's address as the page is told it: no user or password a URL might hold. */
function shownUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.origin}${url.pathname}`;
}

interface Api {
  client: LogpushClient;
  description: ApiDescription;
  secrets: string[];
  challengeFolder: string | undefined;
  sandbox?: Sandbox;
}

async function embeddedSandbox(
  dataDir: string,
  io: CliIO,
  customFieldsLimit: CustomFieldsLimit,
): Promise<Api> {
  const folder = resolve(io.cwd, dataDir);
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({
      port: 0,
      dataDir: folder,
      customFieldsLimit,
      log: (line) => io.stderr(`${line}\n`),
    });
  } catch (error) {
    throw new UserError(`cannot start the embedded sandbox: ${(error as Error).message}`);
  }
  const token = sandbox.token!;
  const baseUrl = `${sandbox.url}${API_PREFIX}`;
  return {
    client: createClient({ baseUrl, apiToken: token, env: {}, customFieldsLimit }),
    description: { kind: "embedded sandbox", url: baseUrl, dataDir },
    secrets: [token],
    challengeFolder: folder,
    sandbox,
  };
}

function givenApi(
  values: Record<string, string | boolean | undefined>,
  io: CliIO,
  customFieldsLimit: CustomFieldsLimit,
): Api {
  const flag = (name: string) => nonEmpty(values[name] as string | undefined);
  const token = flag("api-token") ?? nonEmpty(io.env["CLOUDFLARE_API_TOKEN"]);
  const email = flag("email") ?? nonEmpty(io.env["CLOUDFLARE_EMAIL"]);
  const key = flag("api-key") ?? nonEmpty(io.env["CLOUDFLARE_API_KEY"]);
  if (token === undefined && (email === undefined || key === undefined))
    throw new UserError(
      "no credentials for the API: give --api-token (or --email and --api-key), or set CLOUDFLARE_API_TOKEN",
    );
  const client = clientFrom(values, io, { customFieldsLimit });
  const dataDir = flag("data-dir");
  return {
    client,
    description: { kind: "api", url: shownUrl(client.transport.baseUrl) },
    secrets: [token, key].filter((secret): secret is string => secret !== undefined),
    challengeFolder: dataDir === undefined ? undefined : resolve(io.cwd, dataDir),
  };
}

export async function run(argv: string[], io: CliIO): Promise<number> {
  const { values: all } = parseCommandArgs(
    argv,
    {
      port: { type: "string" },
      "data-dir": { type: "string" },
      ...consoleApiFlags,
      ...tuningFlags,
      ...customFieldsLimitFlag,
    },
    false,
  );
  const { deny, allow, "custom-fields-limit": limitFlag, ...values } = all;
  const customFieldsLimit = customFieldsLimitFrom({ "custom-fields-limit": limitFlag });
  for (const name of ["data-dir", "api-token", "email", "api-key", "base-url"] as const)
    if (values[name] === "") throw new UsageError(`--${name} is empty; give a value`);
  if ((values.email === undefined) !== (values["api-key"] === undefined))
    throw new UsageError("--email and --api-key go together");
  const port = parseCount(values.port, "--port", 0, 65535) ?? 0;
  const flagged = tuningFromFlags({ deny, allow });
  const folder = (await folderDefaults(io, undefined)).diagnostics;
  const diagnostics =
    folder === undefined && flagged === undefined ? undefined : mergeSettings(folder, flagged);
  const drivesGivenApi = ["base-url", "api-token", "email", "api-key"].some(
    (name) => values[name as keyof typeof values] !== undefined,
  );
  let zoneId = scopeId("zone", values.zone, io.env);
  const accountId = scopeId("account", values.account, io.env);
  const given = drivesGivenApi ? givenApi(values, io, customFieldsLimit) : undefined;
  if (!existsSync(`${pageFolder}index.html`))
    throw new UserError("the console page is not built; run npm run build");
  const dataDir = values["data-dir"] ?? DEFAULT_DATA_DIR;
  const api = given ?? (await embeddedSandbox(dataDir, io, customFieldsLimit));
  if (!drivesGivenApi && zoneId === undefined && accountId === undefined) zoneId = SANDBOX_ZONE;
  let server: ConsoleServer;
  try {
    server = await startConsole({
      client: api.client,
      api: api.description,
      pageFolder,
      port,
      secrets: api.secrets,
      zoneId,
      accountId,
      challengeFolder: api.challengeFolder,
      diagnostics,
      log: (line) => io.stderr(`${line}\n`),
    });
  } catch (error) {
    await api.sandbox?.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE") throw new UserError(`port ${port} is in use; choose another with --port`);
    if (code === "EACCES") throw new UserError(`no permission to listen on port ${port}`);
    throw error;
  }
  // Listen for the signals before printing the address: whoever reads it may stop the server at once.
  const stopped = untilStopped();
  const lines = [
    server.url,
    api.description.kind === "embedded sandbox"
      ? `API: the embedded sandbox, its state in ${terminalText(dataDir)} (the default; --base-url drives another API)`
      : `API: ${terminalText(api.description.url)} (its credentials stay in this process)`,
  ];
  if (zoneId !== undefined) lines.push(`zone: ${zoneId}`);
  if (accountId !== undefined) lines.push(`account: ${accountId}`);
  io.stdout(`${lines.join("\n")}\n`);
  const signal = await stopped;
  await server.close();
  await api.sandbox?.close();
  io.stderr(`filterc console: stopped (${signal})\n`);
  return 0;
}
