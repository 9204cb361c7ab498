import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { compareDataVersions, dataVersion } from '../../src/services/data-version.ts';
import { BodyCache } from '../../src/services/read-cache/body-cache.ts';
import { coalescedDataVersion } from '../../src/services/read-cache/coalesced-data-version.ts';
import { describeEachStore } from '../support/stores.ts';

describeEachStore('the shared data version read', ({ store }) => {
  it('a call sees every write committed before it began, however calls and writes interleave', async () => {
    const db = store().db;
    const read = coalescedDataVersion(db);
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(4), { minLength: 1, maxLength: 6 }), async (bursts) => {
        for (const size of bursts) {
          // Calls already in flight while the write commits may or may not see it; none started after it may miss it.
          const inFlight = Array.from({ length: size }, () => read());
          const before = await dataVersion(db);
          await sql`insert into requirement_catalogue (requirement_key, position, definition) values (${`req_v${++n}`}, ${n}, '{}')`.execute(
            db,
          );
          const after = await Promise.all(Array.from({ length: size + 1 }, () => read()));
          await Promise.all(inFlight);
          for (const v of after) if (v !== null && before !== null) assert.ok(compareDataVersions(v, before) > 0, `${v} after ${before}`);
        }
      }),
      { numRuns: 8 },
    );
  });
});

describe('body cache bounds', () => {
  it('drops the least recently used past its entries or bytes, never holds an answer over an eighth of its bytes', () => {
    const cache = new BodyCache({ maxEntries: 3, maxBytes: 800 });
    const body = (n: number) => ({ etag: '"t"', bytes: Buffer.alloc(n, 1) });
    cache.set('1.1', 'a', body(100));
    cache.set('1.1', 'b', body(100));
    cache.set('1.1', 'c', body(100));
    assert.ok(cache.get('1.1', 'a'), 'a used again: b is now the oldest');
    cache.set('1.1', 'd', body(100));
    assert.equal(cache.get('1.1', 'b'), undefined);
    assert.deepEqual(cache.size, { entries: 3, bytes: 300 });
    cache.set('1.1', 'big', body(101));
    assert.equal(cache.get('1.1', 'big'), undefined, 'over 800 / 8 bytes');
    const bytesOnly = new BodyCache({ maxEntries: 100, maxBytes: 800 });
    for (const k of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']) bytesOnly.set('1.1', k, body(100));
    assert.deepEqual(bytesOnly.size, { entries: 8, bytes: 800 });
    assert.equal(bytesOnly.get('1.1', 'a'), undefined);
  });

  it('a newer version drops everything held; an answer built at an older version is not kept', () => {
    const cache = new BodyCache();
    cache.set('5.9', 'a', { etag: '"o"', bytes: Buffer.from('old') });
    assert.equal(cache.get('6.1', 'a'), undefined);
    assert.equal(cache.size.entries, 0);
    cache.set('5.9', 'late', { etag: '"l"', bytes: Buffer.from('built before the write') });
    assert.equal(cache.get('6.1', 'late'), undefined);
    assert.equal(cache.get('5.9', 'late'), undefined);
    cache.set('6.10', 'b', { etag: '"n"', bytes: Buffer.from('new') });
    assert.equal(cache.get('6.10', 'b')?.bytes.toString(), 'new', '6.10 is newer than 6.1: numbers, not text');
  });
});
