import assert from 'node:assert/strict';
import { it } from 'node:test';
import { openStore } from '../../src/store/connect.ts';
import { deleteUnusedFilesStoredBefore } from '../../src/store/repositories/files-repo.ts';
import { deleteUnusedFiles } from '../../src/store/repositories/files-repo.ts';
import { documentRow } from '../support/change-world.ts';
import { queryPlan, type SentStatement } from '../support/query-plan.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedCrewOnFleet, seedPartners, T0 } from '../support/sync-world.ts';

const file = (fileId: string) => ({
  file_id: fileId,
  content_type: 'application/pdf',
  size: 1,
  bytes: Buffer.from('x'),
  stored_at: '2026-01-01T00:00:00.000Z',
});

describeEachStore('asking whether a row still names a stored file', ({ store, url, dialect }) => {
  it('reads the documents and crew photos naming that file through an index, not the whole tables', async () => {
    const db = store().db;
    await seedPartners(db, 'ptn_a');
    await seedCrewOnFleet(db, 'crew_2');
    await db
      .insertInto('files')
      .values([file('f_used'), file('f_photo'), file('f_alone')])
      .execute();
    await db.updateTable('crew').set({ photo_file_id: 'f_photo' }).where('crew_unique_id', '=', 'crew_2').execute();
    await db
      .insertInto('documents')
      .values({ ...documentRow('doc_1', 'crew_2', 0, null, T0), file_id: 'f_used' })
      .execute();

    const sent: SentStatement[] = [];
    const logged = await openStore(url(), {
      log: (e) => {
        if (e.level === 'query' && /from "files"/.test(e.query.sql)) sent.push({ sql: e.query.sql, parameters: e.query.parameters });
      },
    });
    try {
      await logged.db.transaction().execute((trx) => deleteUnusedFiles(trx, ['f_used', 'f_photo', 'f_alone']));
      assert.equal(await deleteUnusedFilesStoredBefore(logged.db, '2026-06-01T00:00:00.000Z', 500), 0);
    } finally {
      await logged.close();
    }
    const left = await db.selectFrom('files').select('file_id').orderBy('file_id').execute();
    assert.deepEqual(
      left.map((r) => r.file_id),
      ['f_photo', 'f_used'],
    );
    assert.equal(sent.length, 2, sent.map((s) => s.sql).join('\n'));
    for (const statement of sent) {
      const plan = await queryPlan(db, dialect, statement);
      assert.match(plan, /\bdocuments_file\b/, `${statement.sql}\n${plan}`);
      assert.match(plan, /\bcrew_photo_file\b/, `${statement.sql}\n${plan}`);
    }
  });
});
