import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.ts';
import { createApp } from '../../src/http/app.ts';
import { openStore } from '../../src/store/connect.ts';
import { migrateToLatest } from '../../src/store/migrator.ts';
import { startTestApi, type TestApi } from './http.ts';
import { createSqliteStoreUrl } from './stores.ts';

/** The whole app on a fresh, empty SQLite store, listening on loopback: enough for pages without a key. */
export async function startDocsServer(): Promise<TestApi> {
  const test = await createSqliteStoreUrl();
  const store = await openStore(test.url);
  await migrateToLatest(store.db);
  const api = await startTestApi(
    createApp({ db: store.db, config: loadConfig({}), clock: () => new Date(), logger: pino({ level: 'silent' }) }),
  );
  return {
    ...api,
    async close() {
      await api.close();
      await store.close();
      await test.dispose();
    },
  };
}
