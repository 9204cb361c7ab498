// The request path at scale, shared by bench/explain.ts and bench/pg-prepared.ts: a generated data
// set, made once and reused, and the statements each partner request sends.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql, type Kysely } from 'kysely';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.ts';
import { createApp } from '../../src/http/app.ts';
import { nodeListener } from '../../src/http/server.ts';
import { openStore, type Store } from '../../src/store/connect.ts';
import { migrateToLatest } from '../../src/store/migrator.ts';
import type { Database } from '../../src/store/database.ts';
import { freshStore, partnerKey, seed, storeUrl } from './setup.ts';

export const CREW = Number(process.env.EXPLAIN_CREW ?? 100_000);
export const DATA = `svc fixtures generate --crew ${CREW} --vessels 1000 --partners 2 --docs-per-crew 10`;
const NAME = `svc_explain_${CREW}`;
const PARTNER = 'gen_ptn_000';

export type Dialect = 'sqlite' | 'postgres';
export interface Sent {
  sql: string;
  parameters: readonly unknown[];
}
export interface RequestStatements {
  name: string;
  /** Every SELECT the first (cold) or the second (steady) call sent, once each. */
  selects: Sent[];
  /** What else was written, in a few words. */
  writes: string[];
  /** How many statements the second call sent. */
  steady: number;
}

async function crewCount(url: string): Promise<number> {
  try {
    const store = await openStore(url, { create: false });
    try {
      const r = await sql<{ n: number | string }>`select count(*) as n from crew`.execute(store.db);
      return Number(r.rows[0]!.n);
    } finally {
      await store.close();
    }
  } catch {
    return 0;
  }
}

/** The data set's URL, generated (a few minutes at 100,000 crew) unless a complete one is there. */
export async function ensureData(dialect: Dialect): Promise<string> {
  const url = storeUrl(dialect, NAME);
  if ((await crewCount(url)) === CREW) return url;
  process.stderr.write(`${dialect}: generating ${CREW} crew into ${NAME}\n`);
  const { url: fresh } = await freshStore(dialect, NAME);
  const store = await seed(fresh, { crew: CREW, vessels: 1000, partners: 2, docsPerCrew: 10, seed: 3 });
  await sql`analyze`.execute(store.db);
  await store.close();
  return fresh;
}

async function sampleCrew(db: Kysely<Database>): Promise<string> {
  const r = await sql<{ crew_unique_id: string }>`
    select c.crew_unique_id from consents c join assignments a on a.crew_unique_id = c.crew_unique_id
    join vessels v on v.vessel_id = a.vessel_id
    where c.partner_id = ${PARTNER} and c.category = 'documents' and v.is_test = 0 and a.status = 'active'
      and exists (select 1 from consents k where k.crew_unique_id = c.crew_unique_id and k.partner_id = c.partner_id and k.category = 'compliance')
      and exists (select 1 from consents k where k.crew_unique_id = c.crew_unique_id and k.partner_id = c.partner_id and k.category = 'profile')
    order by c.crew_unique_id limit 1 offset ${Math.floor(CREW / 20)}`.execute(db);
  return r.rows[0]!.crew_unique_id;
}

/** A statement in a few words: its verb and the table its outermost FROM (or INTO) names, else its first FROM. */
function label(text: string): string {
  let depth = 0;
  let outer = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (depth === 0) outer += ch;
  }
  const table = /\b(?:from|into)\s+"?(\w+)"?/i.exec(outer)?.[1] ?? /\bfrom\s+"?(\w+)"?/i.exec(text)?.[1] ?? '?';
  return `${text.trim().split(/\s+/)[0]!.toLowerCase()} … ${table}`;
}

/**
 * Opens the data set (left open for the caller) and sends each partner request through the app
 * twice, recording the statements: the first call fills what the process caches, the second is a
 * request in steady state.
 */
export async function recordRequests(dialect: Dialect): Promise<{ store: Store; url: string; requests: RequestStatements[] }> {
  const url = await ensureData(dialect);
  let recording: Sent[] | undefined;
  const store = await openStore(url, {
    create: false,
    log: (e) => {
      if (e.level === 'query') recording?.push({ sql: e.query.sql, parameters: e.query.parameters });
    },
  });
  // A data set made before the newest migrations (an index, say) gets them.
  await migrateToLatest(store.db);
  const key = await partnerKey(store, PARTNER);
  const id = await sampleCrew(store.db);
  const config = loadConfig({}, { databaseUrl: url, rateLimitDefault: 100_000_000, logLevel: 'silent' });
  const app = createApp({ db: store.db, config, clock: () => new Date(), logger: pino({ level: 'silent' }) });
  const server = createServer(nodeListener(app.callback())).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const calls = [
    { name: 'fleet page (limit 200)', method: 'GET', path: '/api/v2/employers/me/fleet?limit=200' },
    { name: 'profile', method: 'GET', path: `/api/v2/employers/me/crew/${id}/profile` },
    { name: 'documents list', method: 'GET', path: `/api/v2/employers/me/crew/${id}/documents` },
    { name: 'compliance check', method: 'POST', path: `/api/v2/employers/me/crew/${id}/compliance-checks` },
  ];
  const requests: RequestStatements[] = [];
  try {
    for (const c of calls) {
      const selects = new Map<string, Sent>();
      const writes = new Set<string>();
      let steady = 0;
      for (const pass of [0, 1]) {
        recording = [];
        const res = await fetch(base + c.path, {
          method: c.method,
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: c.method === 'POST' ? '{}' : undefined,
        });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${dialect} ${c.name}: HTTP ${res.status}`);
        if (pass === 1) steady = recording.length;
        for (const q of recording) {
          if (/^\s*(select|with)\b/i.test(q.sql)) selects.set(q.sql, q);
          else writes.add(label(q.sql));
        }
      }
      requests.push({ name: c.name, selects: [...selects.values()], writes: [...writes], steady });
    }
  } finally {
    recording = undefined;
    await new Promise((resolve) => server.close(resolve));
  }
  return { store, url, requests };
}

export { label };
