export type { Credentials } from "./auth.js";
export { ErrorCode } from "./errors.js";
export { DEFAULT_INSTANT_LOGS_OPTIONS } from "./instant-logs.js";
export {
  API_PREFIX,
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_DATA_DIR,
  DEFAULT_MAX_INGEST_INFLATED_BYTES,
  DEFAULT_MAX_INGEST_LINES,
  DEFAULT_MIN_BODY_BYTES_PER_SECOND,
  DEFAULT_PORT,
  DEFAULT_SHUTDOWN_GRACE_MS,
  type Sandbox,
  type SandboxOptions,
  startSandbox,
} from "./server.js";
