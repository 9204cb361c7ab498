import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { describeEachWorld } from '../support/read-api-world.ts';

const PROFILE = (crew: string) => `/api/v2/employers/me/crew/${crew}/profile`;

describeEachWorld('conditional GETs respect tenants: 304 only where 200 would be, tags move only with what the partner sees', (w) => {
  it('If-None-Match: * answers 304 only after the fleet, consent and existence checks', async () => {
    for (const warm of [false, true]) {
      // Warm: the same request answered once already, so a cached answer exists for the partner that may see it.
      if (warm) for (const crew of ['crew_ana', 'crew_fay']) await w.api.get(PROFILE(crew), { key: w.keys.full });
      const star = { 'If-None-Match': '*' };
      assert.equal((await w.api.get(PROFILE('crew_ana'), { key: w.keys.b, headers: star })).status, 404, "another partner's crew member");
      assert.equal((await w.api.get(PROFILE('crew_nobody'), { key: w.keys.full, headers: star })).status, 404, 'no such crew member');
      assert.equal((await w.api.get(PROFILE('crew_cho'), { key: w.keys.full, headers: star })).status, 403, 'no profile consent');
      assert.equal((await w.api.get(PROFILE('crew_ana'), { key: w.keys.full, headers: star })).status, 304, 'would be 200');
    }
    await w.db
      .deleteFrom('consents')
      .where('crew_unique_id', '=', 'crew_ana')
      .where('partner_id', '=', 'ptn_full')
      .where('category', '=', 'profile')
      .execute();
    assert.equal(
      (await w.api.get(PROFILE('crew_ana'), { key: w.keys.full, headers: { 'If-None-Match': '*' } })).status,
      403,
      'consent withdrawn',
    );
  });

  it("a tag changes if and only if the body does, whoever's data the generated writes touch", async () => {
    const paths = ['/api/v2/employers/me/vessels', '/api/v2/employers/me/fleet', PROFILE('crew_fay')];
    const callers = [w.keys.full, w.keys.b];
    const write = fc.oneof(
      fc.record({ kind: fc.constant('vesselA' as const), n: fc.nat(2) }),
      fc.record({ kind: fc.constant('vesselB' as const), n: fc.nat(2) }),
      fc.record({ kind: fc.constant('crewFay' as const), n: fc.nat(2) }),
      fc.record({ kind: fc.constant('crewAna' as const), n: fc.nat(2) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(write, { minLength: 1, maxLength: 6 }), async (writes) => {
        for (const step of writes) {
          const before = await Promise.all(callers.flatMap((key) => paths.map((p) => w.api.get(p, { key }))));
          if (step.kind === 'vesselA')
            await w.db
              .updateTable('vessels')
              .set({ vessel_name: `MV A ${step.n}` })
              .where('vessel_id', '=', 'ves_a1')
              .execute();
          if (step.kind === 'vesselB')
            await w.db
              .updateTable('vessels')
              .set({ vessel_name: `MV B ${step.n}` })
              .where('vessel_id', '=', 'ves_b1')
              .execute();
          if (step.kind === 'crewFay')
            await w.db
              .updateTable('crew')
              .set({ name: `Fay ${step.n}` })
              .where('crew_unique_id', '=', 'crew_fay')
              .execute();
          if (step.kind === 'crewAna')
            await w.db
              .updateTable('crew')
              .set({ name: `Ana ${step.n}` })
              .where('crew_unique_id', '=', 'crew_ana')
              .execute();
          const after = await Promise.all(callers.flatMap((key) => paths.map((p) => w.api.get(p, { key }))));
          after.forEach((a, i) => {
            const b = before[i]!;
            if (a.status !== 200 || b.status !== 200) return;
            const sameBody = a.bytes.toString() === b.bytes.toString();
            assert.equal(a.headers.get('etag') === b.headers.get('etag'), sameBody, `${i}: ${JSON.stringify(step)}`);
          });
        }
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 8) },
    );
  });
});
