// Draws the extension's icon, images/icon.png (128 × 128, as the Marketplace and Open VSX ask):
// a white funnel on an orange rounded square. Run: node editors/vscode/images/icon.mjs
import { writeFileSync } from "node:fs";
import { crc32, deflateSync } from "node:zlib";

const SIZE = 128;
/** Samples per pixel side: edges are smoothed by averaging the samples inside a shape. */
const SAMPLES = 4;
const ORANGE = [0xf3, 0x80, 0x20];
const WHITE = [0xff, 0xff, 0xff];
const CORNER = 24;
const FUNNEL = [
  [26, 32],
  [102, 32],
  [74, 68],
  [74, 100],
  [54, 90],
  [54, 68],
];

const inSquare = (x, y) => {
  const cx = Math.min(Math.max(x, CORNER), SIZE - CORNER);
  const cy = Math.min(Math.max(y, CORNER), SIZE - CORNER);
  return (x - cx) ** 2 + (y - cy) ** 2 <= CORNER ** 2;
};
const inFunnel = (x, y) => {
  let inside = false;
  for (let i = 0, j = FUNNEL.length - 1; i < FUNNEL.length; j = i++) {
    const [xi, yi] = FUNNEL[i];
    const [xj, yj] = FUNNEL[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
};

const rows = [];
for (let y = 0; y < SIZE; y++) {
  const row = [0]; // filter type: none
  for (let x = 0; x < SIZE; x++) {
    let square = 0;
    let funnel = 0;
    for (let sy = 0; sy < SAMPLES; sy++)
      for (let sx = 0; sx < SAMPLES; sx++) {
        const px = x + (sx + 0.5) / SAMPLES;
        const py = y + (sy + 0.5) / SAMPLES;
        if (inSquare(px, py)) {
          square++;
          if (inFunnel(px, py)) funnel++;
        }
      }
    const share = funnel / Math.max(square, 1);
    const colour = ORANGE.map((c, i) => Math.round(c + (WHITE[i] - c) * share));
    row.push(...colour, Math.round((255 * square) / SAMPLES ** 2));
  }
  rows.push(Buffer.from(row));
}

const chunk = (type, data) => {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk("IHDR", header),
  chunk("IDAT", deflateSync(Buffer.concat(rows), { level: 9 })),
  chunk("IEND", Buffer.alloc(0)),
]);
writeFileSync(new URL("icon.png", import.meta.url), png);
console.log(`wrote editors/vscode/images/icon.png (${png.length} bytes)`);
