/**
 * The live table's records (console/live-records.ts): the last rows kept, the newest first, each a
 * record's cells for the session's fields, exactly as the record wrote them; the older ones, the
 * lines that were no record and what the server dropped counted; never more rows held than the bound.
 */
import { describe, expect, it } from "vitest";
import { LiveRecords } from "../../console/live-records.js";

const line = (i: number) => `{"RayID":"ray${i}","EdgeResponseStatus":${500 + (i % 4)}}`;

describe("the live table's records", () => {
  it("keeps the last rows, the newest first, and counts the older ones", () => {
    const records = new LiveRecords(["RayID", "EdgeResponseStatus"], 3);
    records.add([line(1), line(2)], 0);
    expect(records.kept()).toEqual([
      { number: 2, cells: ["ray2", "502"] },
      { number: 1, cells: ["ray1", "501"] },
    ]);
    expect(records.older()).toBe(0);
    records.add([line(3), line(4), line(5)], 0);
    expect(records.kept().map((row) => row.number)).toEqual([5, 4, 3]);
    expect([records.received, records.older()]).toEqual([5, 2]);
  });

  it("shows each value as the record wrote it: numbers exact, text as it is, a missing one as -", () => {
    const records = new LiveRecords(["EdgeStartTimestamp", "ClientRequestURI", "RayID", "Cookies"], 10);
    records.add(
      ['{"EdgeStartTimestamp":1700000000123456789,"ClientRequestURI":"/a b","Cookies":{"s":"1"}}'],
      0,
    );
    expect(records.kept()[0]!.cells).toEqual(["1700000000123456789", "/a b", "-", '{"s":"1"}']);
  });

  it("counts lines that are no JSON record, and the most the server said it dropped", () => {
    const records = new LiveRecords(["RayID"], 10);
    records.add(["not json", "[1,2]", line(1)], 4);
    records.add([], 9);
    records.add([line(2)], 9);
    expect([records.received, records.notRecords, records.dropped]).toEqual([2, 2, 9]);
  });

  it("says how many rows came since it was last asked, at most the rows kept", () => {
    const records = new LiveRecords(["RayID"], 4);
    records.add([line(1), line(2)], 0);
    expect(records.takeFresh()).toBe(2);
    expect(records.takeFresh()).toBe(0);
    records.add(
      Array.from({ length: 9 }, (_, i) => line(i)),
      0,
    );
    expect(records.takeFresh()).toBe(4);
  });

  it("holds at most one and a half times the rows kept, however many come", () => {
    const records = new LiveRecords(["RayID"], 100);
    for (let batch = 0; batch < 200; batch++)
      records.add(
        Array.from({ length: 37 }, (_, i) => line(batch * 37 + i)),
        0,
      );
    const held = (records as unknown as { rows: unknown[] }).rows.length;
    expect(held).toBeLessThanOrEqual(150);
    expect(records.kept()).toHaveLength(100);
    expect(records.kept()[0]!.number).toBe(7400);
    records.setLimit(10);
    expect((records as unknown as { rows: unknown[] }).rows.length).toBe(10);
    expect(records.kept().map((row) => row.number)).toEqual(Array.from({ length: 10 }, (_, i) => 7400 - i));
    expect(records.older()).toBe(7390);
  });
});
