import { LINE_SCANNER_WASM } from "./line-scanner-module.js";
import { otherValue } from "./records.js";

/** The scanner's module, compiled once per thread (3.5 KB: small enough to compile synchronously, in browsers too). */
let module: WebAssembly.Module | undefined;

/**
 * The scanner's compiled module. One module serves every thread of a process (it can be posted to a
 * worker): eval's workers take the main thread's rather than each decoding, compiling and tiering
 * up their own (bench/RESULTS.md, "eval's fixed cost per worker").
 */
export function lineScannerModule(): WebAssembly.Module {
  module ??= new WebAssembly.Module(Uint8Array.from(atob(LINE_SCANNER_WASM), (c) => c.charCodeAt(0)));
  return module;
}

interface ScannerExports {
  memory: WebAssembly.Memory;
  input: WebAssembly.Global;
  inputCapacity: WebAssembly.Global;
  results: WebAssembly.Global;
  addName(length: number): number;
  scan(start: number, end: number): number;
  repeatedField(): number;
}

/**
 * The line scanner (wasm/line-scanner.ts): checks lines of bytes against the JSON grammar and
 * finds where the values of the named top-level fields are, 16 bytes at a time, building nothing.
 * Lines are scanned from a block loaded into its memory; `scan` answers true for a JSON object
 * (then `value` builds a slot's value) and false when not sure: a malformed line, a key written
 * with escapes, nesting past 512 levels, which the caller reads as text.
 */
export class LineScanner {
  /** The longest block `load` takes, in bytes. */
  readonly capacity: number;
  private readonly memory: Uint8Array;
  private readonly input: number;
  /** Per slot: the value's start and end in the block (start -1: absent), and whether it is a string with escapes. */
  private readonly results: Int32Array;
  private readonly scanLine: (start: number, end: number) => number;
  private readonly repeatedLast: () => number;

  /**
   * A scanner of the named fields (distinct, none empty), an instance of `compiled` (the scanner's
   * module); undefined when they do not fit its tables.
   */
  static of(fields: readonly string[], compiled = lineScannerModule()): LineScanner | undefined {
    const exports = new WebAssembly.Instance(compiled).exports as unknown as ScannerExports;
    const memory = new Uint8Array(exports.memory.buffer);
    const encoder = new TextEncoder();
    for (const field of fields) {
      const name = encoder.encode(field);
      if (name.length > exports.inputCapacity.value) return undefined;
      memory.set(name, exports.input.value);
      if (!exports.addName(name.length)) return undefined;
    }
    return new LineScanner(exports, memory, fields.length);
  }

  private constructor(exports: ScannerExports, memory: Uint8Array, slots: number) {
    this.capacity = exports.inputCapacity.value;
    this.memory = memory;
    this.input = exports.input.value;
    this.results = new Int32Array(exports.memory.buffer, exports.results.value, slots * 3);
    this.scanLine = exports.scan;
    this.repeatedLast = exports.repeatedField;
  }

  /** Makes `block` (whole lines, the last ending with an LF) the one scanned; false when it is longer than `capacity`. */
  load(block: Uint8Array): boolean {
    if (block.length > this.capacity) return false;
    this.memory.set(block, this.input);
    return true;
  }

  /** Scans the line at block offsets start…end (end at its LF). */
  scan(start: number, end: number): boolean {
    return this.scanLine(start, end) === 1;
  }

  /**
   * Whether the line scanned last (taken) holds a named field twice: its slot holds the last value,
   * as JSON.parse keeps, where DuckDB's JSON functions read the first.
   */
  repeatedField(): boolean {
    return this.repeatedLast() === 1;
  }

  /**
   * Where a slot's value in the line scanned last starts, as an offset into `bytes` (-1: the line
   * lacks the field); valueEnd tells where it ends. With these a check reads values building nothing.
   */
  valueStart(slot: number): number {
    const at = this.results[slot * 3]!;
    return at < 0 ? -1 : this.input + at;
  }

  /** Where a slot's value (present) in the line scanned last ends: see valueStart. */
  valueEnd(slot: number): number {
    return this.input + this.results[slot * 3 + 1]!;
  }

  /** The scanner's memory, which holds the block loaded (see valueStart). */
  get bytes(): Uint8Array {
    return this.memory;
  }

  /**
   * The value of a slot's field in the line scanned last, as parseRecord reads it (undefined when
   * the line lacks the field), sliced from `text`: the block decoded, where each of the line's bytes
   * stands `shift` characters before its offset in the block.
   */
  value(slot: number, text: string, shift: number): unknown {
    const at = this.results[slot * 3]!;
    if (at < 0) return undefined;
    const start = at - shift;
    const end = this.results[slot * 3 + 1]! - shift;
    if (text.charCodeAt(start) !== 0x22) return otherValue(text.slice(start, end));
    return this.results[slot * 3 + 2] === 0
      ? text.slice(start + 1, end - 1)
      : JSON.parse(text.slice(start, end));
  }
}
