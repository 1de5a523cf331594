import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { builtinModules, createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CodeLensRequest,
  createProtocolConnection,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  ExecuteCommandRequest,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  InlayHintRequest,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { generatedFiles } from "../../editors/generated.js";
import { COMPILE_REQUEST, SHOW_KEPT_SAMPLES_COMMAND } from "../../src/lsp/protocol.js";
import { PARSER_FILE_NAMES, PARSER_PACKAGE_FILES } from "../../src/terraform/parser-files.js";
import { unzip } from "./zip.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const read = (path: string) => readFileSync(join(root, path), "utf8");
const manifest = JSON.parse(read("editors/vscode/package.json"));
const vsix = join(root, "dist", `filterc-${manifest.version}.vsix`);
/** The Marketplace takes larger packages; a language extension this big would be carrying something it should not. */
const MAX_VSIX_BYTES = 3 * 1024 * 1024;

let files: Map<string, Buffer>;
let unpacked: string;

beforeAll(() => {
  // `npm run vsix`, once: the two bundles, then vsce's package.
  execFileSync(process.execPath, ["editors/vscode/build.mjs"], { cwd: root, stdio: "pipe" });
  files = unzip(readFileSync(vsix));
  unpacked = mkdtempSync(join(tmpdir(), "filterc-vsix-"));
  // The server and the files beside it, as VS Code unpacks them, away from any node_modules.
  for (const [name, data] of files)
    if (name.startsWith("extension/dist/"))
      writeFileSync(join(unpacked, name.slice("extension/dist/".length)), data);
}, 180_000);
afterAll(() => rmSync(unpacked, { recursive: true, force: true }));

const text = (name: string) => files.get(name)?.toString("utf8") ?? "";

describe("npm run vsix", () => {
  it("packs the manifest, README, license, icon, language files, two bundles, filterc.json's schema and the HCL parser: no node_modules, under 3 MB", () => {
    expect([...files.keys()].sort()).toEqual([
      "[Content_Types].xml",
      "extension.vsixmanifest",
      "extension/LICENSE.txt",
      "extension/changelog.md",
      "extension/dist/extension.js",
      "extension/dist/filterc.schema.json",
      "extension/dist/server.js",
      "extension/dist/tree-sitter-hcl.wasm",
      "extension/dist/web-tree-sitter.wasm",
      "extension/images/icon.png",
      "extension/language-configuration.json",
      "extension/package.json",
      "extension/readme.md",
      "extension/snippets/lpf.json",
      "extension/syntaxes/lpf.tmLanguage.json",
    ]);
    expect(statSync(vsix).size).toBeLessThan(MAX_VSIX_BYTES);
  });

  it("carries the Marketplace's and Open VSX's metadata, with the version of filterc and no dependencies", () => {
    const packed = JSON.parse(text("extension/package.json"));
    expect(packed.version).toBe(JSON.parse(read("package.json")).version);
    expect(packed).toMatchObject({
      name: "filterc",
      publisher: "filterc",
      license: "MIT",
      icon: "images/icon.png",
      repository: { type: "git", url: "https://github.com/filterc/filterc.git" },
      categories: ["Programming Languages", "Linters", "Formatters", "Snippets"],
      engines: { vscode: "^1.91.0" },
      main: "./dist/extension.js",
    });
    expect(packed.dependencies ?? {}).toEqual({});
    const description = text("extension.vsixmanifest");
    for (const part of [
      '<Identity Language="en-US" Id="filterc" Version="0.1.0" Publisher="filterc"',
      "<Categories>Programming Languages,Linters,Formatters,Snippets</Categories>",
      '<Property Id="Microsoft.VisualStudio.Services.Links.Source" Value="https://github.com/filterc/filterc.git" />',
      "<License>extension/LICENSE.txt</License>",
      "<Icon>extension/images/icon.png</Icon>",
    ])
      expect(description).toContain(part);
    // A 128 × 128 PNG.
    const icon = files.get("extension/images/icon.png")!;
    expect([icon.toString("latin1", 1, 4), icon.readUInt32BE(16), icon.readUInt32BE(20)]).toEqual([
      "PNG",
      128,
      128,
    ]);
  });

  it("links the README's screenshot into the repository, where it is committed", () => {
    expect(text("extension/readme.md")).toContain(
      "![A filter file with its colours, the evaluation lens, inlay hints, a diagnostic and the status bar's figures](https://github.com/filterc/filterc/raw/HEAD/editors/vscode/images/screenshot.png)",
    );
    const screenshot = readFileSync(join(root, "editors/vscode/images/screenshot.png"));
    expect(screenshot.toString("latin1", 1, 4)).toBe("PNG");
  });

  it("holds the grammar made from the vocabulary", () => {
    const generated = generatedFiles(read);
    expect(text("extension/syntaxes/lpf.tmLanguage.json")).toBe(
      generated["editors/vscode/syntaxes/lpf.tmLanguage.json"],
    );
    expect(text("extension/package.json")).toBe(generated["editors/vscode/package.json"]);
  });

  it("checks filterc.json with the JSON Schema the npm package ships", () => {
    const packed = JSON.parse(text("extension/package.json"));
    expect(packed.contributes.jsonValidation).toEqual([
      { fileMatch: "filterc.json", url: "./dist/filterc.schema.json" },
    ]);
    expect(text("extension/dist/filterc.schema.json")).toBe(read("schemas/filterc.schema.json"));
  });

  it("carries the HCL parser's WebAssembly as the CLI's build takes it from its packages", () => {
    const require = createRequire(import.meta.url);
    for (const key of ["runtime", "grammar"] as const)
      expect(
        files
          .get(`extension/dist/${PARSER_FILE_NAMES[key]}`)
          ?.equals(readFileSync(require.resolve(PARSER_PACKAGE_FILES[key]))),
        key,
      ).toBe(true);
  });

  it("bundles the extension whole: it requires only vscode and Node's own modules", () => {
    const required = new Set(
      [...text("extension/dist/extension.js").matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]!),
    );
    const foreign = [...required].filter(
      (name) => name !== "vscode" && !builtinModules.includes(name.replace(/^node:/, "")),
    );
    expect(foreign).toEqual([]);
    expect(required.has("vscode")).toBe(true);
  });

  it("bundles a language server that runs alone, away from any node_modules", async () => {
    const child = spawn(
      process.execPath,
      [join(unpacked, "server.js"), "--stdio", `--clientProcessId=${process.pid}`],
      {
        cwd: unpacked,
        stdio: "pipe",
      },
    );
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const published = new Promise<PublishDiagnosticsParams>((resolve) =>
      connection.onNotification(PublishDiagnosticsNotification.type, resolve),
    );
    connection.listen();
    try {
      const initialized = await connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: null,
        capabilities: {},
        initializationOptions: { filterc: { dataset: "dns_logs" } },
      });
      expect(initialized.serverInfo).toEqual({ name: "filterc" });
      await connection.sendNotification(InitializedNotification.type, {});
      const uri = "file:///work/dns.lpf";
      await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: {
          uri,
          languageId: "lpf",
          version: 1,
          text: 'QueryName eq "example.com" and QueryNme eq "a"',
        },
      });
      expect((await published).diagnostics.map((d) => d.message)).toEqual([
        "unknown field `QueryNme` in dataset dns_logs; did you mean `QueryName`?",
      ]);
      const answer = await connection.sendRequest(COMPILE_REQUEST, { textDocument: { uri } });
      expect(answer).toMatchObject({ dataset: "dns_logs", ok: false, errors: 1 });
      await connection.sendRequest(ShutdownRequest.type);
      await connection.sendNotification(ExitNotification.type);
      expect(await new Promise((resolve) => child.on("exit", resolve))).toBe(0);
    } finally {
      connection.dispose();
      if (child.exitCode === null) child.kill();
    }
  });

  it("checks Terraform files, and answers the outline, inlay hints and the evaluation lens", async () => {
    const project = mkdtempSync(join(tmpdir(), "filterc-vsix-project-"));
    const child = spawn(
      process.execPath,
      [join(unpacked, "server.js"), "--stdio", `--clientProcessId=${process.pid}`],
      {
        cwd: unpacked,
        stdio: "pipe",
      },
    );
    const connection = createProtocolConnection(
      new StreamMessageReader(child.stdout),
      new StreamMessageWriter(child.stdin),
    );
    const published = new Map<string, (params: PublishDiagnosticsParams) => void>();
    const next = (uri: string) =>
      new Promise<PublishDiagnosticsParams>((resolve) => published.set(uri, resolve));
    connection.onNotification(PublishDiagnosticsNotification.type, (params) =>
      published.get(params.uri)?.(params),
    );
    connection.listen();
    try {
      await connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: null,
        capabilities: {},
      });
      await connection.sendNotification(InitializedNotification.type, {});
      // As the extension sends a Terraform file (terraform.ts): its language id and whole text.
      const tf = join(project, "main.tf");
      const job = `resource "cloudflare_logpush_job" "a" {\n  zone_id = "z"\n  filter  = jsonencode({ where = { key = "ClientRequestHost", operator = "in", value = "a,b" } })\n}\n`;
      writeFileSync(tf, job);
      const tfUri = pathToFileURL(tf).href;
      const checked = next(tfUri);
      await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri: tfUri, languageId: "terraform", version: 1, text: job },
      });
      expect((await checked).diagnostics.map((d) => [d.range.start, d.code, d.message])).toEqual([
        [{ line: 2, character: 87 }, "E0304", "/where/value: `in` takes a list of values, like [200, 201]"],
      ]);
      mkdirSync(join(project, "logs"));
      writeFileSync(join(project, "filterc.json"), '{"samples": "logs/*.ndjson"}');
      writeFileSync(
        join(project, "logs", "a.ndjson"),
        '{"EdgeResponseStatus":502}\n{"EdgeResponseStatus":200}\n',
      );
      const uri = pathToFileURL(join(project, "errors.lpf")).href;
      const filter = 'EdgeResponseStatus geq 500 and not ClientRequestPath startsWith "/health"';
      const opened = next(uri);
      await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: "lpf", version: 1, text: filter },
      });
      expect((await opened).diagnostics).toEqual([]);
      const symbols = await connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } });
      expect(symbols?.map((symbol) => symbol.name)).toEqual(["and"]);
      const hints = await connection.sendRequest(InlayHintRequest.type, {
        textDocument: { uri },
        range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } },
      });
      expect(hints?.map((hint) => hint.label)).toEqual(["→ !startsWith"]);
      const lenses = await connection.sendRequest(CodeLensRequest.type, { textDocument: { uri } });
      expect(lenses?.map((lens) => lens.command)).toEqual([
        {
          title: "▶ keeps 1 of 2 sample lines (logs/*.ndjson)",
          command: SHOW_KEPT_SAMPLES_COMMAND,
          arguments: [uri],
        },
      ]);
      const kept = await connection.sendRequest(ExecuteCommandRequest.type, {
        command: SHOW_KEPT_SAMPLES_COMMAND,
        arguments: [uri],
      });
      expect(kept).toMatchObject({ lines: [{ line: 0, text: '{"EdgeResponseStatus":502}' }], more: 0 });
    } finally {
      connection.dispose();
      child.kill();
      rmSync(project, { recursive: true, force: true });
    }
  });
});
