import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { cli } from '../support/cli.ts';
import { describeEachStore } from '../support/stores.ts';

const shipped = (
  JSON.parse(readFileSync(new URL('../../data/requirements.json', import.meta.url), 'utf8')) as {
    requirements: { key: string }[];
  }
).requirements;

describeEachStore(
  'svc db migrate installs the shipped requirement catalogue',
  ({ store, url }) => {
    const catalogue = async () =>
      await store().db.selectFrom('requirement_catalogue').select(['requirement_key', 'definition']).orderBy('position').execute();

    it('--no-catalogue leaves it empty', async () => {
      const res = await cli(['--db', url(), 'db', 'migrate', '--no-catalogue']);
      assert.equal(res.code, 0, res.stderr);
      assert.doesNotMatch(res.stdout, /catalogue/);
      assert.deepEqual(await catalogue(), []);
    });

    it('a migrate installs every shipped requirement, as shipped, and says so', async () => {
      const res = await cli(['--db', url(), 'db', 'migrate']);
      assert.equal(res.code, 0, res.stderr);
      assert.match(
        res.stdout,
        new RegExp(`requirement catalogue installed \\(${shipped.length} requirements from data/requirements.json\\)`),
      );
      const rows = await catalogue();
      assert.deepEqual(
        rows.map((r) => r.requirement_key),
        shipped.map((r) => r.key),
      );
      assert.deepEqual(
        rows.map((r) => JSON.parse(r.definition)),
        shipped,
      );
    });

    it('a store loaded with the demo data alone evaluates crew against their role, not no_role', async () => {
      assert.equal((await cli(['--db', url(), 'db', 'migrate'])).code, 0);
      assert.equal((await cli(['--db', url(), 'fixtures', 'load', 'fixtures/demo.json'])).code, 0);
      const res = await cli(['--db', url(), 'compliance', 'check', 'crew_0001', '--json']);
      assert.equal(res.code, 0, res.stderr);
      const check = JSON.parse(res.stdout) as { overall_status: string; summary: { total: number } };
      assert.notEqual(check.overall_status, 'no_role');
      assert.ok(check.summary.total > 0);
    });

    it('migrating again rewrites nothing; a changed or missing shipped requirement is restored, others kept', async () => {
      assert.equal((await cli(['--db', url(), 'db', 'migrate'])).code, 0);
      const again = await cli(['--db', url(), 'db', 'migrate']);
      assert.match(again.stdout, /requirement catalogue up to date/);
      const first = shipped[0]!.key;
      await store()
        .db.updateTable('requirement_catalogue')
        .set({ definition: '{"key":"tampered"}' })
        .where('requirement_key', '=', first)
        .execute();
      await store().db.deleteFrom('requirement_catalogue').where('requirement_key', '=', shipped[1]!.key).execute();
      await store()
        .db.insertInto('requirement_catalogue')
        .values({ requirement_key: 'operator_extra', position: 999, definition: JSON.stringify({ ...shipped[2], key: 'operator_extra' }) })
        .execute();
      const res = await cli(['--db', url(), 'db', 'migrate']);
      assert.match(res.stdout, /requirement catalogue installed/);
      const rows = new Map((await catalogue()).map((r) => [r.requirement_key, JSON.parse(r.definition)]));
      for (const r of shipped) assert.deepEqual(rows.get(r.key), r);
      assert.ok(rows.has('operator_extra'));
    });
  },
  { migrate: false },
);
