import { peerDependencies, version } from "../../package.json";
import { hasControlCharacter, maskSecrets } from "../api/index.js";
import { type Location, r2Secret, s3Secret, secretValue } from "../sql/index.js";
import { installCommand, installKind } from "./install-hint.js";
import { UserError } from "./io.js";

type DuckDB = typeof import("@duckdb/node-api");
export type DuckDBConnection = Awaited<
  ReturnType<Awaited<ReturnType<DuckDB["DuckDBInstance"]["create"]>>["connect"]>
>;

/**
 * Embedded DuckDB, loaded only by the commands that query (an optional peer dependency: an install
 * without it still compiles, evaluates and serves), with the command that installs it when it is not.
 */
export async function openDuckDB(threads: number | undefined): Promise<DuckDBConnection> {
  let duckdb: DuckDB;
  try {
    duckdb = await import("@duckdb/node-api");
  } catch (error) {
    const spec = `@duckdb/node-api@${peerDependencies["@duckdb/node-api"]}`;
    const how = installKind();
    throw new UserError(
      `embedded DuckDB, the optional package @duckdb/node-api, is not installed beside filterc (${(error as Error).message.split("\n")[0]}); ${how.kind === "npx" ? "run it with both packages" : "install it with"}: ${installCommand(spec, version, how)}`,
    );
  }
  const instance = await duckdb.DuckDBInstance.create(
    ":memory:",
    threads === undefined ? {} : { threads: String(threads) },
  );
  return instance.connect();
}

/** Credentials for reading a bucket, from the environment; their values, for masking. */
interface RemoteAccess {
  statements: string[];
  secrets: string[];
}

/** Credentials as given and as `secretValue` writes them into a statement, which DuckDB may echo. */
const secretForms = (...values: string[]) =>
  values.flatMap((value) => [value, secretValue(value).slice(1, -1)]);

/**
 * The `CREATE SECRET` statements the remote locations need, with credentials from the usual
 * environment variables: AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (AWS_SESSION_TOKEN, AWS_REGION)
 * for s3://; R2_ACCESS_KEY_ID, R2_SECRET_ACCESS_KEY (else the AWS ones) and R2_ACCOUNT_ID (else
 * CLOUDFLARE_ACCOUNT_ID) for r2://. A bucket without them is an error naming what is missing.
 */
export function remoteAccess(
  locations: readonly Location[],
  env: Record<string, string | undefined>,
): RemoteAccess {
  const access: RemoteAccess = { statements: [], secrets: [] };
  const kinds = new Set(locations.map((location) => location.kind));
  const need = (names: string[], what: string) => {
    const value = names.map((name) => env[name]).find((found) => found !== undefined && found !== "");
    if (value === undefined)
      throw new UserError(`reading ${what} needs ${names.join(" or ")} in the environment`);
    if (hasControlCharacter(value))
      throw new UserError(`${names.find((name) => env[name] === value)} holds a control character`);
    return value;
  };
  if (kinds.has("s3")) {
    const keyId = need(["AWS_ACCESS_KEY_ID"], "s3:// buckets");
    const secret = need(["AWS_SECRET_ACCESS_KEY"], "s3:// buckets");
    const token = env["AWS_SESSION_TOKEN"];
    const region = env["AWS_REGION"] ?? env["AWS_DEFAULT_REGION"] ?? "us-east-1";
    access.secrets.push(...secretForms(keyId, secret, ...(token ? [token] : [])));
    access.statements.push(s3Secret({ keyId, secret, token, region }));
  }
  if (kinds.has("r2")) {
    const keyId = need(["R2_ACCESS_KEY_ID", "AWS_ACCESS_KEY_ID"], "r2:// buckets");
    const secret = need(["R2_SECRET_ACCESS_KEY", "AWS_SECRET_ACCESS_KEY"], "r2:// buckets");
    const account = need(["R2_ACCOUNT_ID", "CLOUDFLARE_ACCOUNT_ID"], "r2:// buckets");
    access.secrets.push(...secretForms(keyId, secret));
    access.statements.push(r2Secret({ keyId, secret, account }));
  }
  return access;
}

/**
 * DuckDB's error as a user error: the first lines of its message, credentials masked, and what to
 * do when the reason is that the extension for remote files cannot be loaded (no network).
 */
export function duckdbFailure(error: unknown, secrets: readonly string[]): UserError {
  const message = maskSecrets((error as Error).message ?? String(error), secrets);
  if (/Extension Autoloading Error|httpfs/.test(message))
    return new UserError(
      "DuckDB reads s3://, r2:// and https:// through its httpfs extension, which it could not load: it downloads it on first use, and the network did not answer. Install it once where DuckDB can reach extensions.duckdb.org (INSTALL httpfs), or copy the files and query them locally",
    );
  return new UserError(`DuckDB: ${message.split("\n")[0]}`);
}
