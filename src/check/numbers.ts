/** Exact arithmetic on decimal text: integers of any length and decimals, without floats. */

const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/** Whether integer text lies in -2^63 … 2^64-1 (Logpush decodes some lists as uint64). */
export function fitsInt64Range(digits: string): boolean {
  const length = digits.startsWith("-") ? digits.length - 1 : digits.length;
  if (length < 19) return true;
  const value = BigInt(digits);
  return value >= INT64_MIN && value <= UINT64_MAX;
}

/** Canonical decimal text: no leading zeros, no trailing fraction zeros, no `-0`. */
export function canonicalNumber(text: string): string {
  if (isCanonicalInteger(text)) return text;
  let sign = "";
  let body = text;
  if (body.startsWith("-")) {
    sign = "-";
    body = body.slice(1);
  }
  let [whole = "", fraction = ""] = body.split(".");
  whole = whole.replace(/^0+(?=\d)/, "");
  fraction = fraction.replace(/0+$/, "");
  const result = fraction ? `${whole}.${fraction}` : whole;
  return result === "0" ? "0" : sign + result;
}

/** `0`, or digits without a leading zero, optionally negative: already canonical (the common case, kept cheap). */
function isCanonicalInteger(text: string): boolean {
  const start = text.charCodeAt(0) === 45 ? 1 : 0;
  const first = text.charCodeAt(start);
  if (first === 48) return text.length === 1;
  if (first < 49 || first > 57) return false;
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** Compares two canonical decimal texts exactly: negative, zero or positive like a sort comparator. */
export function compareNumbers(a: string, b: string): number {
  const negativeA = a.startsWith("-");
  const negativeB = b.startsWith("-");
  if (negativeA !== negativeB) return negativeA ? -1 : 1;
  const magnitude = compareMagnitudes(negativeA ? a.slice(1) : a, negativeB ? b.slice(1) : b);
  return negativeA ? -magnitude : magnitude;
}

function compareMagnitudes(a: string, b: string): number {
  const [wholeA = "", fractionA = ""] = a.split(".");
  const [wholeB = "", fractionB = ""] = b.split(".");
  if (wholeA.length !== wholeB.length) return wholeA.length - wholeB.length;
  if (wholeA !== wholeB) return wholeA < wholeB ? -1 : 1;
  const length = Math.max(fractionA.length, fractionB.length);
  const paddedA = fractionA.padEnd(length, "0");
  const paddedB = fractionB.padEnd(length, "0");
  return paddedA === paddedB ? 0 : paddedA < paddedB ? -1 : 1;
}

export function isIntegerText(text: string): boolean {
  return /^-?\d+$/.test(text);
}

export function isNumberText(text: string): boolean {
  return /^-?\d+(\.\d+)?$/.test(text);
}
