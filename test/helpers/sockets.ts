import { readFileSync } from "node:fs";

/**
 * The most bytes TCP may hold on one connection whose reader does not read: the receiver's largest
 * buffer and the sender's (Linux's autotuning maxima, 32 + 4 MB on some machines). A test that
 * needs a sender to drop a reader, or to drop what it sends, sends more than this.
 */
export function kernelSocketBytes(): number {
  const most = (file: string, otherwise: number) => {
    try {
      const value = Number(readFileSync(file, "utf8").trim().split(/\s+/)[2]);
      return Number.isFinite(value) ? value : otherwise;
    } catch {
      return otherwise;
    }
  };
  return (
    most("/proc/sys/net/ipv4/tcp_rmem", 6 * 1024 * 1024) +
    most("/proc/sys/net/ipv4/tcp_wmem", 4 * 1024 * 1024)
  );
}
