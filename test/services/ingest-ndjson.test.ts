import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Incoming } from '../../src/services/ingest/apply-changes.ts';
import { ndjsonChanges } from '../../src/services/ingest/ndjson.ts';

/** The obvious reading: the whole input split at LF, a CR before it dropped, lines past `max` bytes marked. */
function wholeReading(bytes: Buffer, name: string, max: number): Incoming[] {
  const lines = bytes.toString('utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.flatMap((raw, i): Incoming[] => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const size = Buffer.byteLength(line);
    if (size > max) return [{ origin: `${name}:${i + 1}`, text: '', oversize: { bytes: size, limit: max } }];
    return line.trim() === '' ? [] : [{ origin: `${name}:${i + 1}`, text: line }];
  });
}

async function streamed(chunks: Buffer[], max: number): Promise<Incoming[]> {
  const out: Incoming[] = [];
  for await (const change of ndjsonChanges(Readable.from(chunks), 'in', max)) out.push(change);
  return out;
}

describe('ndjson lines read in bounded memory', () => {
  it('gives what splitting the whole input gives, however the bytes are cut into chunks (CRLF, multi-byte characters, long lines)', async () => {
    const line = fc
      .oneof(fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 12 }), fc.constant(''), fc.constant(' '))
      .map((s) => s.replace(/[\r\n]/g, ''));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(line, fc.boolean()), { maxLength: 12 }),
        fc.boolean(),
        fc.array(fc.nat(200), { maxLength: 8 }),
        fc.integer({ min: 1, max: 24 }),
        async (lines, finalNewline, cuts, max) => {
          const text = lines.map(([l, crlf], i) => `${l}${i < lines.length - 1 || finalNewline ? (crlf ? '\r\n' : '\n') : ''}`).join('');
          const bytes = Buffer.from(text);
          const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...at]
            .map((start, i) => bytes.subarray(start, i < at.length ? at[i] : bytes.length))
            .filter((c) => c.length > 0);
          assert.deepEqual(await streamed(chunks, max), wholeReading(bytes, 'in', max));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a line of 3 MiB sent in 64 KiB chunks is reported by its size, and the lines around it are read', async () => {
    const long = Buffer.alloc(3 * 1024 * 1024, 'x');
    const bytes = Buffer.concat([Buffer.from('{"a":1}\n'), long, Buffer.from('\n{"b":2}\n')]);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 65536) }, (_, i) => bytes.subarray(i * 65536, (i + 1) * 65536));
    assert.deepEqual(await streamed(chunks, 1024 * 1024), [
      { origin: 'in:1', text: '{"a":1}' },
      { origin: 'in:2', text: '', oversize: { bytes: long.length, limit: 1024 * 1024 } },
      { origin: 'in:3', text: '{"b":2}' },
    ]);
  });
});
