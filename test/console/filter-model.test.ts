import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addItem,
  builderText,
  type Group,
  type Item,
  newGroup,
  newRow,
  type Row,
  readBuilder,
  removeItem,
  setJoin,
  withField,
  withOperator,
} from "../../console/filter/model.js";
import { getCatalog } from "../../src/catalog/index.js";
import { compile } from "../../src/compile.js";
import { print } from "../../src/print/index.js";
import { builderFilters } from "../helpers/builder-filters.js";

const catalog = getCatalog("http_requests")!;
const field = (name: string) => catalog.fields.get(name)!;

/** What the builder reads from a text, as the page reads it: from the text's one compile. */
function read(text: string) {
  const result = compile(text);
  return readBuilder(result.ast, result.diagnostics, catalog);
}

const row = (name: string, operator: Row["operator"], text: string): Row => ({
  kind: "row",
  field: name,
  operator,
  value: { kind: "one", text },
});

/** The groups of a builder, outermost first, depth first: how a test names one. */
const groupsOf = (group: Group): Group[] => [
  group,
  ...group.items.flatMap((item) => (item.kind === "group" ? groupsOf(item) : [])),
];

/** Whether every group has the shape `Group` promises: what the rows are drawn in is the filter's grouping. */
function wellShaped(group: Group, parent?: Group): boolean {
  if (parent && (group.items.length < 2 || group.join === parent.join)) return false;
  if (!parent && group.items.length === 1 && group.items[0]!.kind === "group") return false;
  return group.items.every((item) => item.kind === "row" || wellShaped(item, group));
}

const finished = (group: Group): boolean =>
  group.items.every((item) =>
    item.kind === "row" ? item.field !== null && item.value !== null : finished(item),
  );

describe("the builder's model", () => {
  it("gives back, printed, every filter it can show (fast-check)", () => {
    fc.assert(
      fc.property(builderFilters, (expr) => {
        const text = print(expr);
        const reading = read(text);
        if (!reading.ok) throw new Error(`${text}: ${reading.reason}`);
        expect(builderText(reading.group, catalog)).toBe(text);
        // The groups it draws are the filter's own: one join a group, a group for each parenthesis.
        expect(wellShaped(reading.group)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("reads what it prints as what it holds, whatever was typed (fast-check)", () => {
    fc.assert(
      fc.property(builderFilters, (expr) => {
        const first = read(print(expr));
        if (!first.ok) throw new Error(first.reason);
        const text = builderText(first.group, catalog);
        const again = read(text);
        expect(again.ok && builderText(again.group, catalog)).toBe(text);
        expect(again.ok && again.group).toEqual(first.group);
      }),
      { numRuns: 300 },
    );
  });

  it("shows and/or as the text reads them: and binds tighter, and each mix is a group", () => {
    expect(read('ClientCountry eq "us" or ClientCountry eq "ca" and EdgeResponseStatus geq 500')).toEqual({
      ok: true,
      group: {
        kind: "group",
        join: "or",
        items: [
          row("ClientCountry", "eq", "us"),
          {
            kind: "group",
            join: "and",
            items: [row("ClientCountry", "eq", "ca"), row("EdgeResponseStatus", "geq", "500")],
          },
        ],
      },
    });
    expect(
      read('ClientCountry eq "us" or EdgeResponseStatus geq 500 and (BotScore lt 30 or BotScore gt 90)'),
    ).toEqual({
      ok: true,
      group: {
        kind: "group",
        join: "or",
        items: [
          row("ClientCountry", "eq", "us"),
          {
            kind: "group",
            join: "and",
            items: [
              row("EdgeResponseStatus", "geq", "500"),
              {
                kind: "group",
                join: "or",
                items: [row("BotScore", "lt", "30"), row("BotScore", "gt", "90")],
              },
            ],
          },
        ],
      },
    });
    expect(read('ClientCountry eq "us"')).toEqual({
      ok: true,
      group: { kind: "group", join: "and", items: [row("ClientCountry", "eq", "us")] },
    });
  });

  it("joins rows added at a group's end left to right, as they read: us OR ca, AND status ≥ 500", () => {
    const root: Group = { kind: "group", join: "and", items: [] };
    addItem(root, root, "and", row("ClientCountry", "eq", "us"));
    addItem(root, root, "or", row("ClientCountry", "eq", "ca"));
    addItem(root, root, "and", row("EdgeResponseStatus", "geq", "500"));
    expect(root).toEqual({
      kind: "group",
      join: "and",
      items: [
        {
          kind: "group",
          join: "or",
          items: [row("ClientCountry", "eq", "us"), row("ClientCountry", "eq", "ca")],
        },
        row("EdgeResponseStatus", "geq", "500"),
      ],
    });
    expect(builderText(root, catalog)).toBe(
      '(ClientCountry eq "us" or ClientCountry eq "ca") and EdgeResponseStatus geq 500',
    );
    expect(compile(builderText(root, catalog)).filter).toBe(
      '{"where":{"and":[{"key":"ClientCountry","operator":"in","value":["us","ca"]},{"key":"EdgeResponseStatus","operator":"geq","value":"500"}]}}',
    );

    // us OR (ca AND status): the group is asked for, and drawn.
    const other: Group = { kind: "group", join: "and", items: [] };
    addItem(other, other, "and", row("ClientCountry", "eq", "us"));
    const group = newGroup("or");
    addItem(other, other, "or", group);
    expect(other.join).toBe("or");
    expect(group.join).toBe("and");
    group.items[0] = row("ClientCountry", "eq", "ca");
    group.items[1] = row("EdgeResponseStatus", "geq", "500");
    expect(builderText(other, catalog)).toBe(
      'ClientCountry eq "us" or ClientCountry eq "ca" and EdgeResponseStatus geq 500',
    );

    // One join a group: setting it sets every join the group shows; a nested group set to its
    // parent's join is no group any more.
    setJoin(other, group, "or");
    expect(other).toEqual({
      kind: "group",
      join: "or",
      items: [
        row("ClientCountry", "eq", "us"),
        row("ClientCountry", "eq", "ca"),
        row("EdgeResponseStatus", "geq", "500"),
      ],
    });
    setJoin(other, other, "and");
    expect(builderText(other, catalog)).toBe(
      'ClientCountry eq "us" and ClientCountry eq "ca" and EdgeResponseStatus geq 500',
    );
  });

  it("keeps every group the filter's own and changes the filter as each edit says (fast-check)", () => {
    const rows: Row[] = [
      row("ClientCountry", "eq", "us"),
      row("EdgeResponseStatus", "geq", "500"),
      row("ClientRequestPath", "startsWith", "/api"),
      row("BotScore", "lt", "30"),
      {
        kind: "row",
        field: "ClientRequestMethod",
        operator: "in",
        value: { kind: "list", items: ["GET", "HEAD"] },
      },
    ];
    const edit = fc.oneof(
      fc.record({
        kind: fc.constant("add" as const),
        group: fc.nat(),
        join: fc.constantFrom("and" as const, "or" as const),
        item: fc.oneof(
          fc.constantFrom(...rows),
          fc.constant("group" as const),
          fc.constant("unfinished" as const),
        ),
      }),
      fc.record({
        kind: fc.constant("join" as const),
        group: fc.nat(),
        join: fc.constantFrom("and" as const, "or" as const),
      }),
      fc.record({ kind: fc.constant("remove" as const), group: fc.nat(), index: fc.nat() }),
    );
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 14 }), (edits) => {
        const root: Group = { kind: "group", join: "and", items: [] };
        for (const step of edits) {
          const before = structuredClone(root);
          const groups = groupsOf(root);
          const at = step.group % groups.length;
          const target = groups[at]!;
          // What the edit means, written on a copy as the group it makes: the printer reads
          // a group in a group of its join as its items, and a group of one as that one.
          const expected = structuredClone(root);
          const copy = groupsOf(expected)[at]!;
          const swap = (replacement: Item) => {
            if (copy === expected)
              Object.assign(expected, { kind: "group", join: "and", items: [replacement] });
            else {
              const holder = groupsOf(expected).find((g) => g.items.includes(copy))!;
              holder.items[holder.items.indexOf(copy)] = replacement;
            }
          };
          if (step.kind === "add") {
            const item =
              step.item === "group"
                ? { ...newGroup(step.join), items: [rows[0]!, rows[1]!].map((r) => ({ ...r })) }
                : step.item === "unfinished"
                  ? newRow()
                  : { ...step.item };
            swap({ kind: "group", join: step.join, items: [structuredClone(copy), structuredClone(item)] });
            addItem(root, target, step.join, item);
          } else if (step.kind === "join") {
            swap({ kind: "group", join: step.join, items: copy.items });
            setJoin(root, target, step.join);
          } else {
            if (target.items.length === 0) continue;
            const index = step.index % target.items.length;
            copy.items.splice(index, 1);
            swap({ ...copy });
            removeItem(root, target, index);
          }
          expect(wellShaped(root), JSON.stringify(before)).toBe(true);
          expect(builderText(root, catalog)).toBe(builderText(expected, catalog));
          if (finished(root)) {
            // What is drawn is what the text reads back: the JSON's grouping, exactly.
            const reading = read(builderText(root, catalog));
            const shown = root.items.length === 0 ? { kind: "group", join: "and", items: [] } : root;
            expect(reading.ok && reading.group).toEqual(
              root.items.length === 1 ? { ...shown, join: "and" } : shown,
            );
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it("writes typed values: numbers for number fields, text otherwise, lists one value a line", () => {
    const group: Group = {
      kind: "group",
      join: "or",
      items: [
        {
          kind: "group",
          join: "and",
          items: [
            {
              kind: "row",
              field: "EdgeResponseStatus",
              operator: "in",
              value: { kind: "list", items: ["500", " 502 "] },
            },
            row("EdgeResponseStatus", "eq", "abc"),
          ],
        },
        {
          kind: "group",
          join: "and",
          items: [row("ClientRequestHost", "eq", '5 "quoted"'), row("CacheTieredFill", "eq", "true")],
        },
      ],
    };
    expect(builderText(group, catalog)).toBe(
      'EdgeResponseStatus in [500, 502] and EdgeResponseStatus eq "abc"\n  or ClientRequestHost eq "5 \\"quoted\\"" and CacheTieredFill eq true',
    );
    const checked = compile(builderText(group, catalog));
    expect(checked.diagnostics.map((d) => `${d.code} ${d.message}`)).toEqual([
      'E0302 `EdgeResponseStatus` is an int field, but the value is the string "abc"',
    ]);
  });

  it("leaves out a row until its field is chosen and its value given", () => {
    const group: Group = {
      kind: "group",
      join: "and",
      items: [
        row("ClientCountry", "eq", "us"),
        newRow(),
        { ...newRow(), field: "EdgeResponseStatus", operator: "eq" },
      ],
    };
    expect(builderText(group, catalog)).toBe('ClientCountry eq "us"');
    expect(builderText({ kind: "group", join: "or", items: [newRow(), newRow()] }, catalog)).toBe("");
  });

  it("says why it cannot show a filter", () => {
    const reasons = (text: string) => {
      const reading = read(text);
      return reading.ok ? "shown" : [reading.reason, reading.pushDown];
    };
    expect(reasons('not ClientCountry eq "us"')).toEqual([
      "the builder has no NOT (Logpush's JSON has none either): the filter can be written without it, as its comparisons negated",
      true,
    ]);
    expect(reasons('# api\nClientCountry eq "us"')).toEqual([
      "the builder would drop the text's comments; remove them to use the builder",
      false,
    ]);
    expect(reasons("ClientCountry eq")).toEqual([
      'the text does not read as a filter: expected a value after `eq`: a "string", a number, true, false or a [list], found the end of the filter (line 1, column 17)',
      false,
    ]);
    expect(reasons('ClientIp eq "1.2.3.4"')).toEqual([
      "unknown field `ClientIp`; field names are case-sensitive: did you mean `ClientIP`? (line 1, column 1)",
      false,
    ]);
    expect(reasons('RequestHeaders eq "a"')).toEqual([
      "`RequestHeaders` is an object field, and Logpush cannot filter on objects (line 1, column 1)",
      false,
    ]);
    expect(reasons('EdgeResponseStatus eq "500"')).toEqual([
      '`EdgeResponseStatus` is an int field, but the value is the string "500"; write 500 (line 1, column 23)',
      false,
    ]);
    expect(reasons('ClientRequestPath eq "a\\nb"')).toEqual([
      "a value holds a line break, which the builder's inputs cannot (line 1, column 22)",
      false,
    ]);
    expect(reasons('ClientRequestPath in [""]')).toEqual([
      "a list of one empty text cannot be written one value a line (line 1, column 22)",
      false,
    ]);
    // What the builder shows with its problem at the row: the value's type, a list where one value is due.
    expect(reasons('EdgeResponseStatus eq "abc"')).toBe("shown");
    expect(reasons("EdgeResponseStatus eq [500, 502]")).toBe("shown");
    expect(reasons("EdgeResponseStatus eq 1.5")).toBe("shown");
  });

  it("starts a row empty, and turns its value into a list and back as the operator changes", () => {
    const start = newRow();
    expect(start).toEqual({ kind: "row", field: null, operator: null, value: null });
    const status = withField(start, field("EdgeResponseStatus"), undefined);
    // The field's first operator, and still no value: nothing typed, so nothing to refuse.
    expect(status).toEqual({ kind: "row", field: "EdgeResponseStatus", operator: "eq", value: null });
    expect(withOperator(status, "in").value).toBe(null);
    const listed = withOperator({ ...status, value: { kind: "one", text: "500" } }, "in");
    expect(listed.value).toEqual({ kind: "list", items: ["500"] });
    expect(withOperator({ ...listed, value: { kind: "list", items: ["500", "502"] } }, "eq").value).toEqual({
      kind: "list",
      items: ["500", "502"],
    });
    expect(withOperator(listed, "eq").value).toEqual({ kind: "one", text: "500" });
    // A bool field's control holds true or false: chosen, not typed, and not kept for another field.
    const tiered = withField(status, field("CacheTieredFill"), field("EdgeResponseStatus"));
    expect(tiered.value).toEqual({ kind: "one", text: "true" });
    expect(withField(tiered, field("ClientRequestHost"), field("CacheTieredFill")).value).toBe(null);
    expect(withField(listed, field("ClientRequestHost"), field("EdgeResponseStatus"))).toEqual({
      kind: "row",
      field: "ClientRequestHost",
      operator: "in",
      value: { kind: "list", items: ["500"] },
    });
  });
});
