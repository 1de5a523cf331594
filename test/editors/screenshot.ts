import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import type { IGrammar } from "vscode-textmate";
import { statusOf } from "../../editors/vscode/src/status.js";
import { DEFAULT_DATASET } from "../../src/catalog/index.js";
import { compileAnswer } from "../../src/lsp/compile-request.js";
import {
  createLanguageService,
  sampleJudge,
  sampleLensOffset,
  sampleLensTitle,
} from "../../src/service/index.js";
import { scopesOf } from "./textmate.js";

/*
 * The extension README's screenshot (docs/editors.md shows it too), drawn from what the extension
 * shows: the sample's colours from the TextMate grammar, its diagnostics and inlay hints from the
 * language service, the evaluation lens as the server titles it over a few sample lines, the status
 * bar's text from the extension's own status code, in VS Code's Dark+ colours. The page is the picture's
 * source: the PNG carries its hash, so a test tells when the committed picture is stale.
 */

export const SCREENSHOT_SAMPLE = `# 5xx on the API host, excluding health checks
EdgeResponseStatus geq 500
  and ClientRequestHost eq "api.example.com"
  and not (ClientRequestPath startsWith "/health"
    or ClientRequestMethod in ["HEAD", "OPTIONS", "HEAD"])
`;

/** The sample logs the picture's evaluation lens counts (a filterc.json's `"samples": "logs/*.ndjson"`). */
const SAMPLE_LINES = [
  {
    EdgeResponseStatus: 502,
    ClientRequestHost: "api.example.com",
    ClientRequestPath: "/v1/users",
    ClientRequestMethod: "GET",
  },
  {
    EdgeResponseStatus: 503,
    ClientRequestHost: "api.example.com",
    ClientRequestPath: "/health",
    ClientRequestMethod: "GET",
  },
  {
    EdgeResponseStatus: 200,
    ClientRequestHost: "api.example.com",
    ClientRequestPath: "/v1/users",
    ClientRequestMethod: "GET",
  },
  {
    EdgeResponseStatus: 500,
    ClientRequestHost: "www.example.com",
    ClientRequestPath: "/",
    ClientRequestMethod: "POST",
  },
  {
    EdgeResponseStatus: 504,
    ClientRequestHost: "api.example.com",
    ClientRequestPath: "/v1/orders",
    ClientRequestMethod: "POST",
  },
].map((record) => JSON.stringify(record));

/** Dark+ colours, by scope prefix; the longest prefix of a token's innermost scope wins. */
const DARK_PLUS: [string, string][] = [
  ["comment", "#6a9955"],
  ["string", "#ce9178"],
  ["constant.character.escape", "#d7ba7d"],
  ["constant.numeric", "#b5cea8"],
  ["constant.language", "#569cd6"],
  ["keyword", "#569cd6"],
  ["keyword.operator", "#d4d4d4"],
  ["variable", "#9cdcfe"],
  ["invalid", "#f44747"],
];
const FOREGROUND = "#d4d4d4";

function colourOf(scopes: string[]): string {
  for (const scope of [...scopes].reverse()) {
    const found = DARK_PLUS.filter(([prefix]) => scope === prefix || scope.startsWith(`${prefix}.`)).sort(
      (a, b) => b[0].length - a[0].length,
    )[0];
    if (found) return found[1];
  }
  return FOREGROUND;
}

/** The page's width, its line numbers' width, a character's width and the hover's width, in pixels. */
const WIDTH = 960;
const GUTTER = 56;
const CHARACTER_WIDTH = 8.43;
const HOVER_WIDTH = 420;

const html = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The page of the screenshot. */
export function screenshotPage(grammar: IGrammar): string {
  const text = SCREENSHOT_SAMPLE;
  const service = createLanguageService();
  const diagnostics = service.diagnostics(text);
  const status = statusOf(compileAnswer(service.analyze(text).compiled, DEFAULT_DATASET));
  const hints = new Map(service.inlayHints(text).map((hint) => [hint.offset, hint.label]));
  const judged = sampleJudge(service.analyze(text));
  if ("problem" in judged) throw new Error(judged.problem);
  const verdicts = SAMPLE_LINES.map((line) => judged.judge(line));
  const lens = sampleLensTitle(
    {
      lines: SAMPLE_LINES.length,
      kept: verdicts.filter((verdict) => verdict === "kept").length,
      malformed: verdicts.filter((verdict) => verdict === "malformed").length,
    },
    "logs/*.ndjson",
  );
  const lensLine = text.slice(0, sampleLensOffset(service.analyze(text))).split("\n").length - 1;
  const scopes = scopesOf(grammar, text);
  const squiggled = new Map<number, string>();
  for (const d of diagnostics)
    for (let i = d.range.start.offset; i < d.range.end.offset; i++) squiggled.set(i, d.severity);
  const lines: string[] = [];
  let line = "";
  let firstShown: { line: number; column: number } | undefined;
  for (let i = 0; i < text.length; i++) {
    const hint = hints.get(i);
    if (hint) line += `<span class="hint">${html(hint)}</span>`;
    if (text[i] === "\n") {
      lines.push(line);
      line = "";
      continue;
    }
    const severity = squiggled.get(i);
    if (severity && !firstShown)
      firstShown = { line: lines.length, column: line.replace(/<[^>]*>/g, "").length };
    const style = `color:${colourOf(scopes[i]!)}${severity ? `;text-decoration:underline wavy ${severity === "error" ? "#f14c4c" : "#cca700"}` : ""}`;
    line += `<span style="${style}">${html(text[i]!)}</span>`;
  }
  const first = diagnostics[0];
  const hover =
    first && firstShown
      ? `<div class="hover" style="top:${(firstShown.line + 1) * 20 + 10 + (firstShown.line >= lensLine ? 18 : 0)}px;left:${Math.min(firstShown.column * CHARACTER_WIDTH + GUTTER, WIDTH - HOVER_WIDTH - 20)}px"><b>${html(first.code)}</b> ${html(first.message)} <span class="source">filterc</span></div>`
      : "";
  const icon = status.text.startsWith("$(filter)")
    ? '<svg width="12" height="12" viewBox="0 0 12 12"><path d="M1 1h10L7 6v4L5 9V6z" fill="#fff"/></svg>'
    : "";
  const statusText = html(status.text.replace(/^\$\([a-z]+\) /, ""));
  const statusColour = { ok: "transparent", warning: "#7a6400", error: "#c72e0f" }[status.level];
  return `<!doctype html><html><head><meta charset="utf-8"><style>
body { margin: 0; width: ${WIDTH}px; background: #1e1e1e; font: 14px/20px "DejaVu Sans Mono", "Liberation Mono", monospace; }
.tab { background: #252526; color: #fff; font-family: sans-serif; font-size: 13px; padding: 8px 14px; border-top: 1px solid #f38020; display: inline-block; }
.editor { padding: 6px 0 44px; white-space: pre; position: relative; }
.line { display: flex; } .number { width: 40px; text-align: right; color: #858585; padding-right: 16px; }
.hover { position: absolute; background: #252526; border: 1px solid #454545; color: #ccc; padding: 4px 8px; white-space: normal; width: ${HOVER_WIDTH}px; font-family: sans-serif; font-size: 13px; }
.hover .source { color: #999; }
.hint { color: #969696; background: #2b2b2b; border-radius: 3px; padding: 0 4px; margin-left: 4px; font-size: 12px; }
.lens { color: #999; font-family: sans-serif; font-size: 12px; padding-left: 56px; height: 18px; line-height: 18px; }
.status { background: #007acc; color: #fff; font-family: sans-serif; font-size: 12px; height: 22px; display: flex; justify-content: flex-end; align-items: center; }
.status span { padding: 0 10px; height: 22px; display: flex; gap: 5px; align-items: center; }
</style></head><body><div class="tab">errors.lpf</div><div class="editor">${lines
    .map(
      (content, index) =>
        `${index === lensLine ? `<div class="lens">${html(lens)}</div>` : ""}<div class="line"><span class="number">${index + 1}</span><span>${content}</span></div>`,
    )
    .join(
      "",
    )}${hover}</div><div class="status"><span>Logpush Filter</span><span style="background:${statusColour}">${icon}${statusText}</span></div></body></html>`;
}

/** The hash of a page, as the PNG made from it carries it. */
export const pageHash = (page: string) => createHash("sha256").update(page).digest("hex");

const SOURCE_KEY = "filterc-source";

/** The PNG with a text chunk naming the page it was made from. */
export function stampPng(png: Buffer, page: string): Buffer {
  const data = Buffer.from(`${SOURCE_KEY}\0${pageHash(page)}`, "latin1");
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write("tEXt", 4, "latin1");
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  // After the signature (8 bytes) and IHDR (25 bytes).
  return Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);
}

/** The page hash a PNG carries, if any. */
export function stampOf(png: Buffer): string | undefined {
  let at = 8;
  while (at + 8 <= png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString("latin1", at + 4, at + 8);
    if (type === "tEXt") {
      const [key, value] = png.toString("latin1", at + 8, at + 8 + length).split("\0");
      if (key === SOURCE_KEY) return value;
    }
    at += 12 + length;
  }
  return undefined;
}
