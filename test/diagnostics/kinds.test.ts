import { describe, expect, it } from "vitest";
import { DiagnosticKind } from "../../src/diagnostics/index.js";

const kinds = Object.entries(DiagnosticKind).map(([name, kind]) => ({ name, ...kind }));
const order = (code: string) => [code[0]!, Number(code.slice(1))] as const;

describe("the diagnostic table", () => {
  it("gives every kind its own code", () => {
    const seen = new Map<string, string>();
    const twice = kinds.flatMap(({ name, code }) => {
      const first = seen.get(code);
      seen.set(code, name);
      return first === undefined ? [] : [`${code}: ${first} and ${name}`];
    });
    expect(twice).toEqual([]);
  });

  it("lists the kinds in the order of their codes, errors first", () => {
    const codes = kinds.map(({ code }) => code);
    const sorted = [...codes].sort((a, b) => {
      const [letterA, numberA] = order(a);
      const [letterB, numberB] = order(b);
      return letterA === letterB ? numberA - numberB : letterA < letterB ? -1 : 1;
    });
    expect(codes).toEqual(sorted);
  });

  it("writes each code as its severity: E for errors, W for warnings and notes", () => {
    const wrong = kinds.filter(
      ({ code, severity }) => !/^[EW]\d{4}$/.test(code) || (code[0] === "E") !== (severity === "error"),
    );
    expect(wrong.map(({ name, code, severity }) => `${name} ${code} ${severity}`)).toEqual([]);
  });
});
