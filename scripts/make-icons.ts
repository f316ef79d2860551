/**
 * Draws the home-screen icons (web/public/icons/*.png) from the same design as web/public/favicon.svg: a blue rounded
 * square with a white phone outline. PNG because Android's installer and iOS's apple-touch-icon need bitmaps; drawn here
 * (node:zlib, 4×4 supersampling) so the icons are reproducible without an image tool or a package.
 *   npx tsx scripts/make-icons.ts
 */
import { writeFileSync } from "node:fs";
import { deflateSync } from "node:zlib";

const BLUE = [0x25, 0x63, 0xeb];
const WHITE = [0xff, 0xff, 0xff];

/** Coverage tests in the favicon's 32-unit space. */
function insideRoundedRect(x: number, y: number, x0: number, y0: number, x1: number, y1: number, r: number): boolean {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

function glyph(x: number, y: number): boolean {
  // The phone: a 2-unit stroke around (9,8)-(23,24), and the home button at (16,20).
  const outer = insideRoundedRect(x, y, 8, 7, 24, 25, 2.5);
  const inner = insideRoundedRect(x, y, 10, 9, 22, 23, 1);
  const button = (x - 16) ** 2 + (y - 20) ** 2 <= 1.6 ** 2;
  return (outer && !inner) || button;
}

/**
 * size: pixels. rounded: the favicon's rounded corners (transparent outside), else a full square (maskable and Apple's,
 * which the platform crops). scale: how much of the canvas the design fills (maskable icons keep it in the safe zone).
 */
function draw(size: number, rounded: boolean, scale: number): Buffer {
  const SS = 4;
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let py = 0; py < size; py++) {
    raw[py * (size * 4 + 1)] = 0; // filter: none
    for (let px = 0; px < size; px++) {
      let bg = 0;
      let fg = 0;
      for (let sy = 0; sy < SS; sy++) {
        for (let sx = 0; sx < SS; sx++) {
          const ux = ((px + (sx + 0.5) / SS) / size) * 32;
          const uy = ((py + (sy + 0.5) / SS) / size) * 32;
          const inBg = rounded ? insideRoundedRect(ux, uy, 0, 0, 32, 32, 8) : true;
          // The glyph, scaled about the centre.
          const gx = 16 + (ux - 16) / scale;
          const gy = 16 + (uy - 16) / scale;
          if (inBg) bg++;
          if (inBg && glyph(gx, gy)) fg++;
        }
      }
      const n = SS * SS;
      const alpha = bg / n;
      const white = bg === 0 ? 0 : fg / bg;
      const o = py * (size * 4 + 1) + 1 + px * 4;
      for (let c = 0; c < 3; c++) raw[o + c] = Math.round(BLUE[c] * (1 - white) + WHITE[c] * white);
      raw[o + 3] = Math.round(alpha * 255);
    }
  }
  return png(size, size, raw);
}

function png(width: number, height: number, raw: Buffer): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw, { level: 9 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const out = "web/public/icons";
writeFileSync(`${out}/icon-192.png`, draw(192, true, 1));
writeFileSync(`${out}/icon-512.png`, draw(512, true, 1));
// Maskable: full-bleed background, the phone inside the central 80% safe zone.
writeFileSync(`${out}/maskable-512.png`, draw(512, false, 0.7));
// iOS rounds the corners itself and shows transparency as black: an opaque square.
writeFileSync(`${out}/apple-touch-icon.png`, draw(180, false, 0.8));
console.log("icons written to", out);
