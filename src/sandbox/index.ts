export type { Credentials } from "./auth.js";
export { ErrorCode } from "./errors.js";
export {
  API_PREFIX,
  DEFAULT_PORT,
  DEFAULT_SHUTDOWN_GRACE_MS,
  type Sandbox,
  type SandboxOptions,
  startSandbox,
} from "./server.js";
