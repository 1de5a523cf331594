/**
 * The cores a run gets, measured over a stretch of it: the CPU time of the process (every thread:
 * the workers, the main thread, the thread pool's reads and inflating) and the time the machine's
 * cores were idle, both over the wall time. Whatever else is the cores' is other work's, which the
 * workers have to share them with.
 */
import { cpus } from "node:os";

/** What the cores had done at one moment, in milliseconds. */
export interface CoresReading {
  wallMs: number;
  /** The process's CPU time, user and system. */
  ownMs: number;
  /** The machine's cores' idle time, summed (undefined where the system does not tell it). */
  idleMs: number | undefined;
}

export function readCores(): CoresReading {
  const { user, system } = process.cpuUsage();
  const times = cpus();
  return {
    wallMs: performance.now(),
    ownMs: (user + system) / 1000,
    idleMs: times.length > 0 ? times.reduce((sum, cpu) => sum + cpu.times.idle, 0) : undefined,
  };
}

/**
 * The cores the process had or could have had since `before`: its own CPU time and the cores' idle
 * time over the wall time; undefined where the idle time is not told or no time passed.
 */
export function coresSince(before: CoresReading): number | undefined {
  const now = readCores();
  const wallMs = now.wallMs - before.wallMs;
  if (before.idleMs === undefined || now.idleMs === undefined || wallMs <= 0) return undefined;
  return (now.ownMs - before.ownMs + (now.idleMs - before.idleMs)) / wallMs;
}
