export type { ApiDescription } from "./calls.js";
export { TOKEN_HEADER } from "./guard.js";
export { type ConsoleServer, startConsole } from "./server.js";
