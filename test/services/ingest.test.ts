import { documentChange } from '../support/document-change.ts';
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { sql } from 'kysely';
import type { ChangeResult } from '../../src/domain/ingest-change.ts';
import { applyChanges, type Incoming } from '../../src/services/ingest/apply-changes.ts';
import { ingestStream } from '../../src/services/ingest/ingest-stream.ts';
import { eventually } from '../support/probe.ts';
import { describeEachStore } from '../support/stores.ts';
import { seedEvent } from '../support/sync-world.ts';

const T0 = '2026-11-22T10:00:00.000Z';
const HOUR = 3_600_000;

function clockAt(iso: string) {
  let now = Date.parse(iso);
  return { clock: () => new Date(now), advance: (ms: number) => (now += ms) };
}

const lines = (...changes: object[]): Incoming[] => changes.map((c, i) => ({ origin: `test:${i + 1}`, text: JSON.stringify(c) }));
async function* stream(items: Incoming[]) {
  yield* items;
}

const employer = (version = 1) => ({ entity: 'employer', op: 'upsert', id: 'emp_i', version, data: { name: 'Ingest Shipping' } });
const vessel = (version = 1) => ({
  entity: 'vessel',
  op: 'upsert',
  id: 'ves_i',
  version,
  data: {
    employer_id: 'emp_i',
    vessel_name: 'Ingest Star',
    imo: null,
    mmsi: null,
    flag_state: 'GB',
    vessel_type: 'bulk_carrier',
    gross_tonnage: 30000,
    propulsion_kw: 9000,
  },
});
const crew = (version: number, data: Record<string, unknown> = {}) => ({
  entity: 'crew',
  op: 'upsert',
  id: 'crew_i1',
  version,
  data: {
    name: 'Ana Ingest',
    rank: 'Master',
    email: 'ana@example.com',
    phone: '+4712345678',
    bio: 'first',
    verification_status: 'verified',
    ...data,
  },
});
const document = (version: number, data: Record<string, unknown> = {}) => documentChange('doc_i1', 'crew_i1', version, data);

describeEachStore('ingest: versions, patches, deletes and held changes', ({ store, dialect }) => {
  const db = () => store().db;
  const apply = (items: Incoming[], at = T0) =>
    db()
      .transaction()
      .execute((trx) => applyChanges(trx, items, { clock: () => new Date(at), holdMs: 24 * HOUR }));
  const outcomes = (results: ChangeResult[]) => results.map((r) => r.outcome);
  const crewRow = () => db().selectFrom('crew').selectAll().where('crew_unique_id', '=', 'crew_i1').executeTakeFirst();

  it('a patch changes only the fields it names; null clears a nullable one; the rest stays as it was', async () => {
    assert.deepEqual(outcomes(await apply(lines(crew(1)))), ['applied']);
    const before = await crewRow();
    assert.deepEqual(
      outcomes(
        await apply(
          lines({ entity: 'crew', op: 'patch', id: 'crew_i1', version: 2, data: { bio: 'second', phone: null } }),
          '2026-11-23T10:00:00.000Z',
        ),
      ),
      ['applied'],
    );
    const after = (await crewRow())!;
    assert.deepEqual(
      [after.bio, after.phone, after.rank, after.email, after.verification_status],
      ['second', null, 'Master', 'ana@example.com', 'verified'],
    );
    assert.equal(after.profile_updated_at, '2026-11-23T10:00:00.000Z', 'the profile changed');
    assert.notEqual(before!.profile_updated_at, after.profile_updated_at);
  });

  it('a change not newer than the stored version is stale and changes nothing, so an out-of-order feed converges', async () => {
    await apply(lines(crew(10, { bio: 'ten' })));
    const results = await apply(
      lines(crew(9, { bio: 'nine' }), crew(10, { bio: 'ten again' }), crew(11, { bio: 'eleven' }), crew(11, { bio: 'eleven twice' })),
    );
    assert.deepEqual(outcomes(results), ['stale', 'stale', 'applied', 'stale']);
    assert.equal((await crewRow())!.bio, 'eleven');
  });

  it('a bad change is rejected with the field path and writes nothing; the others of the batch apply', async () => {
    // The patch below names a crew member that exists, so that its own field is what is wrong.
    assert.deepEqual(outcomes(await apply(lines(crew(19)))), ['applied']);
    const results = await apply(
      lines(
        crew(20, { date_of_birth: '2027-02-29' }),
        { entity: 'crew', op: 'patch', id: 'crew_i1', version: 21, data: { name: null } },
        { entity: 'crew', op: 'upsert', id: 'crew_i1', version: '22', data: {} },
        { entity: 'starship', op: 'upsert', id: 'x', version: 1, data: {} },
        crew(23, { bio: 'fine', crew_unique_id: 'crew_other' }),
      )
        .concat([{ origin: 'test:6', text: '{"entity":' }])
        .concat(lines(crew(24, { bio: 'applied' }))),
    );
    assert.deepEqual(outcomes(results), ['rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'rejected', 'applied']);
    assert.deepEqual(
      results[0]!.issues!.map((i) => i.loc),
      [['data', 'date_of_birth']],
    );
    assert.deepEqual(
      results[1]!.issues!.map((i) => i.loc),
      [['data', 'name']],
    );
    assert.deepEqual(
      results[2]!.issues!.map((i) => i.loc),
      [['version']],
    );
    assert.deepEqual(
      results[3]!.issues!.map((i) => i.loc),
      [['entity']],
    );
    assert.deepEqual(
      results[4]!.issues!.map((i) => i.loc),
      [['data', 'crew_unique_id']],
    );
    assert.equal(results[5]!.origin, 'test:6');
    assert.equal((await crewRow())!.bio, 'applied');
  });

  it('a document before its crew member is held, applied once the crew member arrives, and rejected after its deadline otherwise', async () => {
    const clock = clockAt(T0);
    await apply(lines(employer(), vessel()));
    const first = await ingestStream(db(), stream(lines(document(1, { crew_unique_id: 'crew_late' }))), {
      clock: clock.clock,
      holdMs: 24 * HOUR,
    });
    assert.deepEqual([first.counts.held, first.waiting], [1, 1]);
    const later = await ingestStream(db(), stream(lines({ ...crew(1), id: 'crew_late' })), { clock: clock.clock, holdMs: 24 * HOUR });
    assert.deepEqual([later.counts.applied, later.earlierHeld.applied, later.waiting], [1, 1, 0]);
    const doc = await db().selectFrom('documents').select('crew_unique_id').where('document_id', '=', 'doc_i1').executeTakeFirst();
    assert.equal(doc?.crew_unique_id, 'crew_late');

    await ingestStream(db(), stream(lines({ ...document(1, { crew_unique_id: 'crew_never' }), id: 'doc_never' })), {
      clock: clock.clock,
      holdMs: 24 * HOUR,
    });
    clock.advance(25 * HOUR);
    const expired = await ingestStream(db(), stream([]), { clock: clock.clock, holdMs: 24 * HOUR });
    assert.deepEqual([expired.earlierHeld.rejected, expired.waiting], [1, 0]);
    assert.match(expired.rejected[0]!.reason!, /unknown crew "crew_never" \(crew_unique_id\); held since/);
  });

  it('a held change delivered three times in one batch is held once, and applied once its crew member arrives', async () => {
    await apply(lines(employer(), vessel()));
    const early = { ...document(1, { crew_unique_id: 'crew_twice' }), id: 'doc_twice' };
    const first = await ingestStream(db(), stream(lines(early, early, early)), { clock: () => new Date(T0), holdMs: 24 * HOUR });
    assert.deepEqual([first.counts.held, first.rejected.length, first.waiting], [3, 0, 1]);
    const held = await db().selectFrom('ingest_held').select(['entity_id', 'version']).where('entity_id', '=', 'doc_twice').execute();
    assert.deepEqual(
      held.map((h) => [h.entity_id, Number(h.version)]),
      [['doc_twice', 1]],
    );
    const later = await ingestStream(db(), stream(lines({ ...crew(1), id: 'crew_twice' })), {
      clock: () => new Date(T0),
      holdMs: 24 * HOUR,
    });
    assert.deepEqual([later.earlierHeld.applied, later.waiting], [1, 0]);
  });

  it('deleting a crew member erases their documents, assignments, consents, snapshots and outbox events; a late older upsert is stale', async () => {
    await apply(
      lines(employer(), vessel(), crew(30), document(30), {
        entity: 'assignment',
        op: 'upsert',
        id: 'asg_i1',
        version: 1,
        data: { crew_unique_id: 'crew_i1', vessel_id: 'ves_i', role: 'master', status: 'active', as_of: T0 },
      }),
    );
    await apply(
      lines({
        entity: 'partner',
        op: 'upsert',
        id: 'ptn_i',
        version: 1,
        data: { name: 'Partner I', kind: 'customer', employer_id: 'emp_i', tier: 'management' },
      }),
    );
    await seedEvent(db(), 'ptn_i', { crewUniqueId: 'crew_i1' });
    const results = await apply(lines({ entity: 'crew', op: 'delete', id: 'crew_i1', version: 31 }, crew(30, { bio: 'late' })));
    assert.deepEqual(outcomes(results), ['applied', 'stale']);
    for (const table of ['crew', 'documents', 'assignments', 'consents', 'sync_snapshots', 'outbox_events'] as const) {
      const n = await db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('crew_unique_id', '=', 'crew_i1')
        .executeTakeFirstOrThrow();
      assert.equal(Number(n.n), 0, `${table} holds nothing about the erased crew member`);
    }
    const kept = await db()
      .selectFrom('ingest_versions')
      .select(['entity', 'record', 'deleted'])
      .where('entity_id', 'in', ['crew_i1', 'doc_i1', 'asg_i1'])
      .execute();
    assert.ok(
      kept.every((k) => k.record === null && k.deleted === 1),
      'tombstones keep no record',
    );
    assert.deepEqual(outcomes(await apply(lines({ entity: 'crew', op: 'patch', id: 'crew_i1', version: 40, data: { bio: 'x' } }))), [
      'rejected',
    ]);
  });

  it('erasure takes the crew member and their documents out of the audit log: rows about them, and paths that named them under no route', async () => {
    await apply(
      lines(
        employer(),
        vessel(),
        { ...crew(70), id: 'crew_audit' },
        ...['doc_audit_1', 'doc_audit_10'].map((id) => ({ ...document(1, { crew_unique_id: 'crew_audit' }), id })),
      ),
    );
    const row = (requestId: string, path: string, crewId: string | null, documentId: string | null = null) => ({
      request_id: requestId,
      at: T0,
      partner_id: null,
      key_id: null,
      method: 'GET',
      route: null,
      path,
      crew_unique_id: crewId,
      document_id: documentId,
      status: 404,
      latency_ms: 1,
      client_ip: null,
    });
    await db()
      .insertInto('audit_log')
      .values([
        row('req_a', '/api/v2/employers/me/crew/crew_audit/profile', 'crew_audit'),
        row('req_b', '/api/v2/crew/crew_audit', null),
        row('req_c', '/api/v2/employers/me/crew/crew_other/profile', 'crew_other'),
        row('req_d', '/api/v2/employers/me/crew/crew_audit/documents/doc_audit_10/download', 'crew_audit', 'doc_audit_10'),
        row('req_e', '/api/v2/documents/doc_audit_1', null),
      ])
      .execute();
    await apply(lines({ entity: 'crew', op: 'delete', id: 'crew_audit', version: 71 }));
    const rows = await db()
      .selectFrom('audit_log')
      .select(['request_id', 'path', 'crew_unique_id', 'document_id'])
      .where('request_id', 'in', ['req_a', 'req_b', 'req_c', 'req_d', 'req_e'])
      .orderBy('request_id')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.request_id, r.path, r.crew_unique_id, r.document_id]),
      [
        ['req_a', '/api/v2/employers/me/crew/[erased]/profile', null, null],
        ['req_b', '/api/v2/crew/[erased]', null, null],
        ['req_c', '/api/v2/employers/me/crew/crew_other/profile', 'crew_other', null],
        ['req_d', '/api/v2/employers/me/crew/[erased]/documents/[erased]/download', null, null],
        ['req_e', '/api/v2/documents/[erased]', null, null],
      ],
    );
  });

  it('a batch of many references holds exactly the changes whose crew is unknown, also after a delete in the batch', async () => {
    await apply(lines(employer(), { ...crew(1), id: 'crew_many' }));
    const docs = Array.from({ length: 20 }, (_, k) => ({
      ...document(1, { crew_unique_id: k % 2 === 0 ? 'crew_many' : `crew_u${k}` }),
      id: `doc_many${k}`,
    }));
    const results = await apply(
      lines(
        ...docs,
        { ...crew(1), id: 'crew_new' },
        { ...document(1, { crew_unique_id: 'crew_new' }), id: 'doc_new' },
        { entity: 'crew', op: 'delete', id: 'crew_many', version: 2 },
        { ...document(1, { crew_unique_id: 'crew_many' }), id: 'doc_after' },
      ),
    );
    const held = results.filter((r) => r.outcome === 'held').map((r) => r.id);
    assert.deepEqual(held, [...docs.filter((_, k) => k % 2 === 1).map((d) => d.id), 'doc_after']);
    assert.equal(results.filter((r) => r.outcome === 'applied').length, 10 + 3);
    assert.match(results.at(-1)!.reason!, /unknown crew "crew_many" \(crew_unique_id\)/);
  });

  it('an employer or vessel still referred to is not deleted; said why', async () => {
    await apply(lines(employer(), vessel()));
    const [result] = await apply(lines({ entity: 'employer', op: 'delete', id: 'emp_i', version: 50 }));
    assert.equal(result!.outcome, 'rejected');
    assert.match(result!.reason!, /still referred to by 1 vessel/);
  });

  it('two batches about one entity at once: the older change, committed second, is stale and leaves the newer one', async () => {
    const deps = { clock: () => new Date(T0), holdMs: HOUR };
    await apply(lines(crew(60, { bio: 'sixty' })));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let firstApplied!: () => void;
    const applied = new Promise<void>((resolve) => (firstApplied = resolve));
    const first = db()
      .transaction()
      .execute(async (trx) => {
        const results = await applyChanges(trx, lines(crew(62, { bio: 'sixty-two' })), deps);
        firstApplied();
        await gate;
        return results;
      });
    await applied;
    const second = db()
      .transaction()
      .execute((trx) => applyChanges(trx, lines(crew(61, { bio: 'sixty-one' })), deps));
    // The second batch runs until it waits on the first (Postgres: a lock; SQLite: begin immediate holds it before any read).
    if (dialect === 'postgres') {
      await eventually(
        'the second batch waits on the first',
        async () =>
          Number(
            (
              await sql<{
                n: string;
              }>`select count(*) as n from pg_locks where not granted and database = (select oid from pg_database where datname = current_database())`.execute(
                db(),
              )
            ).rows[0]!.n,
          ) > 0,
      );
    }
    release();
    assert.deepEqual([outcomes(await first), outcomes(await second)], [['applied'], ['stale']]);
    assert.equal((await crewRow())!.bio, 'sixty-two');
  });
});
