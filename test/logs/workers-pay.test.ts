import { describe, expect, it } from "vitest";
import { MIN_CORES_A_WORKER, workersThatPay } from "../../src/logs/workers-pay.js";

const times = (runMs: number, waitMs: number) => ({ runMs, waitMs });

describe("workersThatPay", () => {
  it("keeps the workers that got whole cores", () => {
    expect(workersThatPay([times(60, 1), times(61, 2)])).toBe(2);
    expect(workersThatPay(Array.from({ length: 8 }, () => times(100, 5)))).toBe(8);
  });

  it("keeps one where the workers shared less than a core and a quarter", () => {
    // Two workers on 2 vCPUs at a load average of 13: 0.44 and 0.26 of a core.
    expect(workersThatPay([times(61.2, 79.3), times(60.8, 173.9)])).toBe(1);
    // 0.62 of a core each: 1.24 together, just under the line.
    expect(workersThatPay([times(62, 38), times(62, 38)])).toBe(1);
    expect(workersThatPay([times(63, 37), times(63, 37)])).toBe(2);
  });

  it("asks a quarter of a core more for each worker beyond the first", () => {
    expect(MIN_CORES_A_WORKER).toBe(0.25);
    // Four workers at half a core each: 2 cores, over the 1.75 asked.
    expect(workersThatPay(Array.from({ length: 4 }, () => times(50, 50)))).toBe(4);
    // Four at 0.4: 1.6 cores, under 1.75.
    expect(workersThatPay(Array.from({ length: 4 }, () => times(40, 60)))).toBe(1);
  });

  it("keeps all where a thread's times could not be read, or for one worker", () => {
    expect(workersThatPay([times(10, 90), undefined])).toBe(2);
    expect(workersThatPay([times(10, 90)])).toBe(1);
    // A thread that never ran nor waited (its part was empty) counts as a whole core.
    expect(workersThatPay([times(0, 0), times(60, 0)])).toBe(2);
  });

  it("takes another threshold: -1 keeps every worker, 2 keeps one", () => {
    const shared = [times(1, 99), times(1, 99)];
    expect(workersThatPay(shared, -1)).toBe(2);
    // At 0, the workers must get a core between them.
    expect(workersThatPay([times(30, 70), times(30, 70)], 0)).toBe(1);
    expect(workersThatPay([times(50, 50), times(50, 50)], 0)).toBe(2);
    expect(workersThatPay([times(60, 0), times(60, 0)], 2)).toBe(1);
  });
});
