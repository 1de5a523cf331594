import { recordCell } from "../src/api/instant-logs.js";
import { parseRecord } from "../src/eval/index.js";

/** The most rows the live table may be asked to keep. */
export const MAX_LIVE_ROWS = 5000;
/** The rows it keeps unless asked otherwise. */
export const DEFAULT_LIVE_ROWS = 200;

/** A record as the table shows it: its number in the order of arrival (1 for the first) and its cells. */
export interface LiveRow {
  number: number;
  cells: string[];
}

/**
 * The records of a live tail, as the table shows them: the last `limit` rows kept, each a record's
 * cells for the session's fields; the older ones, the lines that were no JSON record and the
 * records the console dropped (the page read slower than they came) only counted. The rows held
 * never pass 1.5 × limit (they are trimmed in batches), however long the tail runs.
 */
export class LiveRecords {
  private rows: LiveRow[] = [];
  /** Records received (each one a row once). */
  received = 0;
  /** Lines of the session's messages that were no JSON record. */
  notRecords = 0;
  /** Records the console's server dropped, as it last said. */
  dropped = 0;
  /** Rows added since `takeFresh` was last asked. */
  private fresh = 0;

  constructor(
    private readonly fields: readonly string[],
    private limit: number,
  ) {}

  /** Takes the lines of one message of the session. */
  add(lines: readonly string[], dropped: number): void {
    this.dropped = Math.max(this.dropped, dropped);
    for (const line of lines) {
      const record = parseRecord(line);
      if (!record) {
        this.notRecords++;
        continue;
      }
      this.received++;
      this.fresh++;
      this.rows.push({ number: this.received, cells: this.fields.map((field) => recordCell(record[field])) });
    }
    if (this.rows.length > this.limit + Math.max(1, this.limit >> 1)) this.trim();
  }

  /** Keeps `limit` rows from now on (the oldest go at once when there are more). */
  setLimit(limit: number): void {
    this.limit = limit;
    this.trim();
  }

  /** The rows kept, the newest first. */
  kept(): LiveRow[] {
    return this.rows.slice(-this.limit).reverse();
  }

  /** Records no longer kept: older than the last `limit`. */
  older(): number {
    return this.received - Math.min(this.rows.length, this.limit);
  }

  /** How many rows came since the last call (capped at `limit`: the table never shows more). */
  takeFresh(): number {
    const fresh = Math.min(this.fresh, this.limit);
    this.fresh = 0;
    return fresh;
  }

  private trim(): void {
    if (this.rows.length > this.limit) this.rows.splice(0, this.rows.length - this.limit);
  }
}
