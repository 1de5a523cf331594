/**
 * The values of the fields a filter names, by slot, for one record at a time: each read when a
 * comparison first asks for it, and kept until `next()`. A filter whose first comparison fails
 * leaves the other fields unread (eval's scanned lines build no value a comparison does not ask
 * for). One class for every way of reading records, so that the comparisons see one shape.
 */
export class SlotValues {
  private readonly known: unknown[];
  /** The record each slot's known value is of. */
  private readonly readIn: number[];
  private record = 0;

  constructor(
    count: number,
    private readonly read: (slot: number) => unknown,
  ) {
    this.known = new Array<unknown>(count).fill(undefined);
    this.readIn = new Array<number>(count).fill(-1);
  }

  /** Moves on to the next record. */
  next(): void {
    this.record++;
  }

  value(slot: number): unknown {
    if (this.readIn[slot] === this.record) return this.known[slot];
    const value = this.read(slot);
    this.known[slot] = value;
    this.readIn[slot] = this.record;
    return value;
  }
}
