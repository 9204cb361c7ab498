// Where compressing a JSON answer starts to pay: for answers of the API's shape (fleet entries) at
// several sizes, the CPU time of gzip and brotli (quality 4) against the transfer time they save
// on a 100 Mbit/s link. Run: npx tsx bench/compress-threshold.ts
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { machineLine, table, writeSection } from './support/report.ts';

const FAST_LINK = 100e6 / 8 / 1000;
const SLOW_LINK = 10e6 / 8 / 1000;
const entry = (i: number) => ({
  crew_unique_id: `gen_crew_${String(i).padStart(7, '0')}`,
  vessel_id: `gen_ves_${String(i % 20).padStart(4, '0')}`,
  as_of: '2026-10-01T00:00:00Z',
  name: ['Ana Silva', 'Ben Okafor', 'Chen Wang'][i % 3],
  vessel_name: `MV Gen ${i % 20}`,
  vessel_imo: '9074729',
  role: 'master',
  status: 'active',
  background_check_status: 'clear',
  documents_expiring: i % 4,
});

function timeMs(fn: () => unknown, minMs = 200): number {
  let n = 0;
  const started = performance.now();
  while (performance.now() - started < minMs) {
    fn();
    n++;
  }
  return (performance.now() - started) / n;
}

const rows: string[][] = [];
for (const items of [1, 2, 4, 8, 16, 50, 200]) {
  const body = Buffer.from(JSON.stringify({ items: Array.from({ length: items }, (_, i) => entry(i)), expiring_within_days: 30 }));
  const gz = gzipSync(body);
  const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  const gzMs = timeMs(() => gzipSync(body));
  const brMs = timeMs(() => brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }));
  const savedUs = (link: number) => (((body.length - br.length) / link) * 1000).toFixed(0);
  rows.push([
    String(body.length),
    `${gz.length} / ${br.length}`,
    `${(gzMs * 1000).toFixed(0)} / ${(brMs * 1000).toFixed(0)}`,
    savedUs(FAST_LINK),
    savedUs(SLOW_LINK),
  ]);
}
const body = `Command: \`npx tsx bench/compress-threshold.ts\`. Machine: ${machineLine()}. JSON answers of fleet entries at several
sizes; CPU time to compress (gzip level 6, brotli quality 4; includes each call's set-up, noisy on a shared machine)
against the transfer time the brotli answer saves on a 100 Mbit/s and a 10 Mbit/s link (µs). Compression pays once the
time saved exceeds the time spent: on a partner's WAN link (10 Mbit/s) from about 4 KiB, on a fast one only for the
largest answers (fleet pages). The server compresses compressible answers of 4 KiB and more
(\`COMPRESS_THRESHOLD_BYTES\` in src/http/middleware/compression.ts) when the client sends \`Accept-Encoding\`,
preferring br.

${table(['body bytes', 'gzip / br bytes', 'gzip / br CPU µs', 'br µs saved at 100 Mbit/s', 'br µs saved at 10 Mbit/s'], rows)}`;
writeSection('Compression threshold', body);
console.log(body);
