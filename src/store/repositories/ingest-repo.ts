import { sql } from 'kysely';
import type { Db } from '../database.ts';
import { dialectOf } from '../dialect-of.ts';

/** What the store holds of one entity the source sent: its newest version and record (null once deleted). */
export interface StoredVersion {
  version: number;
  record: Record<string, unknown> | null;
  deleted: boolean;
}

/** An entity by kind and id, as ingestion keys it. */
export interface EntityRef {
  entity: string;
  entityId: string;
}

/** The Map key of an entity: kind and id, which no id can run together (ids hold no NUL). */
export const refKey = (entity: string, entityId: string) => `${entity}\u0000${entityId}`;

/** The first key of ingestion's advisory locks (pg_advisory_xact_lock(int, int)), apart from any other use. */
const LOCK_SPACE = 0x1e57;

/** Lock slots entities are spread over: a batch takes at most this many locks, however large (a fixture load is one batch). */
const ENTITY_LOCK_SLOTS = 64;

/**
 * Takes, until the transaction ends, the lock slot of each entity named (Postgres; SQLite has one
 * writer at a time): two batches about one entity, from two processes or requests, then compare
 * versions one after the other, so an older change never overwrites a newer one committed
 * meanwhile. Entities share ENTITY_LOCK_SLOTS slots, so batches about different entities may wait
 * on each other too; slots are taken in one order, so never in a circle. Before findVersions.
 */
export async function lockEntities(db: Db, refs: readonly EntityRef[]): Promise<void> {
  if (refs.length === 0 || dialectOf(db) !== 'postgres') return;
  const keys = [...new Set(refs.map((r) => `${r.entity}:${r.entityId}`))];
  await sql`select pg_advisory_xact_lock(${LOCK_SPACE}, slot) from (
    select distinct (((hashtextextended(k, 0) % ${ENTITY_LOCK_SLOTS}) + ${ENTITY_LOCK_SLOTS}) % ${ENTITY_LOCK_SLOTS})::int as slot from unnest(${keys}::text[]) as k order by 1) as s`.execute(
    db,
  );
}

/** The distinct ids named of each entity. */
function idsByEntity(refs: readonly EntityRef[]): Map<string, string[]> {
  const byEntity = new Map<string, Set<string>>();
  for (const r of refs) byEntity.set(r.entity, (byEntity.get(r.entity) ?? new Set()).add(r.entityId));
  return new Map([...byEntity].map(([entity, ids]) => [entity, [...ids]]));
}

/** Ids a read of ingest_versions names at most, well under either store's bound-parameter limit. */
const VERSION_READ_IDS = 5000;

/**
 * The stored versions of the entities named, by refKey; their records only for the entities in
 * `withRecords` (a patch is merged into its record; anything else needs only the version). One
 * statement for up to VERSION_READ_IDS ids, whatever their entities.
 */
export async function findVersions(
  db: Db,
  refs: readonly EntityRef[],
  withRecords: ReadonlySet<string> = new Set(refs.map((r) => r.entity)),
): Promise<Map<string, StoredVersion>> {
  const out = new Map<string, StoredVersion>();
  const named = [...idsByEntity(refs)].flatMap(([entity, ids]) => ids.map((entityId) => ({ entity, entityId })));
  for (let start = 0; start < named.length; start += VERSION_READ_IDS) {
    const byEntity = idsByEntity(named.slice(start, start + VERSION_READ_IDS));
    const rows = await db
      .selectFrom('ingest_versions')
      .select((eb) => [
        'entity',
        'entity_id',
        'version',
        eb
          .case()
          .when('entity', 'in', withRecords.size > 0 ? [...withRecords] : [''])
          .then(eb.ref('record'))
          .else(null)
          .end()
          .as('record'),
        'deleted',
      ])
      .where((eb) => eb.or([...byEntity].map(([entity, ids]) => eb.and([eb('entity', '=', entity), eb('entity_id', 'in', ids)]))))
      .execute();
    for (const r of rows) {
      out.set(refKey(r.entity, r.entity_id), {
        version: Number(r.version),
        record: r.record === null ? null : (JSON.parse(r.record) as Record<string, unknown>),
        deleted: r.deleted === 1,
      });
    }
  }
  return out;
}

/** One entity's new version and record (null: deleted). */
export interface VersionWrite extends EntityRef {
  version: number;
  record: Record<string, unknown> | null;
}

/** Rows of ingest_versions a statement writes: one parameter of a few MB, under either store's limit on a text's length. */
const VERSION_ROWS = 5000;

/**
 * The rows of a statement as a query over one parameter, a JSON array of
 * `[entity, entity_id, version, record text or null, deleted]` (as insertAuditRows does: built value
 * by value through Kysely and bound one by one, 500 rows cost the event loop more than the store).
 */
const versionRows = {
  sqlite: (rows: string, at: string) =>
    sql`select value ->> 0, value ->> 1, value ->> 2, value ->> 3, value ->> 4, ${at} from jsonb_each(${rows}) where true`,
  postgres: (rows: string, at: string) =>
    sql`select r ->> 0, r ->> 1, (r ->> 2)::bigint, r ->> 3, (r ->> 4)::integer, ${at} from jsonb_array_elements(cast(${rows} as jsonb)) as t(r)`,
};

/** Stores entities' newest versions and records, in one statement per VERSION_ROWS. */
export async function saveVersions(db: Db, writes: readonly VersionWrite[], at: string): Promise<void> {
  for (let i = 0; i < writes.length; i += VERSION_ROWS) {
    const rows = writes
      .slice(i, i + VERSION_ROWS)
      .map((w) => [w.entity, w.entityId, w.version, w.record === null ? null : JSON.stringify(w.record), w.record === null ? 1 : 0]);
    await db
      .insertInto('ingest_versions')
      .columns(['entity', 'entity_id', 'version', 'record', 'deleted', 'updated_at'])
      .expression(versionRows[dialectOf(db)](JSON.stringify(rows), at))
      .onConflict((oc) =>
        oc.columns(['entity', 'entity_id']).doUpdateSet((eb) => ({
          version: eb.ref('excluded.version'),
          record: eb.ref('excluded.record'),
          deleted: eb.ref('excluded.deleted'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}

/** Forgets the records (keeping the versions, as tombstones) of every entity about a crew member's erased children. */
export async function tombstoneVersions(db: Db, refs: readonly EntityRef[], at: string): Promise<void> {
  for (const [entity, ids] of idsByEntity(refs)) {
    for (let i = 0; i < ids.length; i += 5000) {
      await db
        .updateTable('ingest_versions')
        .set({ record: null, deleted: 1, updated_at: at })
        .where('entity', '=', entity)
        .where('entity_id', 'in', ids.slice(i, i + 5000))
        .execute();
    }
  }
}

/** A change waiting for an entity it refers to. */
export interface HeldChange extends EntityRef {
  version: number;
  change: string;
  origin: string;
  reason: string;
  crewUniqueId: string | null;
  heldAt: string;
  heldUntil: string;
}

/**
 * Holds changes (a change held again keeps its first time and deadline, and takes the newer
 * reason). A change delivered more than once in a batch (a queue redelivers) is one row: Postgres
 * refuses a statement that upserts one row twice ("ON CONFLICT DO UPDATE command cannot affect row
 * a second time"), where SQLite would apply the two in turn, to the same end.
 */
export async function holdChanges(db: Db, held: readonly HeldChange[]): Promise<void> {
  const once = new Map<string, HeldChange>();
  for (const h of held) {
    const key = `${refKey(h.entity, h.entityId)}\u0000${h.version}`;
    const first = once.get(key);
    once.set(key, first ? { ...first, reason: h.reason } : h);
  }
  const rows = [...once.values()];
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto('ingest_held')
      .values(
        rows.slice(i, i + 1000).map((h) => ({
          entity: h.entity,
          entity_id: h.entityId,
          version: h.version,
          change: h.change,
          origin: h.origin,
          reason: h.reason,
          crew_unique_id: h.crewUniqueId,
          held_at: h.heldAt,
          held_until: h.heldUntil,
        })),
      )
      .onConflict((oc) => oc.columns(['entity', 'entity_id', 'version']).doUpdateSet((eb) => ({ reason: eb.ref('excluded.reason') })))
      .execute();
  }
}

/** Every held change, oldest first. */
export async function listHeld(db: Db): Promise<HeldChange[]> {
  const rows = await db
    .selectFrom('ingest_held')
    .selectAll()
    .orderBy('held_at')
    .orderBy('entity')
    .orderBy('entity_id')
    .orderBy('version')
    .execute();
  return rows.map((r) => ({
    entity: r.entity,
    entityId: r.entity_id,
    version: Number(r.version),
    change: r.change,
    origin: r.origin,
    reason: r.reason,
    crewUniqueId: r.crew_unique_id,
    heldAt: r.held_at,
    heldUntil: r.held_until,
  }));
}

/** Drops held changes (applied, stale, or rejected at last). */
export async function dropHeld(db: Db, held: ReadonlyArray<EntityRef & { version: number }>): Promise<void> {
  for (let i = 0; i < held.length; i += 500) {
    await db
      .deleteFrom('ingest_held')
      .where((eb) =>
        eb.or(
          held
            .slice(i, i + 500)
            .map((h) => eb.and([eb('entity', '=', h.entity), eb('entity_id', '=', h.entityId), eb('version', '=', h.version)])),
        ),
      )
      .execute();
  }
}

/** Drops every held change about a crew member (an erasure). */
export async function dropHeldAbout(db: Db, crewUniqueId: string): Promise<void> {
  await db.deleteFrom('ingest_held').where('crew_unique_id', '=', crewUniqueId).execute();
}

/** How many changes wait, for the summary and the metrics. */
export async function countHeld(db: Db): Promise<number> {
  const row = await db
    .selectFrom('ingest_held')
    .select(sql<string | number>`count(*)`.as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
