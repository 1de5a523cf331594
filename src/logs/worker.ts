import { parentPort } from "node:worker_threads";
import { type BlockFilter, compileBlockFilter, compileLineFilter, type LineFilter } from "../eval/index.js";
import { fileInput } from "./input.js";
import { emptyCounts, evalLines } from "./lines.js";
import { type Part, rangeInput } from "./parts.js";
import type { FromWorker, ToWorker, WorkerSetup } from "./protocol.js";
import { emptyTally, UnreadableTimes } from "./unreadable-times.js";

/*
 * An eval worker: started before the filter is known, it is handed the setup first, then the parts,
 * one at a time, and sends back the selected lines (in order, with flow control: it waits while
 * more than OUTPUT_WINDOW_BYTES are not yet written), the bytes read (for the progress bar),
 * warnings, and the part's counts.
 */

const times = new UnreadableTimes();
const port = parentPort!;
let setup: WorkerSetup;
let filter: LineFilter;
let blockFilter: BlockFilter | undefined;

let unwritten = 0;
let waiting: (() => void) | undefined;

port.on("message", (message: ToWorker) => {
  if (message.type === "setup") {
    setup = message.setup;
    const timeOptions = { timestamps: setup.timestamps, onUnreadableTime: times.note };
    filter = compileLineFilter(setup.meaning, { ...timeOptions, prefilter: setup.prefilter });
    blockFilter = compileBlockFilter(setup.meaning, filter, {
      ...timeOptions,
      scannerModule: setup.scannerModule,
    });
    return;
  }
  if (message.type === "ack") {
    unwritten -= message.bytes;
    if (unwritten <= setup.outputWindowBytes && waiting) {
      waiting();
      waiting = undefined;
    }
    return;
  }
  void runPart(message.index, message.part);
});

const send = (message: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

async function runPart(index: number, part: Part): Promise<void> {
  const counts = emptyCounts();
  times.tally = emptyTally();
  const input = part.whole ? await fileInput(part.input) : rangeInput(part);
  const end = await evalLines(input, {
    filter,
    blockFilter,
    invert: setup.invert,
    strict: setup.strict,
    maxLineBytes: setup.maxLineBytes,
    counts,
    write: setup.write
      ? async (bytes) => {
          // The bytes have an ArrayBuffer of their own (evalLines' write): moved, not cloned.
          unwritten += bytes.length;
          send({ type: "out", index, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length) }, [
            bytes.buffer as ArrayBuffer,
          ]);
          if (unwritten > setup.outputWindowBytes) await new Promise<void>((resolve) => (waiting = resolve));
        }
      : undefined,
    onRead: setup.reportReads ? (bytes) => send({ type: "read", bytes }) : () => undefined,
    warn: (warning) => send({ type: "warn", index, warning }),
    times,
  });
  send({
    type: "done",
    index,
    counts,
    times: times.tally,
    lineCount: end.lineCount,
    completed: end.completed,
  });
}
