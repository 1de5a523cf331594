import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compile, type LogpushNode } from "../../src/index.js";
import { loadCatalogFixture } from "../helpers/conformance.js";

/** The real filters of Cloudflare's docs and users (copied from the reference material). */
interface FilterExample {
  filter: string;
  expectValid: boolean;
  source: string;
}

/**
 * An equivalent filterc source for each valid vector. `catalog` names a test catalog for datasets
 * filterc does not ship (network_analytics_logs: a partial catalog of the fields used here).
 */
interface ExampleSource {
  vector: number;
  source: string;
  catalog?: string;
  /**
   * Two docs vectors wrap a whole `and` in a one-element `or`. filterc always drops one-element
   * groups (docs/testing.md), with or without the optimizer, and no source
   * spelling makes one, so these compile to the same meaning without that wrapper: the test
   * compares with the vector after dropping one-element groups.
   */
  oneElementGroupsDropped?: boolean;
}

const read = (path: string) => JSON.parse(readFileSync(new URL(path, import.meta.url), "utf8"));
const examples = read("../fixtures/reference/filter-examples.json") as FilterExample[];
const sources = read("../fixtures/filter-example-sources.json") as ExampleSource[];

function dropOneElementGroups(node: LogpushNode): LogpushNode {
  if ("key" in node) return node;
  const children = ("and" in node ? node.and : node.or).map(dropOneElementGroups);
  if (children.length === 1) return children[0]!;
  return "and" in node ? { and: children } : { or: children };
}

describe("the reference filter examples compile back from equivalent sources", () => {
  it("has a source for every valid vector", () => {
    const valid = examples.flatMap((example, index) => (example.expectValid ? [index] : []));
    expect(sources.map((s) => s.vector)).toEqual(valid);
  });

  it.each(sources.map((s) => [s.vector, s] as const))("vector %i", (index, example) => {
    const vector = examples[index]!.filter;
    const expected = example.oneElementGroupsDropped
      ? JSON.stringify({ where: dropOneElementGroups(JSON.parse(vector).where) })
      : vector;
    const options = example.catalog ? { catalog: loadCatalogFixture(example.catalog) } : {};
    for (const optimize of [true, false]) {
      const result = compile(example.source, { ...options, optimize });
      expect(result.diagnostics).toEqual([]);
      expect(result.filter).toBe(expected);
    }
  });
});
