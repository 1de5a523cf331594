import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addressText,
  MAX_LISTED_ADDRESSES,
  parseRange,
  type RangeText,
  rangeText,
} from "../../src/check/addresses.js";

/*
 * An address range's rewrite must select exactly its addresses, as the logs write them: for
 * random ranges and addresses in and around them, an address is in the range exactly when its
 * text starts with one of the prefixes, or is one of the addresses listed.
 */

const RUNS = 1000;

/** Whether the rewrite selects the address written as `text`. */
function selects(written: RangeText, text: string): boolean {
  if (written.kind === "prefixes") return written.prefixes.some((prefix) => text.startsWith(prefix));
  if (written.kind === "addresses") return written.addresses.includes(text);
  throw new Error("a range too large has no rewrite");
}

const inRange = (address: bigint, network: bigint, prefix: number, bits: number) =>
  address >> BigInt(bits - prefix) === network >> BigInt(bits - prefix);

/** A range and an address in it or beside it: the same bits up to some place, random after. */
const rangeAndAddress = (bits: 32 | 128, prefixes: fc.Arbitrary<number>) =>
  fc
    .record({
      network: fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n }),
      prefix: prefixes,
      keep: fc.integer({ min: 0, max: bits }),
      tail: fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n }),
    })
    .map(({ network, prefix, keep, tail }) => {
      const low = (1n << BigInt(bits - keep)) - 1n;
      return { network, prefix, address: (network & ~low) | (tail & low) };
    });

describe("address ranges", () => {
  it("writes IPv6 addresses as RFC 5952 does (the WHATWG URL parser's serialization)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), {
          minLength: 8,
          maxLength: 8,
        }),
        (groups) => {
          const address = groups.reduce((sum, group) => (sum << 16n) | BigInt(group), 0n);
          const text = addressText(6, address);
          expect(new URL(`http://[${text}]/`).hostname).toBe(`[${text}]`);
          expect(parseRange(`${text}/128`)).toEqual({ version: 6, network: address, prefix: 128 });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("an IPv4 range's rewrite selects exactly its addresses", () => {
    let rewritten = 0;
    fc.assert(
      fc.property(rangeAndAddress(32, fc.integer({ min: 1, max: 32 })), ({ network, prefix, address }) => {
        const range = parseRange(`${addressText(4, network)}/${prefix}`)!;
        const written = rangeText(range);
        if (written.kind === "too large") return;
        rewritten++;
        expect(selects(written, addressText(4, address))).toBe(inRange(address, network, prefix, 32));
      }),
      { numRuns: RUNS },
    );
    expect(rewritten).toBeGreaterThan(RUNS / 4);
  });

  it("an IPv6 range's rewrite selects exactly its addresses", () => {
    let rewritten = 0;
    const prefixes = fc.oneof(
      fc.integer({ min: 1, max: 7 }).map((groups) => groups * 16),
      fc.integer({ min: 1, max: 128 }),
    );
    fc.assert(
      fc.property(rangeAndAddress(128, prefixes), ({ network, prefix, address }) => {
        const range = parseRange(`${addressText(6, network)}/${prefix}`)!;
        const written = rangeText(range);
        if (written.kind === "too large") return;
        rewritten++;
        expect(selects(written, addressText(6, address))).toBe(inRange(address, network, prefix, 128));
        // No IPv4 address is selected by an IPv6 prefix, and the other way round.
        if (written.kind === "prefixes") expect(selects(written, "10.1.2.3")).toBe(false);
      }),
      { numRuns: RUNS },
    );
    expect(rewritten).toBeGreaterThan(RUNS / 4);
  });

  it("writes ranges on whole octets as one prefix, small ranges as their addresses, and says the rest are too large", () => {
    expect(rangeText(parseRange("10.0.0.0/8")!)).toEqual({ kind: "prefixes", prefixes: ["10."] });
    expect(rangeText(parseRange("10.1.2.3/16")!)).toEqual({ kind: "prefixes", prefixes: ["10.1."] });
    expect(rangeText(parseRange("10.0.0.0/23")!)).toEqual({
      kind: "prefixes",
      prefixes: ["10.0.0.", "10.0.1."],
    });
    expect(rangeText(parseRange("192.0.2.8/30")!)).toEqual({
      kind: "addresses",
      addresses: ["192.0.2.8", "192.0.2.9", "192.0.2.10", "192.0.2.11"],
    });
    expect(rangeText(parseRange("1.2.3.4/32")!)).toEqual({ kind: "addresses", addresses: ["1.2.3.4"] });
    expect(rangeText(parseRange("10.0.0.0/20")!)).toEqual({ kind: "too large", addresses: 4096n });
    expect(rangeText(parseRange("0.0.0.0/0")!)).toEqual({ kind: "too large", addresses: 1n << 32n });
    expect(rangeText(parseRange("2001:db8::/32")!)).toEqual({ kind: "prefixes", prefixes: ["2001:db8:"] });
    // A zero group may be written inside `::`, so no prefix of the text says it.
    expect(rangeText(parseRange("2001:db8:0::/48")!).kind).toBe("too large");
    expect(rangeText(parseRange("2001:db8::/124")!)).toMatchObject({ kind: "addresses" });
    expect((rangeText(parseRange("2001:db8::/124")!) as { addresses: string[] }).addresses).toHaveLength(
      MAX_LISTED_ADDRESSES,
    );
  });

  it("reads only CIDR text: an address alone, a port, a bad octet or prefix is none", () => {
    for (const text of [
      "10.0.0.1",
      "10.0.0.0/33",
      "256.0.0.0/8",
      "10.0.0/8",
      "::1/129",
      "1:2:3/64",
      "a.com/8",
      "10.0.0.0/8 ",
    ])
      expect([text, parseRange(text)]).toEqual([text, undefined]);
    expect(parseRange("::ffff:192.0.2.1/128")).toEqual({ version: 6, network: 0xffffc0000201n, prefix: 128 });
  });
});
