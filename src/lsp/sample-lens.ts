import { realpath } from "node:fs/promises";
import { relative, resolve, sep } from "node:path";
import { setImmediate as eventLoopTurn } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import type { CancellationToken, CodeLens } from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { expandGlob, GlobError, type GlobLimits, regularFileChunks } from "../files/index.js";
import { InputDamage, logContent, textLines } from "../logs/index.js";
import {
  type LanguageService,
  type SampleCounts,
  sampleJudge,
  sampleLensOffset,
  sampleLensTitle,
} from "../service/index.js";
import { type KeptSamples, SHOW_KEPT_SAMPLES_COMMAND } from "./protocol.js";

/*
 * The evaluation lens: with sample logs named in filterc.json (`"samples": "logs/*.ndjson"`), a
 * lens above the filter tells how many of their lines it keeps, as the editor holds the text, and
 * its command shows those lines. The samples are read to bounds on files, bytes, line length and
 * time, as `filterc eval` bounds memory by the line: a lens never holds more than a line and the
 * lines it shows.
 */

/** What an evaluation reads at most; past a bound it stops, and the lens says which. */
export interface SampleLimits {
  /** Files of the glob read, in name order. */
  maxFiles: number;
  /** Bytes of content read over all files (after gzip). */
  maxBytes: number;
  /** A longer line is not read: counted as malformed, as `filterc eval --max-line-bytes`. */
  maxLineBytes: number;
  /** Time spent reading and judging. */
  maxMilliseconds: number;
  /** Kept lines the command's answer carries, and their bytes. */
  maxShownLines: number;
  maxShownBytes: number;
  /** How far the glob may reach (see expandGlob). */
  glob: GlobLimits;
}

export const SAMPLE_LIMITS: SampleLimits = {
  maxFiles: 20,
  maxBytes: 16 * 1024 * 1024,
  maxLineBytes: 512 * 1024,
  maxMilliseconds: 2000,
  maxShownLines: 500,
  maxShownBytes: 1024 * 1024,
  glob: { maxFiles: 1000, maxVisits: 10_000 },
};

/** Bytes judged between two turns of the event loop: other requests are answered in between. */
const SLICE_BYTES = 64 * 1024;

/** The samples a document's filterc.json names: its glob, and the folder it is relative to. */
export interface Samples {
  glob: string;
  folder: string;
}

/** The evaluation lens of a filter document; none without samples or outside a file. */
export async function sampleLenses(
  document: TextDocument,
  service: LanguageService,
  samples: Samples | undefined,
  token?: CancellationToken,
  limits = SAMPLE_LIMITS,
): Promise<CodeLens[]> {
  if (!samples || !document.uri.startsWith("file:")) return [];
  const evaluated = await evaluateSamples(document.getText(), service, samples, limits, false, token);
  if (evaluated === undefined) return [];
  const start = document.positionAt(sampleLensOffset(service.analyze(document.getText())));
  const at = { line: start.line, character: 0 };
  const command = evaluated.kept > 0 ? SHOW_KEPT_SAMPLES_COMMAND : "";
  return [
    {
      range: { start: at, end: at },
      command: { title: evaluated.title, command, ...(command && { arguments: [document.uri] }) },
    },
  ];
}

/** The kept lines, for the lens's command. */
export async function keptSamples(
  document: TextDocument,
  service: LanguageService,
  samples: Samples | undefined,
  token?: CancellationToken,
  limits = SAMPLE_LIMITS,
): Promise<KeptSamples | null> {
  if (!samples) return null;
  const evaluated = await evaluateSamples(document.getText(), service, samples, limits, true, token);
  return evaluated
    ? { title: evaluated.title, lines: evaluated.lines, more: evaluated.kept - evaluated.lines.length }
    : null;
}

interface Evaluated {
  title: string;
  kept: number;
  lines: KeptSamples["lines"];
}

/** Reads the samples through the filter; undefined once the request is cancelled. */
async function evaluateSamples(
  text: string,
  service: LanguageService,
  samples: Samples,
  limits: SampleLimits,
  keep: boolean,
  token: CancellationToken | undefined,
): Promise<Evaluated | undefined> {
  const warn = (problem: string): Evaluated => ({ title: `⚠ samples: ${problem}`, kept: 0, lines: [] });
  const judged = sampleJudge(service.analyze(text));
  if ("problem" in judged) return warn(judged.problem);
  const files = await sampleFiles(samples, limits).catch((error: unknown) => {
    if (error instanceof GlobError) return error.message;
    throw error;
  });
  if (typeof files === "string") return warn(`${files} (filterc.json)`);
  if (files.length === 0) return warn(`no file matches ${JSON.stringify(samples.glob)} (filterc.json)`);
  const counts: SampleCounts = { lines: 0, kept: 0, malformed: 0 };
  const lines: KeptSamples["lines"] = [];
  let shownBytes = 0;
  let bytes = 0;
  let stopped: string | undefined;
  const deadline = Date.now() + limits.maxMilliseconds;
  if (files.length > limits.maxFiles) stopped = `${limits.maxFiles} files of ${files.length} read`;
  reading: for (const file of files.slice(0, limits.maxFiles)) {
    const uri = pathToFileURL(file).href;
    let sliced = 0;
    try {
      for await (const line of textLines(logContent(copies(regularFileChunks(file))), limits.maxLineBytes)) {
        const length = line.text === undefined ? limits.maxLineBytes : Buffer.byteLength(line.text);
        bytes += length + 1;
        sliced += length + 1;
        if (sliced >= SLICE_BYTES) {
          sliced = 0;
          await eventLoopTurn();
          if (token?.isCancellationRequested) return undefined;
          if (Date.now() > deadline) {
            stopped = `after ${limits.maxMilliseconds / 1000} s`;
            break reading;
          }
        }
        if (line.text !== undefined && line.text.trim() === "") continue;
        counts.lines++;
        const verdict = line.text === undefined ? "malformed" : judged.judge(line.text);
        if (verdict === "malformed") counts.malformed++;
        else if (verdict === "kept") {
          counts.kept++;
          const shown = line.text!.replace(/\r$/, "");
          if (
            keep &&
            lines.length < limits.maxShownLines &&
            shownBytes + shown.length <= limits.maxShownBytes
          ) {
            lines.push({ uri, line: line.number - 1, text: shown });
            shownBytes += shown.length;
          }
        }
        if (bytes > limits.maxBytes) {
          stopped = `at ${limits.maxBytes / (1024 * 1024)} MiB`;
          break reading;
        }
      }
    } catch (error) {
      const name = relative(samples.folder, file);
      stopped =
        error instanceof InputDamage
          ? `${name} is damaged (${error.reason})`
          : `cannot read ${name}: ${(error as Error).message}`;
      break;
    }
  }
  return { title: sampleLensTitle(counts, samples.glob, stopped), kept: counts.kept, lines };
}

/**
 * The files of the glob that are inside the samples' folder, links resolved: a link out of it is
 * not followed, as a checkout's settings must not send the editor reading elsewhere.
 */
async function sampleFiles(samples: Samples, limits: SampleLimits): Promise<string[]> {
  const folder = await realpath(samples.folder);
  const found: string[] = [];
  for (const file of await expandGlob(samples.glob, samples.folder, limits.glob)) {
    const real = await realpath(resolve(samples.folder, file)).catch(() => undefined);
    if (real?.startsWith(folder + sep)) found.push(real);
  }
  return found;
}

/** Each chunk copied: the file reader reuses its buffers, and a line may span two chunks. */
async function* copies(chunks: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) yield Buffer.from(chunk);
}
