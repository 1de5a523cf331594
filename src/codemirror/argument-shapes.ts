import { isObject } from "../diagnostics/index.js";

/*
 * What the extension's exported functions take from a JavaScript caller, checked before anything
 * reads it: a wrong value is an InvalidArgumentError naming the argument, never a TypeError.
 */

/** An editor state (anything with `field`, as CodeMirror's EditorState has). */
export const isState = (value: unknown): value is { field: (...args: never[]) => unknown } =>
  isObject(value) && typeof value["field"] === "function";

/** A delay in milliseconds: a whole number of at least 0. */
export const isDelay = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

export const A_STATE = "an EditorState of an editor with logpushFilter()";
