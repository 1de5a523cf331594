import { execFileSync, spawn } from "node:child_process";

/** Makes a fifo (named pipe) at `path`. */
export function makeFifo(path: string): string {
  execFileSync("mkfifo", [path]);
  return path;
}

/**
 * Writes `bytes` into a fifo from another process, whose open waits for a reader, as `<(…)` and a
 * pipeline do; resolves once it is done.
 */
export function writeTo(fifo: string, bytes: string | Uint8Array): Promise<unknown> {
  const writer = spawn("sh", ["-c", 'cat > "$0"', fifo]);
  writer.stdin.end(bytes);
  return new Promise((resolve) => writer.on("close", resolve));
}
