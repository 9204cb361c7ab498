import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { newRequestId } from '../../src/http/middleware/request-id.ts';
import { describeEachWorld } from '../support/read-api-world.ts';

/** The id's first 8 hex: the Unix second, worked out here from the date's fields. */
const secondHex = (at: Date) =>
  (Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds()) / 1000)
    .toString(16)
    .padStart(8, '0');

describe('request ids', () => {
  it('are req_, the second they were made, then 16 hex of the random source', () => {
    const bytes = Buffer.from('0123456789abcdef', 'hex');
    const at = new Date('2026-11-22T10:00:00.999Z');
    assert.equal(
      newRequestId(() => bytes, at),
      `req_${secondHex(at)}0123456789abcdef`,
    );
  });

  it('sort by the second they were made, whatever their random part', () => {
    const instant = fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(Date.UTC(2106, 0, 1)) });
    fc.assert(
      fc.property(instant, instant, fc.uint8Array({ minLength: 16, maxLength: 16 }), (a, b, random) => {
        fc.pre(Math.floor(a.getTime() / 1000) < Math.floor(b.getTime() / 1000));
        const earlier = newRequestId(() => Buffer.from(random.subarray(0, 8)), a);
        const later = newRequestId(() => Buffer.from(random.subarray(8)), b);
        assert.ok(earlier < later, `${earlier} < ${later}`);
      }),
    );
  });

  it('made in the same second from the random source are all different', () => {
    const at = new Date('2026-11-22T10:00:00Z');
    const ids = new Set(Array.from({ length: 20_000 }, () => newRequestId(randomBytes, at)));
    assert.equal(ids.size, 20_000);
  });
});

describeEachWorld('X-Request-Id', (w) => {
  it("carries the second of the app's clock", async () => {
    const at = new Date('2031-05-06T07:08:09.010Z');
    w.setNow(at);
    const res = await w.api.get('/api/v2/partners/me', { key: w.keys.full });
    assert.match(res.headers.get('x-request-id') ?? '', new RegExp(`^req_${secondHex(at)}[0-9a-f]{16}$`));
  });
});
