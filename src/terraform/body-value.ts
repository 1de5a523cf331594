import type { Block, Body } from "./hcl-ast.js";
import type { Site, SourceFile } from "./source-file.js";
import { evaluate, type Scope, type StaticValue, type Unread } from "./values.js";

/**
 * A resource's settings as the plain value the API takes, with the place of each of its parts by
 * JSON pointer (`/rules/0/action_parameters/request_fields/1/name`), so that a problem the API
 * module finds at a pointer is reported where the configuration writes it.
 */
export interface PlacedValue {
  value: unknown;
  sites: Map<string, Site>;
}

/** How a resource's body is read: the settings read (at its top), and which blocks repeat (v4 `rules {}`). */
export interface BodyShape {
  read: ReadonlySet<string>;
  listBlocks: ReadonlySet<string>;
}

/** A setting whose value cannot be read statically: its name (`output_options.field_names`) and why. */
export interface UnreadSetting {
  setting: string;
  unread: Unread;
}

/** Reads a body: its arguments evaluated, its blocks as objects (or, for `listBlocks`, lists of them). */
export async function bodyValue(
  body: Body,
  file: SourceFile,
  scope: Scope,
  shape: BodyShape,
  at: string,
  sites: Map<string, Site>,
  unread: UnreadSetting[],
): Promise<Record<string, unknown>> {
  const value: Record<string, unknown> = {};
  for (const item of body.items) {
    if (at === "" && !shape.read.has(item.kind === "attribute" ? item.name : item.type)) continue;
    if (item.kind === "attribute") {
      const evaluated = await evaluate(item.value, file, scope);
      if (evaluated.kind === "unread") {
        unread.push({
          setting: `${at}/${item.name}`
            .slice(1)
            .replace(/\/(\d+)/g, "[$1]")
            .replaceAll("/", "."),
          unread: evaluated,
        });
        continue;
      }
      value[item.name] = plain(evaluated, `${at}/${item.name}`, sites);
      continue;
    }
    if (shape.listBlocks.has(item.type)) {
      const list = Array.isArray(value[item.type]) ? (value[item.type] as unknown[]) : [];
      value[item.type] = list;
      if (list.length === 0) sites.set(`${at}/${item.type}`, blockSite(item, file));
      const pointer = `${at}/${item.type}/${list.length}`;
      list.push(await blockValue(item, file, scope, shape, pointer, sites, unread));
    } else {
      value[item.type] = await blockValue(item, file, scope, shape, `${at}/${item.type}`, sites, unread);
    }
  }
  return value;
}

async function blockValue(
  block: Block,
  file: SourceFile,
  scope: Scope,
  shape: BodyShape,
  at: string,
  sites: Map<string, Site>,
  unread: UnreadSetting[],
): Promise<Record<string, unknown>> {
  sites.set(at, blockSite(block, file));
  return bodyValue(block.body, file, scope, shape, at, sites, unread);
}

/** A block is shown by its type name (`rules`, `output_options`). */
function blockSite(block: Block, file: SourceFile): Site {
  return { file, start: block.typeSpan.start, end: block.typeSpan.end };
}

/** A static value as plain JSON-like data, recording each part's place under `at`. */
export function plain(value: StaticValue, at: string, sites: Map<string, Site>): unknown {
  sites.set(at, value.site);
  switch (value.kind) {
    case "string":
      return value.value.text;
    case "number":
      return Number(value.text);
    case "bool":
      return value.value;
    case "null":
      return null;
    case "array":
      return value.elements.map((element, index) => plain(element, `${at}/${index}`, sites));
    case "object":
      return Object.fromEntries(
        value.entries.map((entry) => [
          entry.name.text,
          plain(entry.value, `${at}/${entry.name.text}`, sites),
        ]),
      );
  }
}

/** The place of the longest prefix of `pointer` that has one (a problem deep in a value written by a reference). */
export function siteOfPointer(sites: ReadonlyMap<string, Site>, pointer: string): Site | undefined {
  for (let at = pointer; ; at = at.slice(0, at.lastIndexOf("/"))) {
    const site = sites.get(at);
    if (site) return site;
    if (at === "") return undefined;
  }
}
