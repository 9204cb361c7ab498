import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import fc from 'fast-check';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { baseFixture, crewArb, loadCrew, VESSELS, type GenCrew } from '../support/fleet-compliance-world.ts';
import { describeEachWorld, NOW } from '../support/read-api-world.ts';

/*
 * Access, as a property over generated crew: in the single check, the fleet compliance list and
 * the matrix, a partner sees exactly the crew on its fleet (in the key's mode) who give it
 * compliance consent, medical details only with crew:medical:read, and page sizes and next
 * cursors that follow from those crew alone.
 */
const RUNS = Number(process.env.SVC_FLEET_COMPLIANCE_RUNS ?? 6);
const MEDICAL_KEYS = new Set(['medical_fitness', 'drug_alcohol_test']);

interface Reader {
  name: string;
  partner: string;
  mode: 'live' | 'test';
  vessels: string[];
  medical: boolean;
}
const READERS: Reader[] = [
  { name: 'm', partner: 'ptn_m', mode: 'live', vessels: ['ves_a', 'ves_b'], medical: true },
  { name: 'mTest', partner: 'ptn_m', mode: 'test', vessels: ['ves_t'], medical: true },
  { name: 'nomed', partner: 'ptn_nomed', mode: 'live', vessels: ['ves_a', 'ves_b'], medical: false },
  { name: 'z', partner: 'ptn_z', mode: 'live', vessels: ['ves_z'], medical: true },
];

const visible = (r: Reader, c: GenCrew) => r.vessels.includes(c.vessel) && c.status !== 'signed_off' && c.compliance.includes(r.partner);

describeEachWorld('fleet compliance access', { catalogue: true, fixture: baseFixture() }, (w) => {
  const keys: Record<string, string> = {};
  before(async () => {
    for (const r of READERS) keys[r.name] = (await issuePartnerKey(w.db, r.partner, r.mode, () => NOW)).key;
  });
  const everyone: { id: string; crew: GenCrew }[] = [];
  let run = 0;

  it('each answer holds exactly the crew the partner may see, and nothing of the others', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(crewArb, { minLength: 1, maxLength: 5 }), async (crew) => {
        const ids = await loadCrew(w.db, `a${++run}`, crew);
        everyone.push(...crew.map((c, i) => ({ id: ids[i]!, crew: c })));
        for (const r of READERS) {
          const key = keys[r.name]!;
          const expected = everyone
            .filter((e) => visible(r, e.crew))
            .map((e) => `${e.crew.vessel}/${e.id}`)
            .sort();
          const pages: any[] = [];
          let cursor: string | undefined;
          do {
            const res = await w.api.get(`/api/v2/employers/me/compliance?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
              key,
            });
            pages.push(res.json);
            cursor = res.json.next_cursor;
          } while (cursor);
          const listed = pages.flatMap((p) => p.items.map((i: any) => `${i.vessel_id}/${i.crew_unique_id}`));
          assert.deepEqual(listed, expected, r.name);
          // Full pages until the last, and no cursor past the crew one may see: the paging follows from them alone.
          assert.deepEqual(
            pages.map((p) => p.items.length),
            expected.length === 0
              ? [0]
              : Array.from({ length: Math.ceil(expected.length / 2) }, (_, i) => Math.min(2, expected.length - 2 * i)),
          );
          if (!r.medical) {
            for (const p of pages)
              for (const i of p.items) assert.ok(!(i.next_change?.requirement_keys ?? []).some((k: string) => MEDICAL_KEYS.has(k)));
          }
          for (const vessel of VESSELS) {
            const res = await w.api.get(`/api/v2/employers/me/vessels/${vessel}/compliance-matrix`, { key });
            if (!r.vessels.includes(vessel)) {
              assert.deepEqual([res.status, res.json.detail.code], [404, 'vessel_not_found']);
              continue;
            }
            assert.deepEqual(
              res.json.rows.map((x: any) => `${vessel}/${x.crew_unique_id}`),
              expected.filter((e) => e.startsWith(`${vessel}/`)),
            );
            if (r.medical) continue;
            const medical = res.json.columns.flatMap((c: any, i: number) => (MEDICAL_KEYS.has(c.key) ? [i] : []));
            for (const row of res.json.rows) for (const i of medical) assert.equal(row.cells[i]?.expiry_date ?? null, null);
          }
          for (const e of everyone.slice(-crew.length)) {
            const res = await w.api.request('POST', `/api/v2/employers/me/crew/${e.id}/compliance-checks`, { key, body: {} });
            const onFleet = r.vessels.includes(e.crew.vessel) && e.crew.status !== 'signed_off';
            assert.equal(res.status, !onFleet ? 404 : visible(r, e.crew) ? 200 : 403, `${r.name} ${e.id}`);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
});
