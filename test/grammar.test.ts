import { describe, expect, it } from "vitest";
import { validatedParser } from "../src/syntax/parser.js";

describe("grammar", () => {
  it("passes chevrotain's validations (no ambiguity, no left recursion) with the lookahead the parser uses", () => {
    expect(() => validatedParser()).not.toThrow();
  });
});
