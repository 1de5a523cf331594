import type { CompileAnswer } from "../../../src/lsp/protocol.js";

/** What the status bar shows for a filter document. */
export interface StatusView {
  text: string;
  tooltip: string;
  /** `warning` from 80% of a limit, as the playground's gauges; `error` past a limit or with errors. */
  level: "ok" | "warning" | "error";
}

/** The share of a limit from which the gauge warns. */
const WARN_AT = 0.8;

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

export function statusOf(answer: CompileAnswer): StatusView {
  const { operators, bytes, maxOperators, maxBytes } = answer.stats;
  const where = `dataset ${answer.dataset}`;
  if (operators === 0 && !answer.ok)
    return {
      text: `$(error) ${plural(answer.errors, "error")}`,
      tooltip: `filterc: the filter has ${plural(answer.errors, "error")} (${where}); see the Problems panel`,
      level: "error",
    };
  if (answer.filter === null && answer.ok)
    return {
      text: "$(filter) no filter",
      tooltip: `filterc: no filter: every log line is pushed (${where})`,
      level: "ok",
    };
  const share = Math.max(operators / Math.max(maxOperators, 1), bytes / Math.max(maxBytes, 1));
  const level = !answer.ok || share > 1 ? "error" : share >= WARN_AT ? "warning" : "ok";
  return {
    text: `$(filter) ${operators}/${maxOperators} · ${bytes}/${maxBytes} B`,
    tooltip: `filterc: ${operators} of ${maxOperators} comparisons, ${bytes} of ${maxBytes} bytes (${where})${answer.ok ? "" : `; ${plural(answer.errors, "error")}`}. Click to explain the filter.`,
    level,
  };
}
