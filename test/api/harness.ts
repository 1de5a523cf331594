import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { invalidBodies } from "./schemas.js";
import { TestApi } from "./server.js";

/**
 * One scripted API server for a test file, started before its tests and closed after them. After
 * each test every request body the client sent must validate against the official schemas.
 */
export function useTestApi(afterEachTest?: () => void): TestApi {
  const api = new TestApi();
  beforeAll(() => api.start());
  afterAll(() => api.close());
  afterEach(() => {
    expect(invalidBodies(api.received)).toEqual([]);
    api.reset();
    afterEachTest?.();
  });
  return api;
}

/** The error `promise` rejects with, asserted to be a `type`. */
export async function rejectionOf<T>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => T,
): Promise<T> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(type);
  return error as T;
}
