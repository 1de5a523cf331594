import {
  CodeActionKind,
  CodeLensRefreshRequest,
  type Connection,
  createConnection,
  DiagnosticSeverity,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  type InitializeParams,
  type InitializeResult,
  type Diagnostic as LspDiagnostic,
  ProposedFeatures,
  StreamMessageWriter,
  TextDocumentSyncKind,
  TextDocuments,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { DEFAULT_DATASET } from "../catalog/index.js";
import { CONFIG_FILE_NAME } from "../files/index.js";
import { type ServiceOptions, semanticTokenLegend } from "../service/index.js";
import { compileAnswer } from "./compile-request.js";
import {
  toLspCodeAction,
  toLspCompletion,
  toLspDiagnostic,
  toLspHover,
  toLspSemanticTokens,
  toLspTextEdit,
  toOffsets,
} from "./convert.js";
import { DocumentSettings } from "./document-settings.js";
import { EDITOR_FEATURE_CAPABILITIES, registerEditorFeatures } from "./editor-features.js";
import { DEFAULT_FRAME_LIMITS, StrictFrameReader } from "./frames.js";
import { COMPILE_REQUEST, type CompileAnswer, type CompileParams } from "./protocol.js";
import { sampleLenses } from "./sample-lens.js";
import { applySettings, SETTINGS_SECTION } from "./settings.js";
import { isTerraformDocument, terraformDiagnostics } from "./terraform-diagnostics.js";
import { testLenses } from "./test-lens.js";

/** Language ids editors give filter documents; any document whose URI ends in `.lpf` counts too. */
export const LANGUAGE_IDS: readonly string[] = ["logpush-filter", "lpf"];

export function isFilterDocument(document: TextDocument): boolean {
  return LANGUAGE_IDS.includes(document.languageId) || /\.lpf$/i.test(document.uri);
}

/**
 * How long documents wait at start for the client's answer to workspace/configuration before
 * they are checked with the settings the server has: a client may never answer.
 */
export const CONFIGURATION_WAIT_MS = 2000;

/**
 * Serves the language service over an LSP connection: diagnostics pushed on every change,
 * completion, hover, formatting, quick fixes, semantic tokens, the evaluation and test files' code
 * lenses, and the features of editor-features.ts on request, and `filterc/compile` (protocol.ts). Settings come from `defaults` (the command
 * line), then initializationOptions, then the client's `filterc` section, then the filterc.json
 * nearest each document, then the document's own `# dataset:`. The client's section is asked for
 * as soon as the client is initialized: documents are checked once it answers (or does not,
 * within CONFIGURATION_WAIT_MS), so none is first checked against the wrong dataset.
 */
export function startLanguageServer(connection: Connection, defaults: ServiceOptions = {}): void {
  const settings = new DocumentSettings(defaults);
  const documents = new TextDocuments(TextDocument);
  let initialOptions = defaults;
  let pullsConfiguration = false;
  let registersConfiguration = false;
  let watchesFiles = false;
  let refreshes = { semanticTokens: false, codeLenses: false };
  /** Settles once the client's settings were asked for at start: answered, refused or timed out. */
  let configured: Promise<void> = Promise.resolve();
  /** Whether settings that change check the open documents again (not while they wait for the first). */
  let checking = true;

  /** The filter document at `uri`, once the settings are known; undefined for other documents. */
  const filterDocument = async (uri: string): Promise<TextDocument | undefined> => {
    await configured;
    const document = documents.get(uri);
    return document && isFilterDocument(document) ? document : undefined;
  };

  /**
   * Work no request waits for (diagnostics pushed, registrations, settings pulled): a failure is
   * told in the client's log, and never ends the server as an unhandled rejection would. The
   * promise returned settles when the work does, and never rejects.
   */
  const unattended = (task: Promise<unknown>, what: string): Promise<void> =>
    task.then(
      () => {},
      (error: unknown) => {
        try {
          connection.console.error(
            `filterc: ${what}: ${error instanceof Error ? error.message : String(error)}`,
          );
        } catch {
          // The connection is closed: there is no one left to tell.
        }
      },
    );

  const publish = (document: TextDocument) =>
    unattended(publishDiagnostics(document), `cannot check ${document.uri}`);

  const publishDiagnostics = async (document: TextDocument) => {
    if (isTerraformDocument(document)) return publishTerraform(document);
    if (!isFilterDocument(document)) return;
    const { service, problems } = await settings.serviceFor(document.uri);
    // A newer version (or the close) came while the settings were read: it publishes its own.
    if (documents.get(document.uri)?.version !== document.version) return;
    const diagnostics = [
      ...problems.map((problem) => configProblem(problem)),
      ...service.diagnostics(document.getText()).map((d) => toLspDiagnostic(document, d)),
    ];
    await connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
  };

  const publishTerraform = async (document: TextDocument) => {
    const diagnostics = await terraformDiagnostics(document, (path) => settings.diagnosticsFor(path));
    if (documents.get(document.uri)?.version !== document.version) return;
    await connection.sendDiagnostics({ uri: document.uri, version: document.version, diagnostics });
  };

  /** Settings changed: every open document is checked again, and what else depends on the dataset. */
  const recheckAll = () => {
    for (const document of documents.all()) publish(document);
    // Colours (deprecated fields) and test lenses depend on the dataset too; a client that
    // refuses a refresh keeps what it shows.
    if (refreshes.semanticTokens) connection.languages.semanticTokens.refresh().catch(() => {});
    if (refreshes.codeLenses) connection.sendRequest(CodeLensRefreshRequest.type).catch(() => {});
  };

  const configure = (raw: unknown, base: ServiceOptions) => {
    const { options, ignored, problems } = applySettings(base, raw);
    for (const name of ignored) connection.console.warn(`filterc: ignoring setting ${name}: wrong type`);
    for (const problem of problems ?? []) connection.console.warn(`filterc: ignoring ${problem}`);
    settings.configure(options);
    if (checking) recheckAll();
  };

  const pullConfiguration = async () => {
    let section: unknown;
    try {
      section = await connection.workspace.getConfiguration(SETTINGS_SECTION);
    } catch (error) {
      // Asked of a client that did not say it answers: it keeps to initializationOptions and
      // flags, and pushes any settings in didChangeConfiguration.
      if (pullsConfiguration)
        connection.console.error(`filterc: cannot read settings: ${(error as Error).message}`);
      return;
    }
    pullsConfiguration = true;
    configure(section, initialOptions);
  };

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const { options, ignored, problems } = applySettings(defaults, params.initializationOptions);
    for (const name of ignored)
      connection.console.warn(`filterc: ignoring initializationOptions setting ${name}: wrong type`);
    for (const problem of problems ?? [])
      connection.console.warn(`filterc: ignoring initializationOptions ${problem}`);
    initialOptions = options;
    settings.configure(initialOptions);
    const workspace = params.capabilities.workspace;
    pullsConfiguration = workspace?.configuration === true;
    registersConfiguration = workspace?.didChangeConfiguration?.dynamicRegistration === true;
    watchesFiles = workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    refreshes = {
      semanticTokens: workspace?.semanticTokens?.refreshSupport === true,
      codeLenses: workspace?.codeLens?.refreshSupport === true,
    };
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        completionProvider: { triggerCharacters: [" ", "(", "[", ",", '"', "'", "!"] },
        hoverProvider: true,
        documentFormattingProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        semanticTokensProvider: { legend: semanticTokenLegend, full: true },
        codeLensProvider: { resolveProvider: false },
        ...EDITOR_FEATURE_CAPABILITIES,
      },
      serverInfo: { name: "filterc" },
    };
  });

  connection.onInitialized(() => {
    // The client tells when a filterc.json changes; without that, each edit reads them again.
    if (watchesFiles)
      unattended(
        connection.client.register(DidChangeWatchedFilesNotification.type, {
          watchers: [{ globPattern: `**/${CONFIG_FILE_NAME}` }],
        }),
        `cannot watch ${CONFIG_FILE_NAME} files`,
      );
    if (registersConfiguration)
      unattended(
        connection.client.register(DidChangeConfigurationNotification.type, undefined),
        "cannot register for settings changes",
      );
    // Asked even of a client that does not say it answers: Neovim 0.7 answers from its
    // `settings` without saying so, and sends no didChangeConfiguration either.
    checking = false;
    configured = Promise.race([
      unattended(pullConfiguration(), "cannot read settings"),
      delay(CONFIGURATION_WAIT_MS),
    ]).then(() => {
      checking = true;
    });
  });

  connection.onDidChangeConfiguration((change) => {
    // Clients that answer workspace/configuration are asked again; others push the settings.
    if (pullsConfiguration) unattended(pullConfiguration(), "cannot read settings");
    else configure(change.settings, initialOptions);
  });

  connection.onDidChangeWatchedFiles(() => {
    settings.forgetFolders();
    if (checking) recheckAll();
  });

  documents.onDidChangeContent((change) => {
    if (!watchesFiles) settings.forgetFolders();
    // Neither `configured` nor publish rejects.
    void configured.then(() => publish(change.document));
  });
  documents.onDidClose((event) => {
    if (isFilterDocument(event.document) || isTerraformDocument(event.document))
      unattended(
        connection.sendDiagnostics({ uri: event.document.uri, diagnostics: [] }),
        `cannot clear the diagnostics of ${event.document.uri}`,
      );
  });

  /** The service of a filter document with its folder's settings, or undefined for other documents. */
  const serviceOf = async (uri: string) => {
    const document = await filterDocument(uri);
    return document && { document, service: (await settings.serviceFor(uri)).service };
  };

  connection.onCompletion(async (params) => {
    const found = await serviceOf(params.textDocument.uri);
    if (!found) return null;
    const { document, service } = found;
    const items = service.completions(document.getText(), document.offsetAt(params.position));
    return { isIncomplete: false, items: items.map((item) => toLspCompletion(document, item)) };
  });

  connection.onHover(async (params) => {
    const found = await serviceOf(params.textDocument.uri);
    if (!found) return null;
    const { document, service } = found;
    const hovered = service.hover(document.getText(), document.offsetAt(params.position));
    return hovered && toLspHover(document, hovered);
  });

  connection.onDocumentFormatting(async (params) => {
    const found = await serviceOf(params.textDocument.uri);
    if (!found) return null;
    const { document, service } = found;
    return service.format(document.getText()).map((edit) => toLspTextEdit(document, edit));
  });

  connection.onCodeAction(async (params) => {
    const found = await serviceOf(params.textDocument.uri);
    if (!found) return null;
    const { document, service } = found;
    const actions = service.codeActions(document.getText(), toOffsets(document, params.range));
    return actions.map((action) => toLspCodeAction(document, action));
  });

  connection.languages.semanticTokens.on(async (params) => {
    const found = await serviceOf(params.textDocument.uri);
    if (!found) return { data: [] };
    const { document, service } = found;
    return toLspSemanticTokens(document, service.semanticTokens(document.getText()));
  });

  connection.onCodeLens(async (params, token) => {
    const found = await serviceOf(params.textDocument.uri);
    if (!found) return null;
    const { document, service } = found;
    const samples = await sampleLenses(document, service, await settings.samplesFor(document.uri), token);
    const tests = await testLenses(
      document.uri,
      document.getText(),
      (file) => settings.defaultsFor(file),
      token,
    );
    return [...samples, ...tests];
  });

  registerEditorFeatures(connection, { serviceOf, samplesFor: (uri) => settings.samplesFor(uri) });

  connection.onRequest(COMPILE_REQUEST, async (params: CompileParams): Promise<CompileAnswer | null> => {
    const found = await serviceOf(params.textDocument.uri);
    if (!found) return null;
    const { document, service } = found;
    const compiled = service.analyze(document.getText()).compiled;
    return compileAnswer(compiled, service.settings.dataset ?? DEFAULT_DATASET);
  });

  documents.listen(connection);
  connection.listen();
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** A filterc.json that cannot be used, told at the start of each document beneath it. */
function configProblem(problem: string): LspDiagnostic {
  const start = { line: 0, character: 0 };
  return {
    range: { start, end: start },
    severity: DiagnosticSeverity.Error,
    source: "filterc",
    message: problem,
  };
}

/** How long the server answers the messages before a bad frame before it exits. */
const ANSWER_PENDING_MS = 200;

/**
 * Serves LSP over this process's standard input and output; the process ends on `exit` or at the
 * end of the input. A frame that cannot be read (no or a wrong Content-Length, LF-only headers, the
 * input ending inside a message) is told on stderr and ends the process with status 1: after it,
 * where the next message starts is unknown, and a server answering nothing would leave the editor
 * waiting.
 */
export function startStdioServer(defaults: ServiceOptions = {}): void {
  const reader = new StrictFrameReader(process.stdin, DEFAULT_FRAME_LIMITS, (message) =>
    process.stderr.write(`filterc lsp: ${message}\n`),
  );
  reader.onError((error) => {
    process.stderr.write(`filterc lsp: ${error.message}; stopping\n`);
    process.stdin.destroy();
    // The messages read before the bad frame are handled on later turns of the event loop (the
    // connection queues them): they are answered before the process ends.
    setTimeout(() => process.exit(1), ANSWER_PENDING_MS);
  });
  const connection = createConnection(ProposedFeatures.all, reader, new StreamMessageWriter(process.stdout));
  // The input ending between messages is the client gone: status 0 after a shutdown request, else 1,
  // as for `exit`. (vscode-languageserver does this only for a stream it reads itself; the process
  // used to end when nothing was left to do, with status 0 either way.)
  let shutdown = false;
  connection.onShutdown(() => {
    shutdown = true;
  });
  reader.onClose(() => setTimeout(() => process.exit(shutdown ? 0 : 1), ANSWER_PENDING_MS));
  // Every promise the server starts is answered; one that is not is a fault of the server, told on
  // stderr, and the server goes on answering rather than take every open document down with it.
  process.on("unhandledRejection", (reason) =>
    process.stderr.write(
      `filterc lsp: internal error, continuing: ${reason instanceof Error ? reason.message : String(reason)}\n`,
    ),
  );
  startLanguageServer(connection, defaults);
}
