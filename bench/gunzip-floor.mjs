// The single-core gunzip floor for bench/eval-parallel.mjs: Node's zlib inflating each file given,
// one after the other, the bytes counted and dropped. Output chunks of 1 MiB, as eval's inflater
// has: with the default 16 KiB this took 5x as long (5.9 s against 1.16 s for the 8 bench files),
// a floor far below what zlib does.
import { createReadStream } from "node:fs";
import { createGunzip } from "node:zlib";

let bytes = 0;
for (const file of process.argv.slice(2))
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 }).pipe(
    createGunzip({ chunkSize: 1 << 20 }),
  ))
    bytes += chunk.length;
process.stdout.write(`${bytes}\n`);
