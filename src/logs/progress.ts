/**
 * A one-line progress display on stderr, for terminals only: a bar when the total size is
 * known, bytes read, throughput in MB/s and lines/s. Redrawn at most every 200 ms.
 */
export class Progress {
  private bytes = 0;
  private lastDraw = 0;
  private readonly started = performance.now();

  constructor(
    private readonly write: (text: string) => void,
    private readonly totalBytes: number | undefined,
  ) {}

  read(bytes: number): void {
    this.bytes += bytes;
  }

  update(lines: number): void {
    const now = performance.now();
    if (now - this.lastDraw < 200) return;
    this.lastDraw = now;
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const megabytes = this.bytes / 1e6;
    const figures = `${megabytes.toFixed(1)} MB  ${(megabytes / seconds).toFixed(1)} MB/s  ${Math.round(lines / seconds)} lines/s`;
    this.write(`\r\x1b[K${this.bar()}${figures}`);
  }

  clear(): void {
    if (this.lastDraw !== 0) this.write("\r\x1b[K");
  }

  private bar(): string {
    if (!this.totalBytes) return "";
    const fraction = Math.min(this.bytes / this.totalBytes, 1);
    const width = 24;
    const filled = Math.round(fraction * width);
    return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${Math.floor(fraction * 100)}%  `;
  }
}
