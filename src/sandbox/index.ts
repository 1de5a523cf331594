export type { Credentials } from "./auth.js";
export { ErrorCode } from "./errors.js";
export { API_PREFIX, DEFAULT_PORT, type Sandbox, type SandboxOptions, startSandbox } from "./server.js";
