import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { sql } from 'kysely';
import { openStore, type Store } from '../../src/store/connect.ts';
import { assertMigrated } from '../../src/store/migrator.ts';
import { auditRowText, insertAuditRows, listAuditEntries } from '../../src/store/repositories/audit-repo.ts';
import { findSetting, putSetting } from '../../src/store/repositories/settings-repo.ts';
import { auditEntry } from '../support/audit-entries.ts';
import { createSqliteStoreUrl, type TestStore } from '../support/stores.ts';

// docs/operations.md "Backups": VACUUM INTO on the open store, restored by copying the file into place.
let test: TestStore;
let live: Store;
let dir: string;

before(async () => {
  test = await createSqliteStoreUrl({ migrated: true });
  live = await openStore(test.url);
  dir = mkdtempSync(join(tmpdir(), 'svc-backup-'));
});

after(async () => {
  await live.close();
  await test.dispose();
  rmSync(dir, { recursive: true, force: true });
});

it('VACUUM INTO backs up an open SQLite store, WAL included; the copy restored elsewhere opens with the same rows', async () => {
  const rows = [1, 2, 3].map((n) => auditEntry(`req_${n}`, `2026-11-22T10:0${n}:00.000Z`));
  await insertAuditRows(live.db, rows.map(auditRowText));
  await putSetting(live.db, 'audit_pruned_at', '2026-11-22T09:00:00.000Z');
  // The rows are still in the write-ahead log (svc checkpoints every 10,000 pages): a plain copy of
  // svc.db misses them, VACUUM INTO reads them through the connection.
  const plainCopy = join(dir, 'plain-copy.db');
  copyFileSync(test.url.slice('sqlite:'.length), plainCopy);
  const plain = await openStore(`sqlite:${plainCopy}`, { create: false });
  assert.deepEqual(await listAuditEntries(plain.db, { limit: 10 }), [], 'a copy of the file alone lacks what the WAL holds');
  await plain.close();
  const backup = join(dir, 'backup.db');
  await sql`vacuum into ${backup}`.execute(live.db);
  await insertAuditRows(live.db, [auditRowText(auditEntry('req_after', '2026-11-22T10:09:00.000Z'))]);

  const restoredPath = join(dir, 'restored', 'svc.db');
  mkdirSync(join(dir, 'restored'));
  copyFileSync(backup, restoredPath);
  assert.equal(existsSync(`${restoredPath}-wal`), false, 'the backup is one self-contained file');
  const store = await openStore(`sqlite:${restoredPath}`, { create: false });
  try {
    await assertMigrated(store.db, 'the restored store');
    const read = await listAuditEntries(store.db, { limit: 10 });
    assert.deepEqual(
      read.map((e) => e.requestId),
      ['req_3', 'req_2', 'req_1'],
      'the rows written before the backup, not the one after',
    );
    assert.deepEqual(read.at(-1), { ...rows[0], latencyMs: 3 });
    assert.equal(await findSetting(store.db, 'audit_pruned_at'), '2026-11-22T09:00:00.000Z');
  } finally {
    await store.close();
  }
});
