/** Whether a scanned number has an exponent (`1e3`): an error (E0108) whose fix is its plain digits. */
export const hasExponent = (number: string) => /[eE]/.test(number);

/** The digits of `1.5e3` without the exponent (`1500`), or undefined past 64 digits of shifting. */
export function plainDigits(number: string): string | undefined {
  const match = /^(-?)([0-9]+)(?:\.([0-9]+))?[eE]([+-]?[0-9]+)$/.exec(number)!;
  const exponent = Number(match[4]);
  if (Math.abs(exponent) > 64) return undefined;
  const digits = match[2]! + (match[3] ?? "");
  const point = match[2]!.length + exponent;
  const padded = point <= 0 ? "0".repeat(1 - point) + digits : digits.padEnd(point, "0");
  const split = Math.max(point, 1);
  const whole = padded.slice(0, split).replace(/^0+(?=[0-9])/, "");
  const fraction = padded.slice(split).replace(/0+$/, "");
  const plain = fraction ? `${whole}.${fraction}` : whole;
  return plain === "0" ? "0" : match[1] + plain;
}
