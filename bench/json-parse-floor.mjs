// The floor of a parse-then-test design: read a file, split it into lines and JSON.parse every
// line, nothing else. `filterc eval` is measured against this (bench/eval.mjs).
import { createReadStream } from "node:fs";

let records = 0;
let carry;
for await (const chunk of createReadStream(process.argv[2], { highWaterMark: 1 << 20 })) {
  const buf = carry ? Buffer.concat([carry, chunk]) : chunk;
  let start = 0;
  for (let newline = buf.indexOf(10); newline !== -1; newline = buf.indexOf(10, start)) {
    if (typeof JSON.parse(buf.toString("utf8", start, newline)) === "object") records++;
    start = newline + 1;
  }
  carry = start < buf.length ? buf.subarray(start) : undefined;
}
process.stdout.write(`${records}\n`);
