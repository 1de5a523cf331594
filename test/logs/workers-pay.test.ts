import { cpus } from "node:os";
import { describe, expect, it } from "vitest";
import { coresSince, readCores } from "../../src/logs/cores.js";
import { MIN_CORES_A_WORKER, workersThatPay } from "../../src/logs/workers-pay.js";

describe("workersThatPay", () => {
  it("keeps the workers where the run had the cores for them", () => {
    expect(workersThatPay(2, 1.98)).toBe(2);
    expect(workersThatPay(8, 15.6)).toBe(8);
  });

  it("keeps one where two workers had less than a core and a quarter", () => {
    // Two workers on 2 vCPUs shared with other work (load average 13): 0.57 of a core.
    expect(workersThatPay(2, 0.57)).toBe(1);
    expect(workersThatPay(2, 1.24)).toBe(1);
    expect(workersThatPay(2, 1.25)).toBe(2);
  });

  it("asks a quarter of a core more for each worker beyond the first", () => {
    expect(MIN_CORES_A_WORKER).toBe(0.25);
    expect(workersThatPay(4, 1.75)).toBe(4);
    expect(workersThatPay(4, 1.7)).toBe(1);
    expect(workersThatPay(8, 2.75)).toBe(8);
    expect(workersThatPay(8, 2.7)).toBe(1);
  });

  it("keeps all where the cores could not be measured, and one worker always", () => {
    expect(workersThatPay(2, undefined)).toBe(2);
    expect(workersThatPay(1, 0.1)).toBe(1);
  });

  it("takes another threshold: -1 keeps every worker, 2 keeps one", () => {
    expect(workersThatPay(2, 0.01, -1)).toBe(2);
    expect(workersThatPay(2, 2, 2)).toBe(1);
  });
});

describe("coresSince", () => {
  it("counts a busy loop's share of a core with the cores left idle", () => {
    const before = readCores();
    const until = performance.now() + 50;
    while (performance.now() < until);
    const cores = coresSince(before)!;
    // The loop's share of a core and the idle ones: at most the cores, give or take the idle time's
    // ticks of 10 ms on each.
    expect(cores).toBeGreaterThan(0);
    expect(cores).toBeLessThanOrEqual(cpus().length * 1.2 + 0.1);
  });
});
