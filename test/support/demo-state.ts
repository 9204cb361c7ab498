import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Store } from '../../src/store/connect.ts';

/**
 * What an operator or partner would find changed in the demo after running an example: its webhook
 * endpoints, the keys that still open the API, the consents, the data, events left waiting or
 * dead, a sync lock left held, and files left in the directory the demo runs from. The history
 * that every run adds (delivered events, attempts, audit rows, snapshots, sync runs, revoked keys
 * kept as the contract's trail) is not part of it.
 */
export interface DemoState {
  endpoints: unknown[];
  activeKeys: unknown[];
  consents: string[];
  /** A digest of each data table's rows. */
  data: Record<string, string>;
  eventsWaiting: number;
  deadLettersNotReplayed: number;
  leases: string[];
  files: string[];
}

const DATA_TABLES = [
  'employers',
  'partners',
  'contract_vessels',
  'vessels',
  'crew',
  'assignments',
  'files',
  'documents',
  'requirement_catalogue',
] as const;

function listFiles(dir: string, root = dir): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // Symbolic links lead into the checkout the demo directory mirrors; what lies behind them is not the demo's.
    if (entry.isDirectory() && !entry.isSymbolicLink()) out.push(...listFiles(path, root));
    else out.push(relative(root, path));
  }
  return out.sort();
}

const digest = (rows: unknown[]) =>
  createHash('sha256')
    .update(
      rows
        .map((r) => JSON.stringify(r))
        .sort()
        .join('\n'),
    )
    .digest('hex');

/** The demo's state as defined above; `dir` is the directory the demo runs from (its store file excepted). */
export async function demoState(store: Store, dir: string): Promise<DemoState> {
  const db = store.db;
  const endpoints = await db
    .selectFrom('webhook_endpoints')
    .select([
      'endpoint_id',
      'partner_id',
      'url',
      'subscribed_events',
      'secret',
      'next_secret',
      'next_secret_from',
      'status',
      'disabled_reason',
    ])
    .orderBy('partner_id')
    .execute();
  const activeKeys = await db
    .selectFrom('api_keys')
    .select(['key_id', 'partner_id', 'kind', 'label'])
    .where('status', '=', 'active')
    .orderBy('key_id')
    .execute();
  const consents = (await db.selectFrom('consents').select(['crew_unique_id', 'partner_id', 'category']).execute())
    .map((c) => `${c.partner_id} ${c.crew_unique_id} ${c.category}`)
    .sort();
  const data: Record<string, string> = {};
  for (const table of DATA_TABLES) data[table] = digest(await db.selectFrom(table).selectAll().execute());
  const waiting = await db
    .selectFrom('outbox_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  const dead = await db
    .selectFrom('dead_letters')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('replayed_at', 'is', null)
    .executeTakeFirstOrThrow();
  const leases = (await db.selectFrom('leases').select('name').execute()).map((l) => l.name).sort();
  const files = listFiles(dir).filter((f) => !/^data\/demo\.db/.test(f));
  return { endpoints, activeKeys, consents, data, eventsWaiting: Number(waiting.n), deadLettersNotReplayed: Number(dead.n), leases, files };
}
