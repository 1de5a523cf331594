import { element } from "../playground/dom.js";
import { ValidationError } from "../src/api/errors.js";
import {
  DEFAULT_INSTANT_LOGS_FIELDS,
  INSTANT_LOGS_DATASET,
  type InstantLogsSettings,
  instantLogsBody,
} from "../src/api/instant-logs.js";
import { getCatalog } from "../src/catalog/index.js";
import { LIVE_TAIL_PATH, type LiveTailMessage } from "../src/console/live-tail-protocol.js";
import type { DiagnosticSettings } from "../src/diagnostics/index.js";
import { call, type Failure, openSocket } from "./api.js";
import { oneAtATime } from "./busy.js";
import { createFieldPicker } from "./field-picker.js";
import { createFilterEditor } from "./filter/editor.js";
import { showOutcome } from "./filter/outcome.js";
import { DEFAULT_LIVE_ROWS, LiveRecords, type LiveRow, MAX_LIVE_ROWS } from "./live-records.js";
import { failureText, say, sayProblems, sentences } from "./messages.js";

/** Where each problem of a session's settings is said, by the path the checks name it with. */
const PLACES = [
  ["fields", "il-fields-problem"],
  ["sample", "il-sample-problem"],
] as const;

const OPERATION = "create Instant Logs session";

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/** A tail as the view follows it: its socket, its records, and how it is being ended. */
interface Following {
  socket: WebSocket;
  records: LiveRecords;
  fields: string[];
  /** The session's end as the server said it; undefined until it does. */
  end: Extract<LiveTailMessage, { kind: "end" }> | undefined;
  stopping: boolean;
  /** Records received when Pause was pressed; undefined while the table is live. */
  pausedAt: number | undefined;
  frame: number;
}

/**
 * The Instant Logs view: the fields, the sample and the same Filter section as Connect a service,
 * held to the client's own checks (nothing is sent while they refuse), then Start: the console's
 * server creates the session, connects to it, and relays its records to this page, where the live
 * table shows the last rows kept (the older ones, and what the server dropped, counted). Pause
 * stops drawing while the records go on being counted and kept; Resume draws them; Stop ends it.
 */
export function setUpInstantLogs(zoneId: () => string, diagnostics: DiagnosticSettings | undefined) {
  const catalog = getCatalog(INSTANT_LOGS_DATASET)!;
  const sample = element<HTMLInputElement>("il-sample");
  const rows = element<HTMLInputElement>("il-rows");
  const table = element<HTMLTableElement>("il-table");
  const startButton = element<HTMLButtonElement>("il-start");
  const pauseButton = element<HTMLButtonElement>("il-pause");
  const stopButton = element<HTMLButtonElement>("il-stop");
  const picker = createFieldPicker(
    {
      search: element("il-field-search"),
      list: element("il-field-list"),
      count: element("il-fields-count"),
      shown: element("il-fields-shown"),
    },
    catalog,
    DEFAULT_INSTANT_LOGS_FIELDS,
  );
  const outcome = showOutcome({
    status: element("il-filter-status"),
    words: element("il-explain"),
    json: element("il-json"),
    diagnostics: element("il-diagnostics"),
  });
  let following: Following | undefined;
  /** False while the Filter section is being made: it compiles its first text before it is there to read. */
  let ready = false;
  const filter = createFilterEditor(
    {
      builder: element("il-builder"),
      editor: element("il-editor"),
      compiled: (view, result) => {
        outcome(view, result);
        if (ready) updatePreview();
      },
    },
    INSTANT_LOGS_DATASET,
  );
  if (diagnostics) filter.setDiagnostics(diagnostics);
  ready = true;

  /** The sample as typed: a number when it reads as one, else the text (which the checks refuse by name). */
  function sampleValue(): number {
    const text = sample.value.trim();
    return /^\d+$/.test(text) ? Number(text) : (text as unknown as number);
  }

  function rowsLimit(): number {
    const wanted = Number(rows.value);
    return Number.isInteger(wanted) && wanted >= 1 && wanted <= MAX_LIVE_ROWS ? wanted : DEFAULT_LIVE_ROWS;
  }

  function settings(): InstantLogsSettings {
    const text = filter.text();
    return {
      fields: picker.picked(),
      sample: sampleValue(),
      filter: text.trim() === "" ? null : { source: text },
    };
  }

  /** The body Start sends, by the client's own checks, or the refusal they give. */
  function built(): Record<string, unknown> | ValidationError {
    try {
      return instantLogsBody(
        { ...settings(), ...(diagnostics && { compileOptions: { diagnostics } }) },
        OPERATION,
      ).body;
    } catch (error) {
      if (error instanceof ValidationError) return error;
      throw error;
    }
  }

  function updatePreview(): void {
    const zone = zoneId();
    element("il-request").textContent = zone === "" ? "no zone yet" : `POST /zones/${zone}/logpush/edge/jobs`;
    const body = built();
    element("il-body").textContent =
      body instanceof ValidationError
        ? "Start sends nothing until the settings above are fixed."
        : JSON.stringify(body, null, 2);
  }

  /** Every reason Start would send nothing, said at its place; true when there is none. */
  function check(): boolean {
    const unfinished = filter.unfinished();
    const body = built();
    const problems = body instanceof ValidationError ? body.problems : [];
    sayProblems(problems, PLACES, "il-problem", OPERATION);
    const more = [
      ...(zoneId() === "" ? ["type the Zone ID above: Instant Logs streams a zone's records"] : []),
      ...(unfinished.length > 0
        ? [
            `${unfinished.length === 1 ? "comparison" : "comparisons"} ${unfinished.join(", ")} of the builder ${unfinished.length === 1 ? "is" : "are"} not finished (no field or no value): finish or remove ${unfinished.length === 1 ? "it" : "them"}`,
          ]
        : []),
    ];
    if (more.length > 0) {
      const said = element("il-problem").textContent ?? "";
      say("il-problem", `${said === "" ? `${OPERATION}: nothing was sent. ` : `${said} `}${sentences(more)}`);
    }
    return problems.length === 0 && more.length === 0;
  }

  function sayFailure(failure: Failure): void {
    if (failure.kind === "refused") sayProblems(failure.problems, PLACES, "il-problem", failure.operation);
    else say("il-problem", failureText(failure));
  }

  function rowElement(row: LiveRow): HTMLTableRowElement {
    const line = document.createElement("tr");
    const number = document.createElement("th");
    number.scope = "row";
    number.textContent = String(row.number);
    line.append(number);
    for (const text of row.cells) {
      const cell = document.createElement("td");
      cell.textContent = text;
      line.append(cell);
    }
    return line;
  }

  function drawHead(fields: readonly string[]): void {
    const head = document.createElement("tr");
    for (const name of ["#", ...fields]) {
      const cell = document.createElement("th");
      cell.scope = "col";
      cell.textContent = name;
      head.append(cell);
    }
    table.tHead!.replaceChildren(head);
    table.tBodies[0]!.replaceChildren();
  }

  function countsText(tail: Following): string {
    const { records } = tail;
    const parts = [`${plural(records.received, "record")} received`];
    if (tail.pausedAt !== undefined)
      parts.push(`paused: ${records.received - tail.pausedAt} since, counted and kept, shown on Resume`);
    if (records.older() > 0)
      parts.push(`${records.older()} older no longer kept (the table keeps ${rowsLimit()})`);
    if (records.dropped > 0)
      parts.push(`${records.dropped} dropped by the console: the page read slower than they came`);
    if (records.notRecords > 0)
      parts.push(`${plural(records.notRecords, "line")} of the session's messages no JSON record`);
    return parts.join(" · ");
  }

  /** Draws what came since the last frame: the counts always, the rows unless paused. */
  function draw(tail: Following): void {
    tail.frame = 0;
    say("il-counts", countsText(tail));
    if (tail.pausedAt !== undefined) return;
    const body = table.tBodies[0]!;
    const fresh = tail.records.takeFresh();
    const shown = document.createDocumentFragment();
    for (const row of tail.records.kept().slice(0, fresh)) shown.append(rowElement(row));
    body.prepend(shown);
    while (body.rows.length > rowsLimit()) body.deleteRow(-1);
  }

  /** Draws every row kept anew (after a pause, or when the rows kept change). */
  function redraw(tail: Following): void {
    tail.records.takeFresh();
    table.tBodies[0]!.replaceChildren(...tail.records.kept().map(rowElement));
    say("il-counts", countsText(tail));
  }

  function schedule(tail: Following): void {
    tail.frame ||= requestAnimationFrame(() => draw(tail));
  }

  function setRunning(on: boolean): void {
    startButton.hidden = on;
    pauseButton.hidden = !on;
    stopButton.hidden = !on;
    pauseButton.textContent = "Pause";
    say(
      "il-running",
      on ? "The session runs with the settings it started with: Stop, then Start, to change them." : "",
    );
  }

  /** Says how the tail ended, and draws what it had. */
  function ended(tail: Following): void {
    if (following !== tail) return;
    following = undefined;
    cancelAnimationFrame(tail.frame);
    tail.pausedAt = undefined;
    redraw(tail);
    const count = plural(tail.records.received, "record");
    const end = tail.end;
    const said = tail.stopping
      ? `Stopped: ${count}.`
      : end?.ending === "expired"
        ? `The session expired: the service ended it (${end.detail}). ${count}.`
        : end
          ? `The session was dropped (${end.detail}). ${count}.`
          : `The console's server closed the connection: is filterc console still running? ${count}.`;
    say("il-status", said);
    setRunning(false);
    startButton.focus();
  }

  function follow(id: string, fields: string[]): void {
    const records = new LiveRecords(fields, rowsLimit());
    const tail: Following = {
      socket: openSocket(`${LIVE_TAIL_PATH}${id}`),
      records,
      fields,
      end: undefined,
      stopping: false,
      pausedAt: undefined,
      frame: 0,
    };
    following = tail;
    drawHead(fields);
    say("il-counts", countsText(tail));
    setRunning(true);
    tail.socket.addEventListener("open", () =>
      say(
        "il-status",
        "Connected: the records the filter keeps appear below as they come, the newest first.",
      ),
    );
    tail.socket.addEventListener("message", (event: MessageEvent<string>) => {
      const message = JSON.parse(event.data) as LiveTailMessage;
      if (message.kind === "end") tail.end = message;
      records.add(message.kind === "records" ? message.lines : [], message.dropped);
      schedule(tail);
    });
    tail.socket.addEventListener("close", () => ended(tail));
  }

  async function start(): Promise<void> {
    if (following) return;
    say("il-status", "");
    if (!check()) return;
    const given = settings();
    say("il-status", "Creating the session…");
    const answer = await call<{ tail: string }>("POST", "/api/instant-logs", {
      scope: { zoneId: zoneId() },
      settings: given,
    });
    if (!answer.ok) {
      say("il-status", "");
      return sayFailure(answer.error);
    }
    say("il-status", "Connecting to the session…");
    follow(answer.tail, given.fields!);
  }

  function pause(): void {
    const tail = following;
    if (!tail) return;
    if (tail.pausedAt === undefined) {
      tail.pausedAt = tail.records.received;
      pauseButton.textContent = "Resume";
      say("il-counts", countsText(tail));
    } else {
      tail.pausedAt = undefined;
      pauseButton.textContent = "Pause";
      redraw(tail);
    }
  }

  startButton.addEventListener("click", oneAtATime(startButton, start));
  pauseButton.addEventListener("click", pause);
  stopButton.addEventListener("click", () => {
    if (!following) return;
    following.stopping = true;
    following.socket.close(1000, "stopped by the page");
  });
  rows.addEventListener("change", () => {
    if (!following) return;
    following.records.setLimit(rowsLimit());
    if (following.pausedAt === undefined) redraw(following);
  });
  element("il-settings").addEventListener("change", updatePreview);
  sample.addEventListener("input", updatePreview);
  rows.max = String(MAX_LIVE_ROWS);
  rows.value = String(DEFAULT_LIVE_ROWS);
  updatePreview();

  return {
    /** The zone may have changed: what Start sends says so. */
    load: async () => updatePreview(),
  };
}
