import { startStdioServer } from "../../../src/lsp/server.js";

// The language server bundled with the extension: `filterc lsp --stdio`, with the settings the
// editor gives it.
startStdioServer();
