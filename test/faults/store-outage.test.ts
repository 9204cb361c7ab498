import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import pg from 'pg';
import { issuePartnerKey } from '../../src/services/api-keys.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import { describeEachStore, PG_ADMIN_URL } from '../helpers/stores.ts';
import { writeFixture } from '../helpers/mini-fixture.ts';
import { NOW, worldFixture } from '../helpers/read-api-world.ts';
import { eventually, probe } from './helpers/probe.ts';
import { startServeChild, type ServeChild } from './helpers/serve-child.ts';

const FLEET = '/api/v2/employers/me/fleet';
const HEALTH = '/_internal/health';

async function admin(text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

describeEachStore('the store going away under svc serve', ({ store, url, dialect }) => {
  let server: ServeChild | undefined;
  let key: string;
  const dbName = () => new URL(url()).pathname.slice(1);

  before(async () => {
    const db = store().db;
    await loadFixtures(db, [writeFixture(worldFixture())], () => NOW);
    key = (await issuePartnerKey(db, 'ptn_full', 'live', () => NOW)).key;
    server = await startServeChild(url());
  });
  after(async () => {
    await server?.stop();
    if (dialect === 'postgres') await admin(`alter database ${dbName()} allow_connections true`).catch(() => {});
  });

  if (dialect === 'postgres') {
    it('baseline', async () => {
      const h = await probe(server!.url, HEALTH);
      const f = await probe(server!.url, FLEET, key);
      console.log(h, f.status, f.ms);
    });
    it('terminate', async () => {
      await admin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${dbName()}' and pid <> pg_backend_pid()`);
      for (let i = 0; i < 5; i++) {
        const h = await probe(server!.url, HEALTH);
        const f = await probe(server!.url, FLEET, key);
        console.log('after terminate', h.status, h.ms, f.status, f.ms, f.json?.detail);
      }
    });
    it('block', async () => {
      await admin(`alter database ${dbName()} allow_connections false`);
      await admin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${dbName()}' and pid <> pg_backend_pid()`);
      for (let i = 0; i < 3; i++) {
        const h = await probe(server!.url, HEALTH);
        const f = await probe(server!.url, FLEET, key);
        console.log('blocked', h.status, h.ms, h.json, f.status, f.ms, f.json?.detail);
      }
      const many = await Promise.all(Array.from({ length: 20 }, () => probe(server!.url, FLEET, key)));
      console.log(many.map((m) => [m.status, Math.round(m.ms)]));
      await admin(`alter database ${dbName()} allow_connections true`);
      for (let i = 0; i < 3; i++) {
        const h = await probe(server!.url, HEALTH);
        const f = await probe(server!.url, FLEET, key);
        console.log('restored', h.status, h.ms, f.status, f.ms);
      }
      console.log(server!.alive(), server!.stderr());
      console.log(server!.logs.filter((l) => (l.level as number) >= 50).slice(0, 3));
    });
  }
});
