import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { sql } from 'kysely';
import { CatalogueCache } from '../../src/services/compliance/catalogue-cache.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { describeEachStore } from '../support/stores.ts';

describeEachStore('the catalogue cache', ({ store }) => {
  let now = new Date('2026-11-22T10:00:00.000Z');
  const clock = () => now;
  before(async () => {
    await loadFixtures(store().db, ['data/requirements.json'], clock);
  });

  it('keeps its version number after a reload that read the same definitions, takes the next after a change', async () => {
    const db = store().db;
    const cache = new CatalogueCache(clock, 30_000);
    const first = await cache.get(db);
    now = new Date(now.getTime() + 31_000);
    assert.equal(
      (await cache.get(db)).version,
      first.version,
      'unchanged: the same version, so evaluations and matrices keyed by it are reused',
    );
    const key = first.definitions[0]!.key;
    await sql`update requirement_catalogue set definition = ${JSON.stringify({ ...first.definitions[0], title: 'Renamed' })} where requirement_key = ${key}`.execute(
      db,
    );
    assert.equal(await cache.get(db), first, 'within the TTL the held catalogue is kept');
    now = new Date(now.getTime() + 31_000);
    const changed = await cache.get(db);
    assert.equal(changed.version, first.version + 1);
    assert.equal(changed.definitions.find((d) => d.key === key)!.title, 'Renamed');
  });
});
