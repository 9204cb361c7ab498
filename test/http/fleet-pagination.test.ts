import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { upsertAssignments, upsertCrew } from '../../src/store/repositories/reference-data-repo.ts';
import { expectIssues } from '../support/expect.ts';
import { NOW, startWorld, type World } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

const FLEET = '/api/v2/employers/me/fleet';
const pad = (n: number) => `c${String(n).padStart(3, '0')}`;
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

/** 71 live roster rows: c001-c040 on v1, c030-c060 on v2 (eleven crew on both), signed-off and test rows besides. */
function bigFleet() {
  const vessel = (id: string, isTest = false) => ({
    vessel_id: id,
    employer_id: 'emp_p',
    vessel_name: `MV ${id}`,
    imo: null,
    mmsi: null,
    flag_state: 'NO',
    vessel_type: 'bulk_carrier',
    gross_tonnage: 5000,
    propulsion_kw: 3000,
    is_test: isTest,
  });
  const asg = (n: number, vessel: string, status = 'active') => ({
    crew_unique_id: pad(n),
    vessel_id: vessel,
    role: 'able_seafarer_deck',
    status,
    as_of: '2026-09-01T00:00:00Z',
  });
  return {
    employers: [{ employer_id: 'emp_p', name: 'Paging' }],
    partners: [
      { partner_id: 'ptn_p', name: 'P', kind: 'customer', employer_id: 'emp_p', tier: 'management' },
      { partner_id: 'ptn_q', name: 'Q', kind: 'customer', employer_id: 'emp_p', tier: 'management' },
    ],
    vessels: [vessel('v1'), vessel('v2'), vessel('v3'), vessel('vt', true)],
    crew: range(1, 70).map((n) => ({ crew_unique_id: pad(n), name: `Crew ${n}` })),
    assignments: [
      ...range(1, 40).map((n) => asg(n, 'v1')),
      ...range(30, 60).map((n) => asg(n, 'v2')),
      ...range(1, 5).map((n) => asg(n, 'v3', 'signed_off')),
      ...range(1, 3).map((n) => asg(n, 'vt')),
    ],
  };
}

describeEachStore('fleet pagination', ({ store }) => {
  let w: World;
  const keys: Record<string, string> = {};
  before(async () => {
    w = await startWorld(store().db, { fixture: bigFleet() });
    for (const [name, partner, mode] of [
      ['p', 'ptn_p', 'live'],
      ['pTest', 'ptn_p', 'test'],
      ['q', 'ptn_q', 'live'],
    ] as const) {
      keys[name] = (await issuePartnerKey(w.db, partner, mode, () => NOW)).key;
    }
  });
  after(() => w.close());

  const page = (key: string, query: string) => w.api.get(`${FLEET}?${query}`, { key });
  const rowKey = (i: any) => `${i.vessel_id}/${i.crew_unique_id}`;

  async function walk(
    key: string,
    limit: number,
    between?: (pageNo: number) => Promise<void>,
  ): Promise<{ rows: string[]; pages: number[] }> {
    const rows: string[] = [];
    const pages: number[] = [];
    let cursor: string | undefined;
    for (let n = 0; n < 100; n++) {
      const res = await page(key, `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(res.status, 200, JSON.stringify(res.json));
      rows.push(...res.json.items.map(rowKey));
      pages.push(res.json.items.length);
      cursor = res.json.next_cursor;
      if (!cursor) return { rows, pages };
      await between?.(n);
    }
    throw new Error('pagination did not end');
  }

  it('walks a fleet larger than a page: every row once, in order, next_cursor absent only on the last page', async () => {
    const expected = [...range(1, 40).map((n) => `v1/${pad(n)}`), ...range(30, 60).map((n) => `v2/${pad(n)}`)];
    const { rows, pages } = await walk(keys.p!, 7);
    assert.deepEqual(rows, expected);
    assert.deepEqual(pages, [7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 1]);
  });

  it('limit defaults to 50', async () => {
    const res = await page(keys.p!, '');
    assert.equal(res.json.items.length, 50);
    assert.ok(res.json.next_cursor);
  });

  it('rows added or removed between pages are neither skipped nor repeated', async () => {
    const { rows } = await walk(keys.p!, 10, async (n) => {
      if (n !== 1) return;
      // The cursor now sits at v1/c020: add a row behind it (v1/c000) and one ahead (v2/c071), remove one ahead (v2/c050).
      await upsertCrew(
        w.db,
        ['c000', 'c071'].map((id) => ({
          crew_unique_id: id,
          name: id,
          languages: '[]',
          skills: '[]',
          visas: '[]',
          employment_history: '[]',
          verification_status: 'unverified',
          background_check_status: 'not_started',
          profile_updated_at: NOW.toISOString(),
          updated_at: NOW.toISOString(),
        })),
      );
      await upsertAssignments(w.db, [
        { assignment_id: 'a_behind', crew_unique_id: 'c000', vessel_id: 'v1', role: 'cook', status: 'active', as_of: NOW.toISOString() },
        { assignment_id: 'a_ahead', crew_unique_id: 'c071', vessel_id: 'v2', role: 'cook', status: 'active', as_of: NOW.toISOString() },
      ]);
      await w.db
        .updateTable('assignments')
        .set({ status: 'signed_off' })
        .where('crew_unique_id', '=', 'c050')
        .where('vessel_id', '=', 'v2')
        .execute();
    });
    try {
      assert.equal(new Set(rows).size, rows.length, 'no row repeated');
      const stable = [
        ...range(1, 40).map((n) => `v1/${pad(n)}`),
        ...range(30, 60)
          .filter((n) => n !== 50)
          .map((n) => `v2/${pad(n)}`),
      ];
      for (const r of stable) assert.ok(rows.includes(r), `skipped ${r}`);
      assert.ok(!rows.includes('v1/c000'), 'a row added behind the cursor belongs to pages already read');
      assert.ok(!rows.includes('v2/c050'), 'a row removed ahead of the cursor is not returned');
      assert.ok(rows.includes('v2/c071'), 'a row added ahead of the cursor is returned');
      assert.equal(rows.length, stable.length + 1);
      assert.deepEqual(rows, [...rows].sort(), 'still in vessel/crew order');
    } finally {
      await w.db.updateTable('assignments').set({ status: 'active' }).where('crew_unique_id', '=', 'c050').execute();
      await w.db.deleteFrom('assignments').where('assignment_id', 'in', ['a_behind', 'a_ahead']).execute();
    }
  });

  const invalid = (cursor: string) => [
    {
      type: 'value_error',
      loc: ['query', 'cursor'],
      msg: 'Value error, invalid cursor',
      input: cursor.slice(0, 200),
      ctx: { error: {} },
    },
  ];

  it('a tampered cursor is a 422 value_error at ["query","cursor"]', async () => {
    const cursor: string = (await page(keys.p!, 'limit=5')).json.next_cursor;
    const [body, sig] = cursor.split('.') as [string, string];
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    payload.a = ['v2', 'c059'];
    const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`;
    const flipped = `${body}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BA' : 'AA'}`;
    for (const bad of [forged, flipped, 'abc', `${cursor}x`, 'x'.repeat(300)]) {
      expectIssues(await page(keys.p!, `cursor=${encodeURIComponent(bad)}`), invalid(bad));
    }
  });

  it('a cursor is bound to its partner, mode and window', async () => {
    const q: string = (await page(keys.q!, 'limit=5')).json.next_cursor;
    expectIssues(await page(keys.p!, `cursor=${encodeURIComponent(q)}`), invalid(q));
    const test: string = (await page(keys.pTest!, 'limit=1')).json.next_cursor;
    expectIssues(await page(keys.p!, `cursor=${encodeURIComponent(test)}`), invalid(test));
    const p90: string = (await page(keys.p!, 'limit=5&include_documents_expiring_within_days=90')).json.next_cursor;
    expectIssues(await page(keys.p!, `cursor=${encodeURIComponent(p90)}&include_documents_expiring_within_days=30`), invalid(p90));
    const same = await page(keys.p!, `cursor=${encodeURIComponent(p90)}&include_documents_expiring_within_days=90`);
    assert.equal(same.status, 200);
    const kept = await page(keys.p!, `cursor=${encodeURIComponent(p90)}`);
    assert.equal(kept.json.expiring_within_days, 90, "the cursor's window when none is given");
    assert.deepEqual(kept.json.items, same.json.items);
    assert.equal(kept.json.items[0].crew_unique_id, 'c006');
  });

  it('limit is read as pydantic v2 reads an integer: 5.0 and 1_0 are numbers, 4.5 and 5e0 are not (docs/decisions.md §1)', async () => {
    for (const [limit, size] of [
      ['5.0', 5],
      ['+5.00', 5],
      ['%205%20', 5],
      ['1_0', 10],
    ] as const) {
      const res = await page(keys.p!, `limit=${limit}`);
      assert.equal(res.status, 200, `limit=${limit}: ${JSON.stringify(res.json)}`);
      assert.equal(res.json.items.length, size, `limit=${limit}`);
    }
    for (const limit of ['4.5', '5.', '5e0', '5.01']) {
      expectIssues(await page(keys.p!, `limit=${limit}`), [
        {
          type: 'int_parsing',
          loc: ['query', 'limit'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: limit,
        },
      ]);
    }
    expectIssues(await page(keys.p!, `limit=${'9'.repeat(30)}`), [
      {
        type: 'less_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be less than or equal to 200',
        input: '9'.repeat(30),
        ctx: { le: 200 },
      },
    ]);
  });

  it('a bad cursor and a bad limit are reported together', async () => {
    const res = await page(keys.p!, 'limit=abc&cursor=nope');
    assert.deepEqual(
      res.json.detail.map((i: any) => i.type),
      ['int_parsing', 'value_error'],
    );
  });
});
