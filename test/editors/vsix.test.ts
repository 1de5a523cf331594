import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createProtocolConnection,
  DidOpenTextDocumentNotification,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
} from "vscode-languageserver-protocol/node";
import { generatedFiles } from "../../editors/generated.js";
import { COMPILE_REQUEST } from "../../src/lsp/protocol.js";
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
  for (const [name, data] of files)
    if (name === "extension/dist/server.js") writeFileSync(join(unpacked, "server.js"), data);
}, 180_000);
afterAll(() => rmSync(unpacked, { recursive: true, force: true }));

const text = (name: string) => files.get(name)?.toString("utf8") ?? "";

describe("npm run vsix", () => {
  it("packs the manifest, README, license, icon, language files, two bundles and filterc.json's schema: no node_modules, under 3 MB", () => {
    expect([...files.keys()].sort()).toEqual([
      "[Content_Types].xml",
      "extension.vsixmanifest",
      "extension/LICENSE.txt",
      "extension/changelog.md",
      "extension/dist/extension.js",
      "extension/dist/filterc.schema.json",
      "extension/dist/server.js",
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
      "![A filter file with its colours, a diagnostic and the status bar's figures](https://github.com/filterc/filterc/raw/HEAD/editors/vscode/images/screenshot.png)",
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
});
