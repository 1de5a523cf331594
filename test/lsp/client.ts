import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import {
  createProtocolConnection,
  type ProtocolConnection,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { builtCli } from "../helpers/bundles.js";

/** A language client talking to a spawned `filterc lsp --stdio`, as an editor would. */
export interface TestClient {
  connection: ProtocolConnection;
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the next diagnostics published for `uri` after the call. */
  nextDiagnostics(uri: string): Promise<PublishDiagnosticsParams>;
  /** Every diagnostics notification received, in order. */
  published: PublishDiagnosticsParams[];
  /** Resolves with the exit code once the server process ends. */
  exited: Promise<number | null>;
}

/** Starts the server; `nodeArgs` go to Node (`--max-old-space-size=40` caps its heap). */
export function startClient(args: string[] = [], nodeArgs: string[] = []): TestClient {
  const child = spawn(process.execPath, [...nodeArgs, builtCli(), "lsp", "--stdio", ...args], {
    stdio: "pipe",
  });
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  const published: PublishDiagnosticsParams[] = [];
  const waiting: { uri: string; resolve: (params: PublishDiagnosticsParams) => void }[] = [];
  connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
    published.push(params);
    for (let i = 0; i < waiting.length; i++) {
      if (waiting[i]!.uri === params.uri) {
        waiting[i]!.resolve(params);
        waiting.splice(i--, 1);
      }
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  connection.listen();
  return {
    connection,
    child,
    published,
    exited,
    nextDiagnostics: (uri) => new Promise((resolve) => waiting.push({ uri, resolve })),
  };
}
