import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import fc from 'fast-check';
import { addDays } from '../../src/domain/compliance/dates.ts';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { parse } from 'csv-parse/sync';
import { baseFixture, crewArb, dayByDayNextChange, loadCrew } from '../support/fleet-compliance-world.ts';
import { describeEachWorld, NOW, TODAY } from '../support/read-api-world.ts';

/*
 * Differential: on generated crew, documents and dates, every item of the fleet compliance list
 * equals the single check for the same crew member, vessel and date, its next_change equals a
 * day-by-day evaluation, the check on the day before and on the day of the change agrees with it,
 * and the matrix agrees with the single check cell by cell (its CSV parsing back to the JSON).
 * SVC_FLEET_COMPLIANCE_RUNS=100 for a longer search.
 */
const RUNS = Number(process.env.SVC_FLEET_COMPLIANCE_RUNS ?? 6);
const WINDOW = 90;

describeEachWorld('the fleet compliance list and matrix against the single check', { catalogue: true, fixture: baseFixture() }, (w) => {
  const keys: Record<string, string> = {};
  before(async () => {
    keys.m = (await issuePartnerKey(w.db, 'ptn_m', 'live', () => NOW)).key;
    keys.nomed = (await issuePartnerKey(w.db, 'ptn_nomed', 'live', () => NOW)).key;
  });
  let run = 0;

  const walk = async (key: string, query: string) => {
    const items: any[] = [];
    let cursor: string | undefined;
    do {
      const res = await w.api.get(
        `/api/v2/employers/me/compliance?limit=3${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { key },
      );
      assert.equal(res.status, 200, JSON.stringify(res.json));
      items.push(...res.json.items);
      cursor = res.json.next_cursor;
    } while (cursor);
    return items;
  };

  it('every item is the single check on that date; next_change is the first day-by-day change', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(crewArb, { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 60 }), async (crew, offset) => {
        const prefix = `r${++run}`;
        await loadCrew(w.db, prefix, crew);
        const on = addDays(TODAY, offset);
        for (const [name, medicalVisible] of [
          ['m', true],
          ['nomed', false],
        ] as const) {
          const mine = (await walk(keys[name]!, `&on=${on}`)).filter((i) => i.crew_unique_id.startsWith(`${prefix}_`));
          for (const item of mine) {
            const check = (day: string) =>
              w.api.request('POST', `/api/v2/employers/me/crew/${item.crew_unique_id}/compliance-checks?vessel_id=${item.vessel_id}`, {
                key: keys[name]!,
                body: { on: day },
              });
            const single = (await check(on)).json;
            assert.deepEqual(
              { overall_status: item.overall_status, summary: item.summary, on: single.on },
              { overall_status: single.overall_status, summary: single.summary, on },
            );
            const slow = await dayByDayNextChange(w.db, item.crew_unique_id, item.vessel_id, on, WINDOW, medicalVisible);
            assert.deepEqual(item.next_change, slow, `${item.crew_unique_id} on ${on}`);
            if (item.next_change && item.next_change.on <= addDays(TODAY, 730)) {
              assert.equal((await check(addDays(item.next_change.on, -1))).json.overall_status, item.overall_status);
              assert.equal((await check(item.next_change.on)).json.overall_status, item.next_change.overall_status);
            }
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('the matrix agrees with the single check cell by cell, and its CSV parses back to the JSON', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(crewArb, { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 400 }), async (crew, offset) => {
        await loadCrew(w.db, `r${++run}`, crew);
        const on = addDays(TODAY, offset);
        for (const key of [keys.m!, keys.nomed!]) {
          const res = await w.api.get(`/api/v2/employers/me/vessels/ves_a/compliance-matrix?on=${on}`, { key });
          assert.equal(res.status, 200);
          const m = res.json;
          assert.equal(m.on, on);
          // A second call at the same data version may be answered from the matrix cache: the same answer.
          assert.deepEqual((await w.api.get(`/api/v2/employers/me/vessels/ves_a/compliance-matrix?on=${on}`, { key })).json, m);
          for (const row of m.rows) {
            const single = (
              await w.api.request('POST', `/api/v2/employers/me/crew/${row.crew_unique_id}/compliance-checks?vessel_id=ves_a`, {
                key,
                body: { on },
              })
            ).json;
            assert.equal(row.overall_status, single.overall_status);
            const expected = m.columns.map((c: any) => {
              const r = single.requirements.find((x: any) => x.key === c.key);
              return r ? { status: r.status, expiry_date: r.expiry_date } : null;
            });
            assert.deepEqual(row.cells, expected, row.crew_unique_id);
            assert.equal(
              single.requirements.length,
              row.cells.filter((c: unknown) => c !== null).length,
              'every row of the check has a column',
            );
          }
          const csv = await w.api.get(`/api/v2/employers/me/vessels/ves_a/compliance-matrix?on=${on}`, {
            key,
            headers: { Accept: 'text/csv' },
          });
          assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
          const [header, ...records] = parse(csv.bytes, { record_delimiter: '\r\n' });
          assert.deepEqual(
            header!.slice(3),
            m.columns.flatMap((c: any) => [`${c.key} status`, `${c.key} expiry_date`]),
          );
          const fromCsv = records.map((r) => ({
            crew_unique_id: r[0],
            position_name: r[1] || null,
            overall_status: r[2],
            cells: m.columns.map((_: unknown, i: number) =>
              r[3 + 2 * i] ? { status: r[3 + 2 * i], expiry_date: r[4 + 2 * i] || null } : null,
            ),
          }));
          assert.deepEqual(fromCsv, m.rows);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
