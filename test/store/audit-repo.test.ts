import assert from 'node:assert/strict';
import { beforeEach, it } from 'node:test';
import type { AuditEntry } from '../../src/domain/audit-entry.ts';
import { auditRowText, findAuditEntries, insertAuditRows, listAuditEntries } from '../../src/store/repositories/audit-repo.ts';
import type { Db } from '../../src/store/database.ts';
import { auditEntry } from '../support/audit-entries.ts';
import { describeEachStore } from '../support/stores.ts';

const insertAuditEntries = (db: Db, entries: readonly AuditEntry[]) => insertAuditRows(db, entries.map(auditRowText));

const at = (minute: number) => `2026-11-22T10:${String(minute).padStart(2, '0')}:00.000Z`;

function entry(n: number, overrides: Partial<AuditEntry> = {}): AuditEntry {
  return auditEntry(`req_${n}`, at(n % 60), overrides);
}

describeEachStore('the audit log in the store', ({ store }) => {
  beforeEach(async () => {
    await store().db.deleteFrom('audit_log').execute();
  });

  it('an entry reads back as written; NUL in client-supplied text is stored as U+FFFD; latency is whole milliseconds', async () => {
    const db = store().db;
    const odd = entry(1, {
      path: '/api/v2/x%00\u0000y',
      crewUniqueId: 'crew\u0000',
      documentId: null,
      latencyMs: 2.6,
      route: null,
      partnerId: null,
      keyId: null,
    });
    await insertAuditEntries(db, [odd]);
    assert.deepEqual(await findAuditEntries(db, 'req_1'), [
      { ...odd, path: '/api/v2/x%00\uFFFDy', crewUniqueId: 'crew\uFFFD', latencyMs: 3 },
    ]);
    assert.deepEqual(await findAuditEntries(db, 'req_absent'), []);
  });

  it('one request id may have several rows, read in insertion order; a batch of 1,200 is written whole', async () => {
    const db = store().db;
    await insertAuditEntries(db, [entry(1, { status: 401 }), entry(1, { status: 200 })]);
    assert.deepEqual(
      (await findAuditEntries(db, 'req_1')).map((e) => e.status),
      [401, 200],
    );
    await insertAuditEntries(
      db,
      Array.from({ length: 1200 }, (_, i) => entry(1000 + i)),
    );
    assert.equal((await listAuditEntries(db, { limit: 5000 })).length, 1202);
    await insertAuditEntries(db, []);
  });

  it('listing: newest first (ties newest insert first), filtered by partner, inclusive time bounds and status range, limited', async () => {
    const db = store().db;
    await insertAuditEntries(db, [
      entry(1, { status: 200 }),
      entry(2, { status: 404 }),
      entry(3, { status: 429, partnerId: 'ptn_b' }),
      entry(4, { status: 500 }),
      entry(5, { at: at(4), status: 0, method: 'CLI' }),
    ]);
    const ids = (rows: AuditEntry[]) => rows.map((e) => e.requestId);
    assert.deepEqual(ids(await listAuditEntries(db, { limit: 10 })), ['req_5', 'req_4', 'req_3', 'req_2', 'req_1']);
    assert.deepEqual(ids(await listAuditEntries(db, { limit: 2 })), ['req_5', 'req_4']);
    assert.deepEqual(ids(await listAuditEntries(db, { limit: 10, partnerId: 'ptn_b' })), ['req_3']);
    assert.deepEqual(ids(await listAuditEntries(db, { limit: 10, partnerId: 'ptn_none' })), []);
    assert.deepEqual(
      ids(await listAuditEntries(db, { limit: 10, since: at(2), until: at(3) })),
      ['req_3', 'req_2'],
      'both bounds inclusive',
    );
    assert.deepEqual(ids(await listAuditEntries(db, { limit: 10, status: { from: 400, to: 499 } })), ['req_3', 'req_2']);
    assert.deepEqual(ids(await listAuditEntries(db, { limit: 10, status: { from: 0, to: 0 } })), ['req_5']);
    assert.deepEqual(ids(await listAuditEntries(db, { limit: 10, partnerId: 'ptn_a', since: at(2), status: { from: 400, to: 599 } })), [
      'req_4',
      'req_2',
    ]);
  });
});
