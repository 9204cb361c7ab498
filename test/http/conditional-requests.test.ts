import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { describeEachWorld } from '../support/read-api-world.ts';

const GETS = [
  '/api/v2/partners/me',
  '/api/v2/employers/me/vessels',
  '/api/v2/employers/me/fleet?limit=3',
  '/api/v2/employers/me/fleet?include_documents_expiring_within_days=10',
  '/api/v2/employers/me/crew/crew_ana/profile',
  '/api/v2/employers/me/crew/crew_ana/documents',
  '/api/v2/employers/me/crew/crew_ana/documents/doc_coc/download',
];

describeEachWorld('conditional GETs: strong ETags, If-None-Match, 304', (w) => {
  it('every GET of the partner API has a strong ETag; If-None-Match answers 304, authenticated, rate-limited and audited', async () => {
    for (const path of GETS) {
      const first = await w.api.get(path, { key: w.keys.full });
      assert.equal(first.status, 200, path);
      const etag = first.headers.get('etag');
      assert.match(etag ?? '', /^"[A-Za-z0-9_-]+"$/, `${path}: a strong tag`);
      assert.equal((await w.api.get(path, { key: w.keys.full })).headers.get('etag'), etag, `${path}: stable while nothing changes`);
      const again = await w.api.get(path, { key: w.keys.full, headers: { 'If-None-Match': etag! } });
      assert.equal(again.status, 304, path);
      assert.equal(again.bytes.length, 0);
      assert.equal(again.headers.get('etag'), etag);
      assert.match(again.headers.get('x-request-id') ?? '', /^req_/);
      const remaining = (res: typeof first) => Number(/remaining=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1]);
      assert.equal(remaining(again), remaining(first) - 2, `${path}: counted against the rate limit`);
      const [row] = await w.auditOf(again.headers.get('x-request-id')!);
      assert.equal(row?.status, 304);
      assert.equal(row?.partnerId, 'ptn_full');
      assert.equal(
        (await w.api.get(path, { key: w.keys.full, headers: { 'If-None-Match': '"other", W/' + etag } })).status,
        304,
        'a list and a weak form match too',
      );
      assert.equal((await w.api.get(path, { key: w.keys.full, headers: { 'If-None-Match': '"other"' } })).status, 200);
      const unauthenticated = await w.api.get(path, { headers: { 'If-None-Match': etag! } });
      assert.equal(unauthenticated.status, 401, `${path}: no 304 without a key`);
      assert.equal(unauthenticated.headers.get('etag'), null);
    }
  });

  it('errors carry no ETag; a different partner or key mode gets a different tag for the same path', async () => {
    const missing = await w.api.get('/api/v2/employers/me/crew/nobody/profile', { key: w.keys.full });
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('etag'), null);
    const live = await w.api.get('/api/v2/employers/me/fleet', { key: w.keys.full });
    const test = await w.api.get('/api/v2/employers/me/fleet', { key: w.keys.fullTest });
    assert.notEqual(live.headers.get('etag'), test.headers.get('etag'));
    assert.equal(
      (await w.api.get('/api/v2/employers/me/fleet', { key: w.keys.fullTest, headers: { 'If-None-Match': live.headers.get('etag')! } }))
        .status,
      200,
    );
  });

  it('the tag changes whenever the body does, and one tag never stands for two bodies (writes and days in any order)', async () => {
    const bodies = new Map<string, string>();
    const write = fc.oneof(
      fc.record({ kind: fc.constant('name' as const), n: fc.nat(3) }),
      fc.record({ kind: fc.constant('expiry' as const), days: fc.integer({ min: -5, max: 40 }) }),
      fc.record({ kind: fc.constant('consent' as const), give: fc.boolean() }),
      fc.record({ kind: fc.constant('vessel' as const), n: fc.nat(3) }),
      fc.record({ kind: fc.constant('day' as const), days: fc.integer({ min: 0, max: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(write, fc.constantFrom(...GETS.slice(1, 6))), { minLength: 1, maxLength: 8 }), async (steps) => {
        for (const [step, path] of steps) {
          const before = await w.api.get(path, { key: w.keys.full });
          if (step.kind === 'name')
            await w.db
              .updateTable('crew')
              .set({ name: `Ana ${step.n}` })
              .where('crew_unique_id', '=', 'crew_ana')
              .execute();
          if (step.kind === 'vessel')
            await w.db
              .updateTable('vessels')
              .set({ vessel_name: `MV ${step.n}` })
              .where('vessel_id', '=', 'ves_a1')
              .execute();
          if (step.kind === 'expiry') {
            const d = new Date(Date.UTC(2026, 10, 22 + step.days)).toISOString().slice(0, 10);
            await w.db.updateTable('documents').set({ expiry_date: d }).where('document_id', '=', 'doc_edge').execute();
          }
          if (step.kind === 'consent') {
            await w.db.deleteFrom('consents').where('crew_unique_id', '=', 'crew_cho').where('partner_id', '=', 'ptn_full').execute();
            if (step.give)
              await w.db
                .insertInto('consents')
                .values({ crew_unique_id: 'crew_cho', partner_id: 'ptn_full', category: 'status' })
                .execute();
          }
          if (step.kind === 'day') w.setNow(new Date(Date.UTC(2026, 10, 22 + step.days, 10)));
          const after = await w.api.get(path, { key: w.keys.full, headers: { 'If-None-Match': before.headers.get('etag')! } });
          const current = await w.api.get(path, { key: w.keys.full });
          const body = current.bytes.toString();
          if (body !== before.bytes.toString()) assert.equal(after.status, 200, `${path}: changed by ${JSON.stringify(step)}, yet 304`);
          const tag = current.headers.get('etag')!;
          const seen = bodies.get(`${path} ${tag}`);
          if (seen !== undefined) assert.equal(body, seen, `${path}: one tag, two bodies`);
          bodies.set(`${path} ${tag}`, body);
        }
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 15) },
    );
  });
});
