import { element } from "../playground/dom.js";
import type { Problem } from "../src/index.js";
import type { Failure } from "./api.js";

/** Writes a message into one of the page's message places; an empty one is hidden. */
export function say(id: string, text: string): void {
  const place = element(id);
  place.textContent = text;
  place.hidden = text === "";
}

/**
 * Messages as sentences, one after another: each begins with a capital and ends with a stop, so
 * that the client's notices and problems (written to be listed, lower case, no stop) do not run
 * into each other when the page shows several in one place.
 */
export function sentences(messages: readonly string[]): string {
  return messages
    .map((message) => message.trim())
    .filter((message) => message !== "")
    .map((message) => {
      const capital = message.replace(/^[a-z]/, (letter) => letter.toUpperCase());
      return /[.!?]$/.test(capital) ? capital : `${capital}.`;
    })
    .join(" ");
}

/** A failure in words: every problem of a refusal (nothing was sent), else what the server said. */
export function failureText(failure: Failure): string {
  if (failure.kind !== "refused") return failure.message;
  return `${failure.operation}: nothing was sent. ${sentences(failure.problems.map((p) => p.message))}`;
}

/**
 * Shows each problem at the place its path belongs to (`places`: path prefix → message place), the
 * rest at `otherwise`, so that what is wrong is said where it was typed.
 */
export function sayProblems(
  problems: readonly Problem[],
  places: ReadonlyArray<readonly [string, string]>,
  otherwise: string,
  operation: string,
): void {
  const found = new Map<string, string[]>();
  for (const problem of problems) {
    const place = places.find(([prefix]) => problem.path.startsWith(prefix))?.[1] ?? otherwise;
    found.set(place, [...(found.get(place) ?? []), problem.message]);
  }
  for (const [, id] of places) say(id, sentences(found.get(id) ?? []));
  const rest = found.get(otherwise);
  say(otherwise, rest ? `${operation}: nothing was sent. ${sentences(rest)}` : "");
}
