import { dirname, join, resolve } from "node:path";
import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { getCatalog, knownDatasets } from "../catalog/index.js";
import { excerpt } from "../decompile/index.js";
import {
  closestMatch,
  type DiagnosticLevel,
  type DiagnosticSettings,
  LineIndex,
  settingsProblems,
} from "../diagnostics/index.js";
import type { FilterDefaults } from "../filter-tests/index.js";
import { withoutByteOrderMark } from "../syntax/index.js";
import { fileProblem, readUpTo } from "./read.js";

/** The file that sets defaults for the filter files in its folder and the folders beneath. */
export const CONFIG_FILE_NAME = "filterc.json";

/** The largest filterc.json read: its few settings take well under a kilobyte. */
export const MAX_CONFIG_FILE_BYTES = 64 * 1024;

/** The most folders looked in for a filterc.json, from a file's own folder upwards. */
export const MAX_CONFIG_FOLDERS = 64;

/** The settings a filterc.json takes; `$schema` only tells an editor where its JSON Schema is. */
const SETTINGS = ["$schema", "dataset", "maxOperators", "maxBytes", "samples", "diagnostics"] as const;

/**
 * What a filterc.json sets: the defaults of its filters, the levels of their warnings and notes,
 * and the sample logs editors evaluate them on.
 */
export interface ConfigSettings extends FilterDefaults {
  diagnostics?: DiagnosticSettings;
  /** A glob of NDJSON logs (gzip or not) inside the file's folder, like `logs/*.ndjson`: the evaluation lens's samples. */
  samples?: string;
}

/** A filterc.json that cannot be used: each problem at its place, `file:line:col: what is wrong`. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";

  constructor(readonly problems: readonly string[]) {
    super(problems.join("\n"));
  }
}

/**
 * Reads a filterc.json's text (named `name` in messages): strict JSON, no comments or trailing
 * commas, so that any JSON tool reads it alike; one object of the known settings, each of its type,
 * a dataset filterc ships. Throws a ConfigError with every problem at its place.
 */
export function readConfig(text: string, name: string): ConfigSettings {
  const source = withoutByteOrderMark(text);
  const lines = new LineIndex(source);
  const problems: string[] = [];
  const problem = (offset: number, message: string) => {
    const { line, column } = lines.positionAt(offset);
    problems.push(`${name}:${line}:${column}: ${message}`);
  };
  const errors: ParseError[] = [];
  const root = parseTree(source, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length > 0 || !root) {
    const first = errors[0];
    problem(
      first?.offset ?? 0,
      `not JSON: ${first ? printParseErrorCode(first.error) : "the file is empty"}`,
    );
    throw new ConfigError(problems);
  }
  if (root.type !== "object") {
    problem(root.offset, `${CONFIG_FILE_NAME} holds one JSON object, like {"dataset": "gateway_http"}`);
    throw new ConfigError(problems);
  }
  const settings: ConfigSettings = {};
  const seen = new Set<string>();
  for (const property of root.children ?? []) {
    const [keyNode, value] = property.children as [Node, Node];
    const key = keyNode.value as string;
    if (!(SETTINGS as readonly string[]).includes(key)) {
      const meant = closestMatch(key, SETTINGS);
      const hint = meant === undefined ? "" : `; did you mean ${JSON.stringify(meant)}?`;
      problem(
        keyNode.offset,
        `unknown setting ${excerpt(key)}${hint} (${CONFIG_FILE_NAME} takes ${SETTINGS.join(", ")})`,
      );
    } else if (seen.has(key)) problem(keyNode.offset, `${JSON.stringify(key)} is set more than once`);
    else if (key === "diagnostics") {
      seen.add(key);
      const levels = readLevels(value, problem);
      if (levels) settings.diagnostics = levels;
    } else {
      seen.add(key);
      const wrong = settingProblem(key, value);
      if (wrong !== undefined) problem(value.offset, wrong);
      else if (key === "dataset" || key === "samples") settings[key] = value.value as string;
      else if (key === "maxOperators" || key === "maxBytes") settings[key] = value.value as number;
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return settings;
}

/**
 * The `diagnostics` setting: levels by code, each code a warning's or a note's (or `warnings`), each
 * level one of DIAGNOSTIC_LEVELS; every problem is told at its key or value.
 */
function readLevels(
  value: Node,
  problem: (offset: number, message: string) => void,
): DiagnosticSettings | undefined {
  if (value.type !== "object") {
    problem(value.offset, `diagnostics must be an object of levels by code, like {"W0120": "off"}`);
    return undefined;
  }
  // No prototype: a key such as "__proto__" is an entry like any other (and an unknown code).
  const levels: Record<string, unknown> = Object.create(null);
  const places = new Map<string, { key: number; value: number }>();
  const found: [offset: number, message: string][] = [];
  for (const entry of value.children ?? []) {
    const [keyNode, level] = entry.children as [Node, Node];
    const code = keyNode.value as string;
    if (places.has(code)) {
      found.push([keyNode.offset, `${JSON.stringify(code)} is set more than once in diagnostics`]);
      continue;
    }
    places.set(code, { key: keyNode.offset, value: level.offset });
    levels[code] = level.type === "object" || level.type === "array" ? {} : level.value;
  }
  for (const { code, inLevel, diagnostic } of settingsProblems(levels, '"diagnostics"')) {
    const place = places.get(code)!;
    found.push([inLevel ? place.value : place.key, diagnostic.message]);
  }
  // In the order of the file, as the other settings' problems are.
  for (const [offset, message] of found.sort((a, b) => a[0] - b[0])) problem(offset, message);
  return found.length > 0 ? undefined : (levels as Record<string, DiagnosticLevel>);
}

/** What is wrong with `value` as the setting `key`, or undefined when it is right. */
function settingProblem(key: string, value: Node): string | undefined {
  const shown =
    value.type === "string"
      ? excerpt(value.value as string)
      : value.type === "object" || value.type === "array"
        ? `a JSON ${value.type}`
        : String(value.value);
  if (key === "$schema")
    return value.type === "string"
      ? undefined
      : `$schema must be a string (the address of the JSON Schema), not ${shown}`;
  if (key === "samples") return samplesProblem(value, shown);
  if (key === "dataset") {
    if (value.type !== "string") return `dataset must be a dataset's name, a string, not ${shown}`;
    const dataset = value.value as string;
    return getCatalog(dataset)
      ? undefined
      : `unknown dataset ${excerpt(dataset)}; known datasets: ${knownDatasets(dataset)}`;
  }
  const count = value.value;
  const whole = value.type === "number" && Number.isSafeInteger(count) && (count as number) >= 1;
  return whole
    ? undefined
    : `${key} must be a whole number from 1 to ${Number.MAX_SAFE_INTEGER}, not ${shown}`;
}

/**
 * What is wrong with `samples`: it is a glob relative to the filterc.json's folder that stays in
 * it (no absolute path, no `..`), as a checkout's settings must not send an editor reading
 * elsewhere on the machine.
 */
function samplesProblem(value: Node, shown: string): string | undefined {
  const like = 'a glob of log files inside this folder, like "logs/*.ndjson"';
  if (value.type !== "string") return `samples must be ${like}, not ${shown}`;
  const glob = value.value as string;
  if (glob === "") return `samples must be ${like}, not an empty string`;
  if (/^([/\\~]|[A-Za-z]:)/.test(glob) || glob.split(/[/\\]/).includes(".."))
    return `samples must be ${like}: ${shown} reaches outside the folder of filterc.json`;
  return undefined;
}

/** The filterc.json that applies to a folder: where it is (undefined: none) and what it sets. */
export interface FolderConfig {
  path: string | undefined;
  /** What it sets for the filters: every setting but `samples`. */
  defaults: Omit<ConfigSettings, "samples">;
  /** The glob of sample logs, relative to the folder of `path`. */
  samples?: string;
}

/**
 * Finds the filterc.json nearest a folder (its own, else the first above it, looking in at most
 * MAX_CONFIG_FOLDERS folders) and reads it; the nearest one alone applies. Each folder's answer is
 * kept, so many files of a folder cost one look; `clear` forgets them (the language server, when a
 * filterc.json changes). `show` names a file in messages (the command line: relative to its folder).
 */
export class ConfigLookup {
  private readonly found = new Map<string, Promise<FolderConfig>>();

  constructor(private readonly show: (path: string) => string = (path) => path) {}

  /** The filterc.json of `folder`; rejects with a ConfigError when it cannot be used. */
  forFolder(folder: string): Promise<FolderConfig> {
    const start = resolve(folder);
    let answer = this.found.get(start);
    if (!answer) {
      answer = this.look(start);
      this.found.set(start, answer);
    }
    return answer;
  }

  /** The filterc.json of the folder holding `file`. */
  forFile(file: string): Promise<FolderConfig> {
    return this.forFolder(dirname(resolve(file)));
  }

  clear(): void {
    this.found.clear();
  }

  private async look(start: string): Promise<FolderConfig> {
    let folder = start;
    for (let looked = 1; ; looked++) {
      const path = join(folder, CONFIG_FILE_NAME);
      const bytes = await readUpTo(path, MAX_CONFIG_FILE_BYTES, "regular").catch(
        (error: NodeJS.ErrnoException) => {
          // A path too long for the system names no file: there is none there.
          if (error.code === "ENOENT" || error.code === "ENOTDIR" || error.code === "ENAMETOOLONG")
            return null;
          throw new ConfigError([`cannot read ${this.show(path)}: ${fileProblem(error)}`]);
        },
      );
      if (bytes === undefined)
        throw new ConfigError([
          `${this.show(path)} is larger than ${MAX_CONFIG_FILE_BYTES} bytes, more than its settings need; not read`,
        ]);
      if (bytes !== null) {
        const name = this.show(path);
        const { samples, ...defaults } = readConfig(decodeConfig(bytes, name), name);
        return samples === undefined ? { path, defaults } : { path, defaults, samples };
      }
      const parent = dirname(folder);
      if (parent === folder || looked === MAX_CONFIG_FOLDERS) return { path: undefined, defaults: {} };
      folder = parent;
    }
  }
}

function decodeConfig(bytes: Uint8Array, name: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new ConfigError([`${name} is not valid UTF-8; save it as UTF-8`]);
  }
}
