import assert from 'node:assert/strict';
import { it } from 'node:test';
import { replaceContractVessels } from '../../src/store/repositories/reference-data-repo.ts';
import { expectError, expectIssues } from '../support/expect.ts';
import { describeEachWorld } from '../support/read-api-world.ts';

const FLEET = '/api/v2/employers/me/fleet';
const entry = (crew: string, vessel: string, extra: Record<string, unknown>) => ({
  crew_unique_id: crew,
  vessel_id: vessel,
  as_of: '2026-10-01T00:00:00Z',
  name: extra.name,
  vessel_name: `MV ${vessel}`,
  vessel_imo: vessel === 'ves_a2' ? null : '9074729',
  role: 'master',
  ...extra,
});

describeEachWorld('fleet list', (w) => {
  const fleet = async (key: string, query = '') => w.api.get(`${FLEET}${query}`, { key });
  const byCrew = async (key: string, query = '') =>
    Object.fromEntries((await fleet(key, query)).json.items.map((i: any) => [i.crew_unique_id, i]));

  it('lists on-fleet crew of live vessels in vessel/crew order; status fields only with status consent', async () => {
    const res = await fleet(w.keys.full);
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, {
      items: [
        entry('crew_ana', 'ves_a1', { name: 'Ana Silva', status: 'active', background_check_status: 'clear', documents_expiring: 4 }),
        entry('crew_ben', 'ves_a1', { name: 'Ben Okafor', documents_expiring: 0 }),
        entry('crew_cho', 'ves_a2', { name: 'Cho Min', status: 'on_leave', background_check_status: 'pending', documents_expiring: 0 }),
      ],
      expiring_within_days: 30,
    });
    assert.ok(!('next_cursor' in res.json), 'next_cursor absent on the last page');
    // Keys left out, not null, and in the spec's order.
    assert.deepEqual(Object.keys(res.json.items[1] as object), [
      'crew_unique_id',
      'vessel_id',
      'as_of',
      'name',
      'vessel_name',
      'vessel_imo',
      'role',
      'documents_expiring',
    ]);
  });

  it('live and test data never mix; another partner sees only its own fleet', async () => {
    assert.deepEqual(Object.keys(await byCrew(w.keys.fullTest)), ['crew_eve']);
    assert.equal((await byCrew(w.keys.fullTest)).crew_eve.documents_expiring, 1);
    assert.deepEqual(Object.keys(await byCrew(w.keys.b)), ['crew_fay']);
  });

  it('status fields need crew:status:read as well as consent', async () => {
    const noScope = await byCrew(await w.partnerWith(['vessels:fleet:read', 'crew:documents:read', 'crew:medical:read']));
    assert.ok(!('status' in noScope.crew_ana) && !('background_check_status' in noScope.crew_ana));
    assert.equal(noScope.crew_ana.documents_expiring, 4);
    const noConsent = await byCrew(await w.partnerWith(['vessels:fleet:read', 'crew:status:read'], ['documents']));
    assert.ok(!('status' in noConsent.crew_ana));
  });

  it('documents_expiring: 0 without crew:documents:read or documents consent; medical counted only with crew:medical:read', async () => {
    assert.equal((await byCrew(await w.partnerWith(['vessels:fleet:read', 'crew:status:read']))).crew_ana.documents_expiring, 0);
    const noDocConsent = await byCrew(await w.partnerWith(['vessels:fleet:read', 'crew:status:read', 'crew:documents:read'], ['status']));
    assert.equal(noDocConsent.crew_ana.documents_expiring, 0);
    assert.equal(noDocConsent.crew_ana.status, 'active');
    assert.equal((await byCrew(await w.partnerWith(['vessels:fleet:read', 'crew:documents:read']))).crew_ana.documents_expiring, 3);
  });

  it('documents_expiring counts [today, today + window] inclusive, and echoes the window', async () => {
    const zero = await fleet(w.keys.full, '?include_documents_expiring_within_days=0');
    assert.equal(zero.json.expiring_within_days, 0);
    assert.equal(zero.json.items[0].documents_expiring, 1, 'the document expiring today');
    const year = await fleet(w.keys.full, '?include_documents_expiring_within_days=730');
    assert.equal(year.json.expiring_within_days, 730);
    assert.equal(year.json.items[0].documents_expiring, 5, 'doc_later now inside, doc_nofile (2029) still outside');
  });

  it('documents in an excluded state are not counted; the same document once processed is', async () => {
    for (const [column, value] of [
      ['processing_state', 'processed'],
      ['is_live', 1],
      ['is_current', 1],
    ] as const) {
      const id = column === 'processing_state' ? 'doc_processing' : column === 'is_live' ? 'doc_withdrawn' : 'doc_old';
      const before = (await byCrew(w.keys.full)).crew_ana.documents_expiring;
      await w.db
        .updateTable('documents')
        .set({ [column]: value })
        .where('document_id', '=', id)
        .execute();
      try {
        assert.equal((await byCrew(w.keys.full)).crew_ana.documents_expiring, before + 1, id);
      } finally {
        const back = column === 'processing_state' ? 'processing' : 0;
        await w.db
          .updateTable('documents')
          .set({ [column]: back })
          .where('document_id', '=', id)
          .execute();
      }
    }
  });

  it('limit and window out of range or not integers: one 422 with every issue', async () => {
    expectIssues(await fleet(w.keys.full, '?limit=0'), [
      {
        type: 'greater_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be greater than or equal to 1',
        input: '0',
        ctx: { ge: 1 },
      },
    ]);
    expectIssues(await fleet(w.keys.full, '?limit=500'), [
      {
        type: 'less_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be less than or equal to 200',
        input: '500',
        ctx: { le: 200 },
      },
    ]);
    for (const bad of ['abc', '4.5']) {
      expectIssues(await fleet(w.keys.full, `?limit=${bad}`), [
        {
          type: 'int_parsing',
          loc: ['query', 'limit'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: bad,
        },
      ]);
    }
    expectIssues(await fleet(w.keys.full, '?limit=0&include_documents_expiring_within_days=731'), [
      {
        type: 'greater_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be greater than or equal to 1',
        input: '0',
        ctx: { ge: 1 },
      },
      {
        type: 'less_than_equal',
        loc: ['query', 'include_documents_expiring_within_days'],
        msg: 'Input should be less than or equal to 730',
        input: '731',
        ctx: { le: 730 },
      },
    ]);
    expectIssues(await fleet(w.keys.full, '?include_documents_expiring_within_days=-1'), [
      {
        type: 'greater_than_equal',
        loc: ['query', 'include_documents_expiring_within_days'],
        msg: 'Input should be greater than or equal to 0',
        input: '-1',
        ctx: { ge: 0 },
      },
    ]);
  });

  it('a partner without vessels gets an empty page', async () => {
    const key = await w.partnerWith(['vessels:fleet:read']);
    const partnerId = (await w.api.get('/api/v2/partners/me', { key })).json.partner_id;
    await replaceContractVessels(w.db, partnerId, []);
    assert.deepEqual((await fleet(key)).json, { items: [], expiring_within_days: 30 });
  });

  it('without vessels:fleet:read: 403 insufficient_scope, checked before the query', async () => {
    expectError(await fleet(await w.partnerWith(['crew:status:read']), '?limit=0'), 403, 'insufficient_scope', {
      required_scope: 'vessels:fleet:read',
    });
  });
});
