import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { addDays } from '../../src/domain/compliance/dates.ts';
import { FORECAST_HORIZON_DAYS } from '../../src/domain/compliance/status-forecast.ts';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { baseFixture, crewArb, loadCrew } from '../support/fleet-compliance-world.ts';
import { describeEachWorld, NOW, TODAY } from '../support/read-api-world.ts';

/*
 * docs/decisions.md §6, "Medical rows on a date": a key without crew:medical:read learns nothing
 * of a medical row through `on` beyond what today's answer shows. On generated crew and dates, its
 * check, fleet list, matrix (JSON and CSV) and next_change show medical rows exactly as today's
 * answers do, and what they show besides (overall status, summary, next change) follows from the
 * rows shown. SVC_FLEET_COMPLIANCE_RUNS=100 for a longer search.
 */
const RUNS = Number(process.env.SVC_FLEET_COMPLIANCE_RUNS ?? 6);
const MEDICAL = new Set(['medical_fitness', 'drug_alcohol_test']);
const LAST = addDays(TODAY, FORECAST_HORIZON_DAYS);

/** The overall status that the rows of an answer give (docs/decisions.md §6). */
function overallOf(rows: { status: string; required: boolean }[]): string {
  const required = rows.filter((r) => r.required).map((r) => r.status);
  if (required.some((s) => s === 'expired' || s === 'missing')) return 'non_compliant';
  return required.some((s) => s === 'expiring' || s === 'pending') ? 'at_risk' : 'compliant';
}

describeEachWorld('medical rows on a date without crew:medical:read', { catalogue: true, fixture: baseFixture() }, (w) => {
  let key: string;
  before(async () => {
    key = (await issuePartnerKey(w.db, 'ptn_nomed', 'live', () => NOW)).key;
  });
  let run = 0;

  const check = async (crew: string, vessel: string, on: string) => {
    const res = await w.api.request('POST', `/api/v2/employers/me/crew/${crew}/compliance-checks?vessel_id=${vessel}`, {
      key,
      body: { on },
    });
    assert.equal(res.status, 200, JSON.stringify(res.json));
    return res.json;
  };
  const list = async (prefix: string, on: string) => {
    const items: any[] = [];
    let cursor: string | undefined;
    let page: any;
    do {
      page = (
        await w.api.get(`/api/v2/employers/me/compliance?on=${on}&limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, {
          key,
        })
      ).json;
      items.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor);
    return { medicalOn: page.medical_on, items: items.filter((i) => i.crew_unique_id.startsWith(`${prefix}_`)) };
  };
  /** Per crew member of the run, the medical cells of a vessel's matrix as JSON and as CSV, by column key. */
  const matrix = async (prefix: string, vessel: string, on: string) => {
    const path = `/api/v2/employers/me/vessels/${vessel}/compliance-matrix?on=${on}`;
    const mine = (crew: string) => crew.startsWith(`${prefix}_`);
    const json = (await w.api.get(path, { key })).json;
    const keys: string[] = json.columns.map((c: any) => c.key);
    const cells = Object.fromEntries(
      json.rows
        .filter((r: any) => mine(r.crew_unique_id))
        .map((r: any) => [r.crew_unique_id, Object.fromEntries(keys.flatMap((k, i) => (MEDICAL.has(k) ? [[k, r.cells[i]]] : [])))]),
    );
    const [header, ...records] = parse((await w.api.get(path, { key, headers: { Accept: 'text/csv' } })).bytes, {
      record_delimiter: '\r\n',
    });
    const csv = Object.fromEntries(
      records
        .filter((r) => mine(r[0]!))
        .map((r) => [r[0], header!.flatMap((h, i) => (MEDICAL.has(h.split(' ')[0]!) ? [`${h}=${r[i]}`] : []))]),
    );
    return { medicalOn: json.medical_on, cells, csv };
  };

  it("the check, the fleet list, the matrix and next_change show medical rows as today's answers do, on every `on`", async () => {
    const dates = fc
      .uniqueArray(fc.integer({ min: 1, max: FORECAST_HORIZON_DAYS }), { minLength: 1, maxLength: 3 })
      .map((d) => d.map((n) => addDays(TODAY, n)));
    await fc.assert(
      fc.asyncProperty(fc.array(crewArb, { minLength: 1, maxLength: 4 }), dates, async (crew, later) => {
        const prefix = `n${++run}`;
        await loadCrew(w.db, prefix, crew);
        const today = await list(prefix, TODAY);
        assert.equal(today.medicalOn, undefined, 'on today the rows are those of today: nothing to say');
        const medicalRows = async (item: any, on: string) => {
          const answer = await check(item.crew_unique_id, item.vessel_id, on);
          assert.deepEqual([answer.on, answer.medical_on], [on, on === TODAY ? undefined : TODAY]);
          // What else the answer shows follows from its rows: the overall status and the summary.
          if (answer.overall_status !== 'no_role') assert.equal(answer.overall_status, overallOf(answer.requirements));
          for (const status of ['met', 'expiring', 'expired', 'missing', 'pending']) {
            assert.equal(answer.summary[status], answer.requirements.filter((r: any) => r.status === status).length);
          }
          return { overall: answer.overall_status, medical: answer.requirements.filter((r: any) => r.group === 'medical') };
        };
        const matricesToday = { ves_a: await matrix(prefix, 'ves_a', TODAY), ves_b: await matrix(prefix, 'ves_b', TODAY) };
        const rowsToday = new Map<string, unknown>();
        for (const item of today.items) rowsToday.set(`${item.vessel_id}/${item.crew_unique_id}`, (await medicalRows(item, TODAY)).medical);
        for (const on of later) {
          const listed = await list(prefix, on);
          assert.equal(listed.medicalOn, TODAY);
          assert.deepEqual(
            listed.items.map((i) => `${i.vessel_id}/${i.crew_unique_id}`),
            [...rowsToday.keys()],
          );
          for (const item of listed.items) {
            const shown = await medicalRows(item, on);
            assert.deepEqual(shown.medical, rowsToday.get(`${item.vessel_id}/${item.crew_unique_id}`), `${item.crew_unique_id} on ${on}`);
            assert.equal(item.overall_status, shown.overall);
            // next_change names no medical row, and the checks the same key gets agree with it.
            const next = item.next_change;
            if (next === null) continue;
            assert.ok(!next.requirement_keys.some((k: string) => MEDICAL.has(k)), JSON.stringify(next));
            if (next.on > LAST) continue;
            assert.equal((await check(item.crew_unique_id, item.vessel_id, addDays(next.on, -1))).overall_status, item.overall_status);
            assert.equal((await check(item.crew_unique_id, item.vessel_id, next.on)).overall_status, next.overall_status);
          }
          for (const vessel of ['ves_a', 'ves_b'] as const) {
            const m = await matrix(prefix, vessel, on);
            assert.equal(m.medicalOn, TODAY);
            assert.deepEqual(m.cells, matricesToday[vessel].cells, `${vessel} on ${on}`);
            assert.deepEqual(m.csv, matricesToday[vessel].csv, `${vessel} CSV on ${on}`);
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("answers kept per data version follow the key's medical rights and the day it is", async () => {
    const full = (await issuePartnerKey(w.db, 'ptn_m', 'live', () => NOW)).key;
    await loadCrew(w.db, 'med', [
      {
        vessel: 'ves_a',
        status: 'active',
        role: 'cook',
        compliance: ['ptn_m', 'ptn_nomed'],
        docs: [{ code: 'medical_fitness', expiry: 200, noExpiry: false, verification: 'verified', flag: 'GB', bst: [] }],
      },
    ]);
    const on = addDays(TODAY, 201);
    const seen = async (k: string) => {
      const answer = (await w.api.request('POST', '/api/v2/employers/me/crew/med_0/compliance-checks', { key: k, body: { on } })).json;
      const row = answer.requirements.find((r: any) => r.key === 'medical_fitness');
      const m = (await w.api.get(`/api/v2/employers/me/vessels/ves_a/compliance-matrix?on=${on}`, { key: k })).json;
      const cell = m.rows.find((r: any) => r.crew_unique_id === 'med_0').cells[
        m.columns.findIndex((c: any) => c.key === 'medical_fitness')
      ];
      return [answer.medical_on ?? null, row.status, row.expiry_date, m.medical_on ?? null, cell.status];
    };
    const expiry = addDays(TODAY, 200);
    // Both keys at the same data version, one after the other and back: neither is served the other's answer.
    assert.deepEqual(await seen(key), [TODAY, 'met', null, TODAY, 'met']);
    assert.deepEqual(await seen(full), [null, 'expired', expiry, null, 'expired']);
    assert.deepEqual(await seen(key), [TODAY, 'met', null, TODAY, 'met']);
    // A new day at the same data version: the rows are those of the new today.
    const later = addDays(TODAY, 150);
    w.setNow(new Date(`${later}T10:00:00Z`));
    try {
      assert.deepEqual(await seen(key), [later, 'expiring', null, later, 'expiring']);
    } finally {
      w.setNow(NOW);
    }
  });
});
