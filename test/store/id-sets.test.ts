import assert from 'node:assert/strict';
import { it } from 'node:test';
import { documentIdsWithFiles, documentsByIds } from '../../src/store/repositories/documents-repo.ts';
import { deleteEvents } from '../../src/store/repositories/event-feed-repo.ts';
import { catalogueOrder } from '../../src/store/repositories/ingest-entities-repo.ts';
import { consentsForPartners } from '../../src/store/repositories/consents-repo.ts';
import { replaceConsents } from '../../src/store/repositories/reference-data-repo.ts';
import { readSnapshots, writeSnapshots } from '../../src/store/repositories/sync-state-repo.ts';
import { documentRow, START } from '../support/change-world.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedEvent, seedPartners } from '../support/sync-world.ts';

/** More ids than either store takes parameters in one statement (32,766 on SQLite, 65,535 on Postgres). */
const MANY = 70_000;
const ids = (prefix: string) => Array.from({ length: MANY }, (_, i) => `${prefix}_${i}`);

describeEachStore('sets of ids larger than a statement takes parameters', ({ store }) => {
  it('find the documents named among them', async () => {
    const db = store().db;
    await seedPartners(db, 'ptn_a');
    await db
      .insertInto('documents')
      .values(documentRow('doc_real', 'crew_1', 2, null, START))
      .execute();
    const named = [...ids('doc_none'), 'doc_real'];
    assert.deepEqual(
      (await documentsByIds(db, named)).map((d) => d.documentId),
      ['doc_real'],
    );
    assert.deepEqual([...(await documentIdsWithFiles(db, named))], []);
  });

  it('delete the events named among them, and only those', async () => {
    const db = store().db;
    await seedPartners(db, 'ptn_a');
    const gone = await seedEvent(db, 'ptn_a');
    const kept = await seedEvent(db, 'ptn_a');
    await deleteEvents(db, [...ids('evt_none'), gone.eventId]);
    const left = await db.selectFrom('outbox_events').select('event_id').execute();
    assert.deepEqual(
      left.map((r) => r.event_id),
      [kept.eventId],
    );
  });

  it('give every requirement key named a catalogue position', async () => {
    const positions = await catalogueOrder(store().db, ids('req'));
    assert.equal(positions.size, MANY);
    assert.equal(positions.get('req_69999'), MANY - 1);
  });

  it("read the consents of a crew page to every partner named, each partner's own", async () => {
    const db = store().db;
    await seedPartners(db, 'ptn_a', 'ptn_b');
    await replaceConsents(db, 'crew_1', 'ptn_a', ['status', 'profile']);
    await replaceConsents(db, 'crew_1', 'ptn_b', ['documents']);
    const consents = await consentsForPartners(db, [...ids('ptn_none'), 'ptn_a', 'ptn_b'], ['crew_1', 'crew_2']);
    assert.equal(consents.size, MANY + 2);
    assert.deepEqual([...consents.get('ptn_a')!.get('crew_1')!].sort(), ['profile', 'status']);
    assert.deepEqual([...consents.get('ptn_b')!.get('crew_1')!], ['documents']);
    assert.equal(consents.get('ptn_none_0')!.size, 0);
  });

  it("read the sync snapshots of a crew page for every partner named, each partner's own", async () => {
    const db = store().db;
    const state = (status: string) => ({ status, docs: {}, compliance: {} });
    await writeSnapshots(
      db,
      [
        { partnerId: 'ptn_a', crewUniqueId: 'crew_1', state: state('a'), nextDue: null },
        { partnerId: 'ptn_b', crewUniqueId: 'crew_1', state: state('b'), nextDue: '2026-12-01' },
        { partnerId: 'ptn_c', crewUniqueId: 'crew_1', state: state('c'), nextDue: null },
      ],
      START,
    );
    const read = await readSnapshots(db, [...ids('ptn_none'), 'ptn_a', 'ptn_b'], ['crew_1', 'crew_2']);
    assert.deepEqual([...read.keys()].sort(), ['ptn_a|crew_1', 'ptn_b|crew_1']);
    assert.deepEqual(read.get('ptn_b|crew_1'), { state: state('b'), nextDue: '2026-12-01', updatedAt: START });
  });
});
