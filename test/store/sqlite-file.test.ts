import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, it } from 'node:test';
import { openStore } from '../../src/store/connect.ts';
import { migrateToLatest } from '../../src/store/migrator.ts';

const dir = mkdtempSync(join(tmpdir(), 'svc-sqlite-file-'));
after(() => rmSync(dir, { recursive: true, force: true }));

it('a closed SQLite store is one file: its log is checkpointed into it and removed, so a copy of the file holds every write', async () => {
  const file = join(dir, 'svc.db');
  const store = await openStore(`sqlite:${file}`);
  await migrateToLatest(store.db);
  await store.db.insertInto('settings').values({ name: 'probe', value: '"kept"' }).execute();
  // Several MB of log, below the checkpoint interval: only the close moves them into the file.
  for (let i = 0; i < 8; i++) {
    const rows = Array.from({ length: 200 }, (_, k) => ({ name: `bulk_${i}_${k}`, value: JSON.stringify('x'.repeat(2000)) }));
    await store.db.insertInto('settings').values(rows).execute();
  }
  // Readers on other connections of the pool, as a server has.
  await Promise.all([1, 2, 3, 4].map(() => store.db.selectFrom('settings').select('value').execute()));
  await store.close();
  assert.equal(existsSync(`${file}-wal`), false);
  const copy = join(dir, 'copy.db');
  copyFileSync(file, copy);
  const reopened = await openStore(`sqlite:${copy}`);
  try {
    assert.deepEqual(await reopened.db.selectFrom('settings').select('value').where('name', '=', 'probe').execute(), [{ value: '"kept"' }]);
  } finally {
    await reopened.close();
  }
});
