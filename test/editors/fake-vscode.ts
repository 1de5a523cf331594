/*
 * Just enough of the `vscode` module and of vscode-languageclient for the extension to activate
 * in a test (VS Code itself cannot run here): what the extension does is recorded in `state`.
 */

type Listener<T> = (event: T) => unknown;

export interface FakeDocument {
  languageId: string;
  uri: FakeUri;
  version?: number;
  getText?(): string;
}

/** Enough of vscode.Uri: its parts, and its string with the query encoded as VS Code writes it. */
export class FakeUri {
  constructor(
    readonly scheme: string,
    readonly path: string,
    readonly query = "",
  ) {}
  get fsPath(): string {
    return this.path;
  }
  toString(): string {
    return `${this.scheme}://${this.path}${this.query ? `?${encodeURIComponent(this.query)}` : ""}`;
  }
  static from(parts: { scheme: string; path: string; query?: string }): FakeUri {
    return new FakeUri(parts.scheme, parts.path, parts.query);
  }
  static parse(text: string): FakeUri {
    const match = /^([a-z-]+):\/\/([^?]*)(?:\?(.*))?$/.exec(text);
    if (!match) throw new Error(`not a URI: ${text}`);
    return new FakeUri(match[1]!, match[2]!, match[3] === undefined ? "" : decodeURIComponent(match[3]));
  }
}

class FakeEventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>) => {
    this.listeners.push(listener);
    return disposable;
  };
  fire(value: T): void {
    for (const listener of this.listeners) listener(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}

/** A view the extension showed: its URI, its text as the provider gave it, and each text it gave after a change. */
export interface ShownView {
  uri: string;
  texts: string[];
  beside: boolean;
}

export interface FakeStatusItem {
  id: string;
  text: string;
  tooltip: string;
  name: string;
  command: string;
  backgroundColor: { id: string } | undefined;
  visible: boolean;
  show(): void;
  hide(): void;
  dispose(): void;
}

export class FakeClient {
  stopped = false;
  constructor(
    readonly id: string,
    readonly name: string,
    readonly serverOptions: unknown,
    readonly clientOptions: {
      documentSelector: unknown;
      outputChannel: unknown;
      middleware: {
        executeCommand(command: string, args: unknown[], next: (c: string, a: unknown[]) => unknown): unknown;
      };
    },
  ) {
    state.clients.push(this);
  }
  async start(): Promise<void> {}
  async stop(): Promise<void> {
    this.stopped = true;
  }
  sendRequest(method: string, params: unknown): Promise<unknown> {
    state.requests.push({ method, params });
    return Promise.resolve(method === "workspace/executeCommand" ? state.kept : state.answer);
  }
  async sendNotification(type: { method: string }, params: unknown): Promise<void> {
    state.notifications.push({ method: type.method, params });
  }
}

export const state = {
  settings: {} as Record<string, unknown>,
  folders: [] as string[],
  activeTextEditor: undefined as { document: FakeDocument } | undefined,
  answer: null as unknown,
  kept: null as unknown,
  notifications: [] as { method: string; params: unknown }[],
  textDocuments: [] as FakeDocument[],
  providers: new Map<
    string,
    {
      provideTextDocumentContent(uri: FakeUri): Promise<string>;
      onDidChange: (l: Listener<FakeUri>) => unknown;
    }
  >(),
  views: [] as ShownView[],
  clients: [] as FakeClient[],
  requests: [] as { method: string; params: unknown }[],
  commands: new Map<string, () => Promise<unknown>>(),
  messages: [] as string[],
  log: [] as string[],
  clipboard: "",
  statusItems: [] as FakeStatusItem[],
  listeners: {
    activeEditor: [] as Listener<unknown>[],
    configuration: [] as Listener<{ affectsConfiguration(section: string): boolean }>[],
    diagnostics: [] as Listener<{ uris: { toString(): string }[] }>[],
    openDocument: [] as Listener<FakeDocument>[],
    changeDocument: [] as Listener<{ document: FakeDocument }>[],
    closeDocument: [] as Listener<FakeDocument>[],
  },
  reset() {
    state.settings = {};
    state.folders = [];
    state.activeTextEditor = undefined;
    state.answer = null;
    state.kept = null;
    state.notifications = [];
    state.textDocuments = [];
    state.providers = new Map();
    state.views = [];
    state.clients = [];
    state.requests = [];
    state.commands = new Map();
    state.messages = [];
    state.log = [];
    state.clipboard = "";
    state.statusItems = [];
    for (const listeners of Object.values(state.listeners)) listeners.length = 0;
  },
};

const disposable = { dispose() {} };
const subscribe =
  <T>(list: Listener<T>[]) =>
  (listener: Listener<T>) => {
    list.push(listener);
    return disposable;
  };

export function filterDocument(
  path = "/work/project/errors.lpf",
  languageId = "lpf",
  text = "",
): FakeDocument {
  return { languageId, uri: new FakeUri("file", path), version: 1, getText: () => text };
}

/** Waits until the promises the extension started have run. */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

export const vscode = {
  Uri: FakeUri,
  EventEmitter: FakeEventEmitter,
  StatusBarAlignment: { Left: 1, Right: 2 },
  ViewColumn: { Beside: -2 },
  ThemeColor: class {
    constructor(readonly id: string) {}
  },
  window: {
    get activeTextEditor() {
      return state.activeTextEditor;
    },
    createOutputChannel: () => ({
      warn: (message: string) => state.log.push(`warn ${message}`),
      appendLine: (message: string) => state.log.push(message),
      dispose() {},
    }),
    showErrorMessage: async (message: string) => state.messages.push(`error ${message}`),
    showWarningMessage: async (message: string) => state.messages.push(`warning ${message}`),
    showInformationMessage: async (message: string) => state.messages.push(`info ${message}`),
    setStatusBarMessage: (message: string) => {
      state.messages.push(`status ${message}`);
      return disposable;
    },
    showTextDocument: async (document: { uri: FakeUri; text: string }, options: { viewColumn: number }) => {
      const uri = document.uri.toString();
      if (!state.views.some((view) => view.uri === uri))
        state.views.push({ uri, texts: [document.text], beside: options.viewColumn === -2 });
    },
    createStatusBarItem: (id: string) => {
      const item: FakeStatusItem = {
        id,
        text: "",
        tooltip: "",
        name: "",
        command: "",
        backgroundColor: undefined,
        visible: false,
        show() {
          item.visible = true;
        },
        hide() {
          item.visible = false;
        },
        dispose() {},
      };
      state.statusItems.push(item);
      return item;
    },
    onDidChangeActiveTextEditor: subscribe(state.listeners.activeEditor),
  },
  workspace: {
    getConfiguration: () => ({ get: (key: string) => state.settings[key] }),
    get workspaceFolders() {
      return state.folders.map((fsPath) => ({ uri: { fsPath } }));
    },
    get textDocuments() {
      return state.textDocuments;
    },
    /** A document of a registered scheme, its text from the provider; once open, a change asks for its text again. */
    openTextDocument: async (uri: FakeUri) => {
      const provider = state.providers.get(uri.scheme);
      if (!provider) throw new Error(`no provider for ${uri.toString()}`);
      return { uri, text: await provider.provideTextDocumentContent(uri) };
    },
    registerTextDocumentContentProvider: (
      scheme: string,
      provider: {
        provideTextDocumentContent(uri: FakeUri): Promise<string>;
        onDidChange: (l: Listener<FakeUri>) => unknown;
      },
    ) => {
      state.providers.set(scheme, provider);
      provider.onDidChange(async (uri) => {
        const view = state.views.find((shown) => shown.uri === uri.toString());
        if (view) view.texts.push(await provider.provideTextDocumentContent(uri));
      });
      return disposable;
    },
    onDidOpenTextDocument: subscribe(state.listeners.openDocument),
    onDidChangeTextDocument: subscribe(state.listeners.changeDocument),
    onDidCloseTextDocument: subscribe(state.listeners.closeDocument),
    onDidChangeConfiguration: (listener: Listener<{ affectsConfiguration(section: string): boolean }>) =>
      subscribe(state.listeners.configuration)(listener),
  },
  commands: {
    registerCommand: (id: string, run: () => Promise<unknown>) => {
      state.commands.set(id, run);
      return disposable;
    },
  },
  env: {
    clipboard: {
      writeText: async (text: string) => {
        state.clipboard = text;
      },
    },
  },
  languages: {
    onDidChangeDiagnostics: (listener: Listener<{ uris: { toString(): string }[] }>) =>
      subscribe(state.listeners.diagnostics)(listener),
  },
};

export const languageClient = {
  LanguageClient: FakeClient,
  TransportKind: { stdio: 0, ipc: 1, pipe: 2 },
  ExecuteCommandRequest: { type: { method: "workspace/executeCommand" } },
  DidOpenTextDocumentNotification: { type: { method: "textDocument/didOpen" } },
  DidChangeTextDocumentNotification: { type: { method: "textDocument/didChange" } },
  DidCloseTextDocumentNotification: { type: { method: "textDocument/didClose" } },
};
