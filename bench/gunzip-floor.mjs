// The single-core gunzip floor for bench/eval-parallel.mjs: Node's zlib inflating each file given,
// one after the other, the bytes counted and dropped.
import { createReadStream } from "node:fs";
import { createGunzip } from "node:zlib";

let bytes = 0;
for (const file of process.argv.slice(2))
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }).pipe(createGunzip()))
    bytes += chunk.length;
process.stdout.write(`${bytes}\n`);
