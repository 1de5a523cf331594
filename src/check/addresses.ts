/*
 * Address ranges (CIDR, `10.0.0.0/8`) in comparisons of fields that hold one IP address: Logpush
 * compares the address as text, so a range equals no address. What the range can be written as
 * instead, exactly, as the logs write addresses (IPv4 in dotted decimal, IPv6 as RFC 5952 writes
 * it: small letters, no leading zeros, the longest run of zero groups as `::`): the text prefix of a
 * range on whole octets (IPv4 /8, /16, /24) or whole groups of non-zero hex (IPv6 /16 … /112), a
 * few such prefixes, or its addresses listed.
 */

/** An address range as written: its version, network bits and prefix length. */
interface AddressRange {
  version: 4 | 6;
  /** The network's address (host bits cleared). */
  network: bigint;
  prefix: number;
}

/** How a range is written exactly, or why it is not. */
export type RangeText =
  | { kind: "prefixes"; prefixes: string[] }
  | { kind: "addresses"; addresses: string[] }
  | { kind: "too large"; addresses: bigint };

/**
 * The most prefixes and addresses a fix lists: a rewrite adds at most 8 comparisons (of the 30
 * Logpush takes) and 16 addresses, about 300 bytes of JSON for IPv4 (of the 1000), so that it fits
 * beside the rest of a filter.
 */
export const MAX_LISTED_PREFIXES = 8;
export const MAX_LISTED_ADDRESSES = 16;

const bits = (version: 4 | 6) => (version === 4 ? 32 : 128);

function parseIPv4(text: string): bigint | undefined {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255))
    return undefined;
  return parts.reduce((sum, part) => (sum << 8n) | BigInt(part), 0n);
}

function parseIPv6(text: string): bigint | undefined {
  if (!/^[0-9A-Fa-f:.]+$/.test(text) || text.split("::").length > 2) return undefined;
  const groups: number[] = [];
  const readGroups = (part: string, last: boolean): boolean => {
    if (part === "") return true;
    const pieces = part.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!;
      if (last && i === pieces.length - 1 && piece.includes(".")) {
        const v4 = parseIPv4(piece);
        if (v4 === undefined) return false;
        groups.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else if (/^[0-9A-Fa-f]{1,4}$/.test(piece)) groups.push(Number.parseInt(piece, 16));
      else return false;
    }
    return true;
  };
  const [head, tail] = text.split("::") as [string, string | undefined];
  if (!readGroups(head, tail === undefined)) return undefined;
  const headCount = groups.length;
  if (tail !== undefined && !readGroups(tail, true)) return undefined;
  if (tail === undefined ? groups.length !== 8 : groups.length > 7) return undefined;
  const zeros = new Array<number>(8 - groups.length).fill(0);
  const all = [...groups.slice(0, headCount), ...zeros, ...groups.slice(headCount)];
  return all.reduce((sum, group) => (sum << 16n) | BigInt(group), 0n);
}

/** The range `text` writes (`10.0.0.0/8`, `2001:db8::/32`), or undefined when it is no CIDR. */
export function parseRange(text: string): AddressRange | undefined {
  const match = /^([^/\s]+)\/(\d{1,3})$/.exec(text);
  if (!match) return undefined;
  const prefix = Number(match[2]);
  const v4 = parseIPv4(match[1]!);
  const version = v4 === undefined ? 6 : 4;
  const address = v4 ?? parseIPv6(match[1]!);
  if (address === undefined || prefix > bits(version)) return undefined;
  const hostBits = BigInt(bits(version) - prefix);
  return { version, network: (address >> hostBits) << hostBits, prefix };
}

/** An address as the logs write it. */
export function addressText(version: 4 | 6, address: bigint): string {
  if (version === 4) return [24n, 16n, 8n, 0n].map((shift) => String((address >> shift) & 0xffn)).join(".");
  const groups = Array.from({ length: 8 }, (_, i) => Number((address >> BigInt(112 - 16 * i)) & 0xffffn));
  // The longest run of two or more zero groups (the first of equal runs) is written `::`.
  let best = { start: -1, length: 1 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let end = i;
    while (end < 8 && groups[end] === 0) end++;
    if (end - i > best.length) best = { start: i, length: end - i };
    i = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (best.start < 0) return hex.join(":");
  return `${hex.slice(0, best.start).join(":")}::${hex.slice(best.start + best.length).join(":")}`;
}

/** The text every address of a range on whole octets or groups starts with, when there is one. */
function prefixText(version: 4 | 6, network: bigint, prefix: number): string | undefined {
  if (version === 4) {
    const octets = addressText(4, network)
      .split(".")
      .slice(0, prefix / 8);
    return `${octets.join(".")}.`;
  }
  const groups = Array.from({ length: prefix / 16 }, (_, i) => (network >> BigInt(112 - 16 * i)) & 0xffffn);
  // A zero group may be written inside `::`: only non-zero groups start every address's text alike.
  if (groups.some((group) => group === 0n)) return undefined;
  return `${groups.map((group) => group.toString(16)).join(":")}:`;
}

/** How a range is written exactly in comparisons of the text, or how large it is when it cannot be in a filter. */
export function rangeText(range: AddressRange): RangeText {
  const { version, network, prefix } = range;
  const total = bits(version);
  const count = 1n << BigInt(total - prefix);
  const step = version === 4 ? 8 : 16;
  // Ranges on whole octets or groups: one prefix; between, the prefixes of the next boundary.
  const boundary = Math.ceil(prefix / step) * step;
  if (prefix > 0 && boundary < total) {
    const prefixes = 1 << (boundary - prefix);
    if (prefixes <= MAX_LISTED_PREFIXES) {
      const texts: string[] = [];
      const hostBits = BigInt(total - boundary);
      for (let i = 0n; i < BigInt(prefixes); i++) {
        const text = prefixText(version, network + (i << hostBits), boundary);
        if (text === undefined) break;
        texts.push(text);
      }
      if (texts.length === prefixes) return { kind: "prefixes", prefixes: texts };
    }
  }
  if (count <= BigInt(MAX_LISTED_ADDRESSES)) {
    const addresses: string[] = [];
    for (let i = 0n; i < count; i++) addresses.push(addressText(version, network + i));
    return { kind: "addresses", addresses };
  }
  return { kind: "too large", addresses: count };
}
