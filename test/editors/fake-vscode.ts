/*
 * Just enough of the `vscode` module and of vscode-languageclient for the extension to activate
 * in a test (VS Code itself cannot run here): what the extension does is recorded in `state`.
 */

type Listener<T> = (event: T) => unknown;

export interface FakeDocument {
  languageId: string;
  uri: { toString(): string; fsPath: string };
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
    readonly clientOptions: { documentSelector: unknown; outputChannel: unknown },
  ) {
    state.clients.push(this);
  }
  async start(): Promise<void> {}
  async stop(): Promise<void> {
    this.stopped = true;
  }
  sendRequest(method: string, params: unknown): Promise<unknown> {
    state.requests.push({ method, params });
    return Promise.resolve(state.answer);
  }
}

export const state = {
  settings: {} as Record<string, unknown>,
  folders: [] as string[],
  activeTextEditor: undefined as { document: FakeDocument } | undefined,
  answer: null as unknown,
  clients: [] as FakeClient[],
  requests: [] as { method: string; params: unknown }[],
  commands: new Map<string, () => Promise<unknown>>(),
  messages: [] as string[],
  log: [] as string[],
  clipboard: "",
  opened: [] as { language: string; content: string; beside: boolean }[],
  statusItems: [] as FakeStatusItem[],
  listeners: {
    activeEditor: [] as Listener<unknown>[],
    configuration: [] as Listener<{ affectsConfiguration(section: string): boolean }>[],
    diagnostics: [] as Listener<{ uris: { toString(): string }[] }>[],
  },
  reset() {
    state.settings = {};
    state.folders = [];
    state.activeTextEditor = undefined;
    state.answer = null;
    state.clients = [];
    state.requests = [];
    state.commands = new Map();
    state.messages = [];
    state.log = [];
    state.clipboard = "";
    state.opened = [];
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

export function filterDocument(path = "/work/project/errors.lpf", languageId = "lpf"): FakeDocument {
  return { languageId, uri: { toString: () => `file://${path}`, fsPath: path } };
}

export const vscode = {
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
    showTextDocument: async (
      document: { language: string; content: string },
      options: { viewColumn: number },
    ) => {
      state.opened.push({ ...document, beside: options.viewColumn === -2 });
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
    openTextDocument: async (document: { language: string; content: string }) => document,
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

export const languageClient = { LanguageClient: FakeClient, TransportKind: { stdio: 0, ipc: 1, pipe: 2 } };
