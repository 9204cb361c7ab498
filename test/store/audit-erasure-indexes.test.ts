import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/database.ts';
import { openStore } from '../../src/store/connect.ts';
import { eraseCrew } from '../../src/store/repositories/ingest-entities-repo.ts';
import { migrateToLatest } from '../../src/store/migrator.ts';
import { documentRow } from '../support/change-world.ts';
import { migrateToJustBefore } from '../support/earlier-schema.ts';
import { queryPlan, type SentStatement } from '../support/query-plan.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedCrewOnFleet, seedPartners, T0 } from '../support/sync-world.ts';

const row = (requestId: string, route: string | null, path: string, crewId: string | null, documentId: string | null = null) => ({
  request_id: requestId,
  at: T0,
  partner_id: 'ptn_a',
  key_id: null,
  method: 'GET',
  route,
  path,
  crew_unique_id: crewId,
  document_id: documentId,
  status: route ? 200 : 404,
  latency_ms: 1,
  client_ip: null,
});

/** crew_2 on ptn_a's fleet with one document, doc_2. */
async function seedCrew2(db: Kysely<Database>): Promise<void> {
  await seedPartners(db, 'ptn_a');
  await seedCrewOnFleet(db, 'crew_2');
  await db
    .insertInto('documents')
    .values(documentRow('doc_2', 'crew_2', 0, null, T0))
    .execute();
}

describeEachStore('erasing a crew member from the audit log', ({ store, url, dialect }) => {
  it('reads the rows about them and the unrouted ones through their indexes, not the whole log', async () => {
    const db = store().db;
    await seedCrew2(db);
    const profile = '/api/v2/employers/me/crew/{crew_unique_id}/profile';
    const download = '/api/v2/employers/me/crew/{crew_unique_id}/documents/{document_id}/download';
    await db
      .insertInto('audit_log')
      .values([
        row('req_1', profile, '/api/v2/employers/me/crew/crew_2/profile', 'crew_2'),
        row('req_2', download, '/api/v2/employers/me/crew/crew_x/documents/doc_2/download', 'crew_x', 'doc_2'),
        row('req_3', null, '/api/v2/crew/crew_2', null),
        row('req_4', profile, '/api/v2/employers/me/crew/crew_3/profile', 'crew_3'),
      ])
      .execute();

    const sent: SentStatement[] = [];
    const logged = await openStore(url(), {
      log: (e) => {
        if (e.level === 'query' && /^update "audit_log"/.test(e.query.sql)) sent.push({ sql: e.query.sql, parameters: e.query.parameters });
      },
    });
    try {
      await logged.db.transaction().execute((trx) => eraseCrew(trx, 'crew_2'));
    } finally {
      await logged.close();
    }
    const rows = await db
      .selectFrom('audit_log')
      .select(['request_id', 'path', 'crew_unique_id', 'document_id'])
      .orderBy('request_id')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.request_id, r.path, r.crew_unique_id, r.document_id]),
      [
        ['req_1', '/api/v2/employers/me/crew/[erased]/profile', null, null],
        ['req_2', '/api/v2/employers/me/crew/crew_x/documents/[erased]/download', null, null],
        ['req_3', '/api/v2/crew/[erased]', null, null],
        ['req_4', '/api/v2/employers/me/crew/crew_3/profile', 'crew_3', null],
      ],
    );
    const indexes = ['audit_log_crew', 'audit_log_document', 'audit_log_unrouted'];
    assert.equal(sent.length, indexes.length, sent.map((s) => s.sql).join('\n'));
    for (const [i, statement] of sent.entries()) {
      const plan = await queryPlan(db, dialect, statement);
      assert.match(plan, new RegExp(`\\b${indexes[i]}\\b`), `${statement.sql}\n${plan}`);
    }
  });
});

describeEachStore('erasing a crew member with more documents than one scrub statement names', ({ store }) => {
  it('takes every one of their ids out of the paths recorded for them', async () => {
    const db = store().db;
    await seedPartners(db, 'ptn_a');
    await seedCrewOnFleet(db, 'crew_many');
    const ids = Array.from({ length: 150 }, (_, i) => `doc_many_${i}`);
    await db
      .insertInto('documents')
      .values(ids.map((id, i) => documentRow(id, 'crew_many', i, null, T0)))
      .execute();
    const download = '/api/v2/employers/me/crew/{crew_unique_id}/documents/{document_id}/download';
    const at = (id: string) => `/api/v2/employers/me/crew/crew_many/documents/${id}/download`;
    await db
      .insertInto('audit_log')
      .values([
        row('req_first', download, at('doc_many_1'), 'crew_many', 'doc_many_1'),
        row('req_last', download, at('doc_many_149'), 'crew_many', 'doc_many_149'),
        row('req_unrouted', null, '/api/v2/documents/doc_many_149', null),
      ])
      .execute();
    await db.transaction().execute((trx) => eraseCrew(trx, 'crew_many'));
    const rows = await db
      .selectFrom('audit_log')
      .select(['request_id', 'path', 'crew_unique_id', 'document_id'])
      .orderBy('request_id')
      .execute();
    const erased = '/api/v2/employers/me/crew/[erased]/documents/[erased]/download';
    assert.deepEqual(
      rows.map((r) => [r.request_id, r.path, r.crew_unique_id, r.document_id]),
      [
        ['req_first', erased, null, null],
        ['req_last', erased, null, null],
        ['req_unrouted', '/api/v2/documents/[erased]', null, null],
      ],
    );
  });
});

/*
 * Migration 2000-audit-erasure-indexes: a 405 on a route's path was recorded with the route and
 * without the ids its path names, which an erasure then found only by reading the whole log. The
 * migration attributes those rows, so the erasure's indexed statements find them.
 */
describeEachStore(
  '405 rows recorded before the erasure indexes',
  ({ store }) => {
    it('are attributed to the crew member and document their path names, and erased with them', async () => {
      const db = store().db;
      await migrateToJustBefore(db, '2000-audit-erasure-indexes');
      await seedCrew2(db);
      const download = '/api/v2/employers/me/crew/{crew_unique_id}/documents/{document_id}/download';
      await db
        .insertInto('audit_log')
        .values([
          { ...row('req_1', download, '/api/v2/employers/me/crew/crew_2/documents/doc_2/download', null), status: 405 },
          {
            ...row('req_2', '/api/v2/employers/me/crew/{crew_unique_id}/profile', '/api/v2/employers/me/crew/crew%5F3/profile', null),
            status: 405,
          },
          { ...row('req_3', '/api/v2/employers/me/fleet', '/api/v2/employers/me/fleet', null), status: 405 },
        ])
        .execute();
      await migrateToLatest(db);
      const attributed = await db
        .selectFrom('audit_log')
        .select(['request_id', 'crew_unique_id', 'document_id'])
        .orderBy('request_id')
        .execute();
      assert.deepEqual(
        attributed.map((r) => [r.request_id, r.crew_unique_id, r.document_id]),
        [
          ['req_1', 'crew_2', 'doc_2'],
          ['req_2', 'crew_3', null],
          ['req_3', null, null],
        ],
      );
      await db.transaction().execute((trx) => eraseCrew(trx, 'crew_2'));
      const [erased] = await db.selectFrom('audit_log').select(['path', 'crew_unique_id']).where('request_id', '=', 'req_1').execute();
      assert.deepEqual([erased?.path, erased?.crew_unique_id], ['/api/v2/employers/me/crew/[erased]/documents/[erased]/download', null]);
    });
  },
  { migrate: false },
);
