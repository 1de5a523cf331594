// The line scanner of `filterc eval` (AssemblyScript, compiled to WebAssembly by `npm run wasm` into
// src/eval/line-scanner-module.ts). It checks one NDJSON line of ASCII bytes against the JSON
// grammar as JSON.parse applies it, and finds where the values of the named top-level fields are,
// without building any value: the caller builds only the values a comparison asks for. Strings
// are scanned 16 bytes at a time.
//
// It answers "a JSON object, its named fields here" or "not sure": a line that is malformed, has a
// key written with escapes, or nests deeper than MAX_DEPTH gets 0, and the caller reads that line
// as text (which decides). So it only has to be exact when it answers 1.
//
// Every line in the input ends with an LF (the caller sees to it for the last one). No scan goes
// past it: an LF is a control character, which ends every string with an error, is no digit, no
// blank inside a line (a line holds no LF), and no structural character.

/** Named fields at most. */
const MAX_SLOTS: usize = 1024;
/** Bytes of the names of the named fields, one after the other. */
const NAME_BYTES: usize = 1 << 16;
const NAME_CAPACITY: usize = 1 << 16;
/** Hash table: TABLE_SIZE i32, each the first slot + 1 of its chain (0: none). */
const TABLE: usize = 2 << 16;
const TABLE_SIZE: usize = 1024;
/** Per slot: the next slot + 1 of its chain (i32). */
const CHAIN: usize = TABLE + TABLE_SIZE * 4;
/** Per slot: where its name is and its length (two i32). */
const NAME_AT: usize = CHAIN + MAX_SLOTS * 4;
/** Per slot: the value's start and end (input offsets; start -1 when absent) and whether it is a string with escapes (three i32). */
const RESULTS: usize = 3 << 16;
/** The closing bracket of each open array or object (one byte each). */
const STACK: usize = 4 << 16;
/** Per member of the line scanned before, the key's place in KEYS, its length and its slot (three i32). */
const EXPECTED: usize = STACK + 4096;
const MAX_EXPECTED: usize = 1024;
/** The keys of the line scanned before, one after the other (and 16 bytes a vector reads past them). */
const KEYS: usize = EXPECTED + MAX_EXPECTED * 12;
const KEYS_CAPACITY: usize = (5 << 16) - 16 - KEYS;
const MAX_DEPTH: usize = 512;
/** Where the caller writes the lines; room for INPUT_CAPACITY bytes and the 16 a vector reads past them. */
const INPUT: usize = 5 << 16;
const INPUT_CAPACITY: usize = 1 << 20;

export const input: usize = INPUT;
export const inputCapacity: usize = INPUT_CAPACITY;
export const results: usize = RESULTS;

let slots: usize = 0;
/** Members of the line scanned before whose keys are in EXPECTED. */
let expected: usize = 0;
let nameEnd: usize = NAME_BYTES;
/** Whether the last strings scanned held an escape. */
let escaped: bool = false;
/** Whether the line scanned last holds a named field twice (its last value is the one located). */
let repeated: bool = false;

const QUOTE = i8x16.splat(0x22);
const BACKSLASH = i8x16.splat(0x5c);
const SPACE = i8x16.splat(0x20);

@inline function hashOf(at: usize, length: usize): usize {
  return (length * 31 + <usize>load<u8>(at) * 7 + <usize>load<u8>(at + length - 1)) & (TABLE_SIZE - 1);
}

/** Names the next slot's field: its `length` bytes are at `input`. Returns false when there is no room. */
export function addName(length: usize): bool {
  if (length == 0 || slots == MAX_SLOTS || nameEnd + length > NAME_BYTES + NAME_CAPACITY) return false;
  memory.copy(nameEnd, INPUT, length);
  store<i32>(NAME_AT + (slots << 3), <i32>nameEnd);
  store<i32>(NAME_AT + (slots << 3) + 4, <i32>length);
  const bucket = TABLE + (hashOf(nameEnd, length) << 2);
  store<i32>(CHAIN + (slots << 2), load<i32>(bucket));
  store<i32>(bucket, <i32>slots + 1);
  nameEnd += length;
  slots++;
  return true;
}

/** Whether the `length` bytes at a and at b are the same, 16 at a time (both may be read 16 bytes past their end). */
@inline function sameBytes(a: usize, b: usize, length: usize): bool {
  for (; length >= 16; length -= 16, a += 16, b += 16)
    if (i8x16.bitmask(i8x16.eq(v128.load(a), v128.load(b))) != 0xffff) return false;
  return ((i8x16.bitmask(i8x16.eq(v128.load(a), v128.load(b))) | (0xffff << <i32>length)) & 0xffff) == 0xffff;
}

/** The slot of the key at `at` (its bytes, without quotes), or -1. */
@inline function slotOf(at: usize, length: usize): isize {
  if (length == 0) return -1;
  let next = load<i32>(TABLE + (hashOf(at, length) << 2));
  while (next != 0) {
    const slot = <usize>(next - 1);
    const name = NAME_AT + (slot << 3);
    if (<usize>load<i32>(name + 4) == length && sameBytes(<usize>load<i32>(name), at, length)) return slot;
    next = load<i32>(CHAIN + (slot << 2));
  }
  return -1;
}

/** Past the blanks at `at`. */
@inline function blanks(at: usize): usize {
  // Compact JSON has none: one comparison rules them out (every blank is at most a space).
  if (load<u8>(at) > 0x20) return at;
  while (true) {
    const c = load<u8>(at);
    if (c != 0x20 && c != 0x09 && c != 0x0d) return at;
    at++;
  }
}

@inline function isDigit(c: u32): bool {
  return c - 0x30 < 10;
}

@inline function isHex(c: u32): bool {
  return c - 0x30 < 10 || (c | 0x20) - 0x61 < 6;
}

/**
 * Whether the key at `at` (after its opening quote) is the key of member `member` of the line
 * scanned before: the lines of one job share their keys in one order, and comparing a key with the
 * one expected costs less than scanning it and looking it up.
 */
@inline function isExpected(member: usize, at: usize): bool {
  if (member >= expected) return false;
  const entry = EXPECTED + member * 12;
  const length = <usize>load<i32>(entry + 4);
  return load<u8>(at + length) == 0x22 && sameBytes(<usize>load<i32>(entry), at, length);
}

/** Keeps the key of member `member` (at `at`, written without escapes) as the one the next line is expected to have there. */
function expect(member: usize, at: usize, length: usize, slot: isize): void {
  const entry = EXPECTED + member * 12;
  const key = member == 0 ? KEYS : <usize>load<i32>(entry - 12) + <usize>load<i32>(entry - 8);
  expected = member;
  if (member == MAX_EXPECTED || key + length > KEYS + KEYS_CAPACITY) return;
  memory.copy(key, at, length);
  store<i32>(entry, <i32>key);
  store<i32>(entry + 4, <i32>length);
  store<i32>(entry + 8, <i32>slot);
  expected = member + 1;
}

/** Past the string whose opening quote is at `at`; 0 when it is not one. */
@inline function string(at: usize): usize {
  at++;
  while (true) {
    const bytes = v128.load(at);
    const stops = i8x16.bitmask(
      v128.or(v128.or(i8x16.eq(bytes, QUOTE), i8x16.eq(bytes, BACKSLASH)), i8x16.lt_u(bytes, SPACE)),
    );
    if (stops == 0) {
      at += 16;
      continue;
    }
    at += <usize>ctz(stops);
    const c = load<u8>(at);
    if (c == 0x22) return at + 1;
    if (c != 0x5c) return 0; // a control character
    escaped = true;
    const e = load<u8>(at + 1);
    if (e == 0x75) {
      if (!(isHex(load<u8>(at + 2)) && isHex(load<u8>(at + 3)) && isHex(load<u8>(at + 4)) && isHex(load<u8>(at + 5))))
        return 0;
      at += 6;
    } else if (e == 0x22 || e == 0x5c || e == 0x2f || e == 0x62 || e == 0x66 || e == 0x6e || e == 0x72 || e == 0x74)
      at += 2;
    else return 0;
  }
}

/** Past the number at `at`: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`; 0 when there is none. */
function number(at: usize): usize {
  if (load<u8>(at) == 0x2d) at++;
  const first: u32 = load<u8>(at);
  if (first == 0x30) at++;
  else if (first - 0x31 < 9) while (isDigit(load<u8>(++at)));
  else return 0;
  if (load<u8>(at) == 0x2e) {
    if (!isDigit(load<u8>(++at))) return 0;
    while (isDigit(load<u8>(++at)));
  }
  if ((load<u8>(at) | 0x20) == 0x65) {
    const sign = load<u8>(++at);
    if (sign == 0x2b || sign == 0x2d) at++;
    if (!isDigit(load<u8>(at))) return 0;
    while (isDigit(load<u8>(++at)));
  }
  return at;
}

/** Past the string, number, true, false or null at `at`; 0 when there is none. */
function scalar(at: usize): usize {
  const c = load<u8>(at);
  if (c == 0x22) return string(at);
  if (c == 0x74) return load<u32>(at) == 0x65757274 ? at + 4 : 0; // "true", little-endian
  if (c == 0x6e) return load<u32>(at) == 0x6c6c756e ? at + 4 : 0; // "null"
  if (c == 0x66) return load<u32>(at + 1) == 0x65736c61 ? at + 5 : 0; // "false" after its f
  return number(at);
}

/** Past an object member's key, colon and blanks, at the start of its value; 0 when there is none. */
function key(at: usize): usize {
  if (load<u8>(at) != 0x22) return 0;
  at = string(at);
  if (at == 0) return 0;
  at = blanks(at);
  return load<u8>(at) == 0x3a ? blanks(at + 1) : 0;
}

/** Past the array or object at `at`, any content, without recursion; 0 when there is none or it nests deeper than MAX_DEPTH. */
function nested(at: usize): usize {
  let depth: usize = 0;
  while (true) {
    // At a value.
    const c = load<u8>(at);
    if (c == 0x5b || c == 0x7b) {
      if (depth == MAX_DEPTH) return 0;
      const closer: u8 = c == 0x5b ? 0x5d : 0x7d;
      store<u8>(STACK + depth++, closer);
      at = blanks(at + 1);
      if (load<u8>(at) != closer) {
        if (closer == 0x7d && (at = key(at)) == 0) return 0;
        continue;
      }
      at++;
      if (--depth == 0) return at;
    } else if ((at = scalar(at)) == 0) return 0;
    // After a value: closing brackets, then a comma and the next value.
    at = blanks(at);
    while (load<u8>(at) == load<u8>(STACK + depth - 1)) {
      if (--depth == 0) return at + 1;
      at = blanks(at + 1);
    }
    if (load<u8>(at) != 0x2c) return 0;
    at = blanks(at + 1);
    if (load<u8>(STACK + depth - 1) == 0x7d && (at = key(at)) == 0) return 0;
  }
}

/**
 * Scans the line at input offsets start…end (end at its LF). Returns 1 when it is a JSON object,
 * each slot's value located (the last of duplicate keys, as JSON.parse keeps); 0 when not sure.
 */
export function scan(start: usize, end: usize): i32 {
  for (let slot: usize = 0; slot < slots; slot++) store<i32>(RESULTS + slot * 12, -1);
  repeated = false;
  let at = blanks(INPUT + start);
  if (load<u8>(at) != 0x7b) return 0;
  at = blanks(at + 1);
  if (load<u8>(at) != 0x7d)
    for (let member: usize = 0; ; member++) {
      if (load<u8>(at) != 0x22) return 0;
      const name = at + 1;
      let slot: isize;
      if (isExpected(member, name)) {
        const entry = EXPECTED + member * 12;
        at = name + <usize>load<i32>(entry + 4) + 1;
        slot = load<i32>(entry + 8);
      } else {
        escaped = false;
        at = string(at);
        // A key written with escapes may spell a named field: the caller decides.
        if (at == 0 || escaped) return 0;
        slot = slotOf(name, at - 1 - name);
        expect(member, name, at - 1 - name, slot);
      }
      at = blanks(at);
      if (load<u8>(at) != 0x3a) return 0;
      const value = blanks(at + 1);
      escaped = false;
      const c = load<u8>(value);
      at = c == 0x5b || c == 0x7b ? nested(value) : scalar(value);
      if (at == 0) return 0;
      if (slot >= 0) {
        const result = RESULTS + <usize>slot * 12;
        if (load<i32>(result) >= 0) repeated = true;
        store<i32>(result, <i32>(value - INPUT));
        store<i32>(result + 4, <i32>(at - INPUT));
        store<i32>(result + 8, escaped);
      }
      at = blanks(at);
      const next = load<u8>(at);
      if (next == 0x7d) break;
      if (next != 0x2c) return 0;
      at = blanks(at + 1);
    }
  return blanks(at + 1) == INPUT + end ? 1 : 0;
}

/** Whether the line scanned last (taken) holds a named field twice: engines that read the first of duplicate keys read it otherwise. */
export function repeatedField(): bool {
  return repeated;
}
