/**
 * Tiny real files for the demo data set, written without any library: a one-page PDF 1.4, a
 * truecolour PNG and a baseline JPEG of flat 8x8 blocks. Deterministic byte for byte.
 */
import { crc32, deflateSync } from 'node:zlib';

export function makePdf(title: string, lines: readonly string[]): Buffer {
  const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)');
  const body = [
    'BT',
    '/F1 16 Tf',
    '56 780 Td',
    `(${esc(title)}) Tj`,
    '/F1 10 Tf',
    ...lines.flatMap((l) => ['0 -18 Td', `(${esc(l)}) Tj`]),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(body, 'latin1')} >>\nstream\n${body}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Title (${esc(title)}) /Producer (svc scripts/make-demo-fixtures.ts) /CreationDate (D:20261122000000Z) >>`,
  ];
  let out = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export type Rgb = readonly [number, number, number];
export type Painter = (x: number, y: number) => Rgb;

export function makePng(width: number, height: number, paint: Painter): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: truecolour
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  const raw = Buffer.alloc(height * (1 + width * 3));
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 3);
    raw[row] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = paint(x, y);
      raw[row + 1 + x * 3] = r;
      raw[row + 2 + x * 3] = g;
      raw[row + 3 + x * 3] = b;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A baseline JPEG whose 8x8 blocks are each one flat colour (DC coefficients only), so no DCT is
 * needed: quantiser 8 makes the DC coefficient equal the level-shifted sample value.
 */
export function makeJpeg(blocksX: number, blocksY: number, blockColour: (bx: number, by: number) => Rgb): Buffer {
  const bytes: number[] = [];
  const u16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
  const segment = (marker: number, payload: number[]) => bytes.push(0xff, marker, ...u16(payload.length + 2), ...payload);
  bytes.push(0xff, 0xd8); // SOI
  segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, ...u16(1), ...u16(1), 0, 0]); // APP0 JFIF
  segment(0xdb, [0x00, ...new Array<number>(64).fill(8)]); // DQT 0, all 8
  const w = blocksX * 8;
  const h = blocksY * 8;
  segment(0xc0, [8, ...u16(h), ...u16(w), 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]); // SOF0
  // Standard DC luminance table (ITU T.81 K.3); a two-symbol AC table (EOB = 00).
  const dcBits = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
  const dcVals = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
  const acBits = [0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
  const acVals = [0x00, 0x01];
  segment(0xc4, [0x00, ...dcBits, ...dcVals, 0x10, ...acBits, ...acVals]);
  segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]); // SOS
  const codes = (bits: number[], vals: number[]) => {
    const table = new Map<number, { code: number; len: number }>();
    let code = 0;
    let k = 0;
    for (let len = 1; len <= 16; len++) {
      for (let i = 0; i < bits[len - 1]!; i++) table.set(vals[k++]!, { code: code++, len });
      code <<= 1;
    }
    return table;
  };
  const dc = codes(dcBits, dcVals);
  const ac = codes(acBits, acVals);
  let acc = 0;
  let nbits = 0;
  const put = (value: number, len: number) => {
    for (let i = len - 1; i >= 0; i--) {
      acc = (acc << 1) | ((value >> i) & 1);
      nbits++;
      if (nbits === 8) {
        bytes.push(acc);
        if (acc === 0xff) bytes.push(0x00);
        acc = 0;
        nbits = 0;
      }
    }
  };
  const prev = [0, 0, 0];
  for (let by = 0; by < blocksY; by++) {
    for (let bx = 0; bx < blocksX; bx++) {
      const [r, g, b] = blockColour(bx, by);
      const ycc = [
        0.299 * r + 0.587 * g + 0.114 * b,
        128 - 0.168736 * r - 0.331264 * g + 0.5 * b,
        128 + 0.5 * r - 0.418688 * g - 0.081312 * b,
      ].map((v) => Math.round(Math.min(255, Math.max(0, v))) - 128);
      for (let c = 0; c < 3; c++) {
        const diff = ycc[c]! - prev[c]!;
        prev[c] = ycc[c]!;
        const mag = Math.abs(diff);
        const cat = mag === 0 ? 0 : Math.floor(Math.log2(mag)) + 1;
        const hc = dc.get(cat)!;
        put(hc.code, hc.len);
        if (cat > 0) put(diff > 0 ? diff : diff + (1 << cat) - 1, cat);
        const eob = ac.get(0x00)!;
        put(eob.code, eob.len);
      }
    }
  }
  if (nbits > 0) put((1 << (8 - nbits)) - 1, 8 - nbits);
  bytes.push(0xff, 0xd9); // EOI
  return Buffer.from(bytes);
}

/** A small avatar: background, head and shoulders. */
export function avatarPainter(bg: Rgb, skin: Rgb, shirt: Rgb, size: number): Painter {
  return (x, y) => {
    const cx = size / 2 - 0.5;
    const head = (x - cx) ** 2 + (y - size * 0.38) ** 2 <= (size * 0.2) ** 2;
    const body = y >= size * 0.68 && Math.abs(x - cx) <= size * 0.36 - (size - y) * 0.15;
    return head ? skin : body ? shirt : bg;
  };
}
