import fc from 'fast-check';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import type { Db } from '../../src/store/database.ts';
import { addDays, CODES, CREW, documentRow, PARTNERS, VESSELS } from './change-world.ts';
import { writeFixture } from './mini-fixture.ts';

/*
 * Random writes to the change world (change-world.ts) as a platform would make them: plain SQL, the
 * fixture loader, and clock moves. The sync tests apply generated sequences of them and compare what
 * a run sends with what it should.
 */

export type Op =
  | { kind: 'add-document'; crew: number; code: number; days: number | null; verification: 'verified' | 'pending' | 'unverified' }
  | { kind: 'reverify'; doc: number; verification: 'verified' | 'pending' | 'unverified'; review: 'approved' | 'pending' | 'flagged' }
  | { kind: 'redate'; doc: number; days: number }
  | { kind: 'replace'; doc: number; days: number }
  | { kind: 'withdraw'; doc: number; how: 'is_live' | 'rejected' | 'processing' }
  | {
      kind: 'crew-status';
      crew: number;
      verification: 'verified' | 'unverified' | 'pending';
      background: 'clear' | 'review' | 'not_started';
    }
  | { kind: 'profile'; crew: number }
  | { kind: 'assignment'; crew: number; vessel: number; status: 'invited' | 'active' | 'on_leave' | 'signed_off' | 'removed'; role: string }
  | { kind: 'consent'; crew: number; partner: number; categories: string[] }
  | { kind: 'tier'; partner: number; tier: 'management' | 'basic' | 'vessel' }
  | { kind: 'overrides'; partner: number; scopes: string[] | null }
  | { kind: 'catalogue'; drop: boolean }
  | { kind: 'vessel-flag'; vessel: number; flag: 'GB' | 'PA' | 'LR' }
  | { kind: 'loader-crew'; crew: number; background: 'clear' | 'review' | 'not_started' }
  | { kind: 'clock'; days: number };

const crewIx = fc.integer({ min: 0, max: CREW.length - 1 });
const docIx = fc.nat(10_000);
const SCOPES = ['crew:documents:read', 'crew:medical:read', 'crew:compliance:read', 'crew:status:subscribe', 'crew:profile:read'];
/** Writes that take a document off the lists: a replacement by a newer edition, or a withdrawal. */
export const leaving: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), doc: docIx, days: fc.integer({ min: 0, max: 400 }) }),
  fc.record({ kind: fc.constant('withdraw' as const), doc: docIx, how: fc.constantFrom('is_live', 'rejected', 'processing') }),
);
export const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('add-document' as const),
    crew: crewIx,
    code: fc.nat(CODES.length - 1),
    days: fc.option(fc.integer({ min: -30, max: 200 })),
    verification: fc.constantFrom('verified', 'pending', 'unverified'),
  }),
  fc.record({
    kind: fc.constant('reverify' as const),
    doc: docIx,
    verification: fc.constantFrom('verified', 'pending', 'unverified'),
    review: fc.constantFrom('approved', 'pending', 'flagged'),
  }),
  fc.record({ kind: fc.constant('redate' as const), doc: docIx, days: fc.integer({ min: -30, max: 200 }) }),
  leaving,
  fc.record({
    kind: fc.constant('crew-status' as const),
    crew: crewIx,
    verification: fc.constantFrom('verified', 'unverified', 'pending'),
    background: fc.constantFrom('clear', 'review', 'not_started'),
  }),
  fc.record({ kind: fc.constant('profile' as const), crew: crewIx }),
  fc.record({
    kind: fc.constant('assignment' as const),
    crew: crewIx,
    vessel: fc.nat(VESSELS.length - 1),
    status: fc.constantFrom('invited', 'active', 'on_leave', 'signed_off', 'removed'),
    role: fc.constantFrom('master', 'bosun', 'cook', 'chief_engineer'),
  }),
  fc.record({
    kind: fc.constant('consent' as const),
    crew: crewIx,
    partner: fc.nat(PARTNERS.length - 1),
    categories: fc.subarray(['status', 'profile', 'documents', 'compliance']),
  }),
  fc.record({ kind: fc.constant('tier' as const), partner: fc.nat(1), tier: fc.constantFrom('management', 'basic', 'vessel') }),
  fc.record({ kind: fc.constant('overrides' as const), partner: fc.nat(2), scopes: fc.option(fc.subarray(SCOPES)) }),
  fc.record({ kind: fc.constant('catalogue' as const), drop: fc.boolean() }),
  fc.record({ kind: fc.constant('vessel-flag' as const), vessel: fc.nat(VESSELS.length - 1), flag: fc.constantFrom('GB', 'PA', 'LR') }),
  fc.record({ kind: fc.constant('loader-crew' as const), crew: crewIx, background: fc.constantFrom('clear', 'review', 'not_started') }),
  fc.record({ kind: fc.constant('clock' as const), days: fc.integer({ min: 0, max: 120 }) }),
);

/** Ops that touch no fleet-wide table: the run after them must stay incremental. */
export const LOCAL = new Set<Op['kind']>([
  'add-document',
  'reverify',
  'redate',
  'replace',
  'withdraw',
  'crew-status',
  'profile',
  'assignment',
  'consent',
  'vessel-flag',
  'clock',
]);

let docSeq = 0;

async function pickDocument(db: Db, n: number): Promise<string | undefined> {
  const ids = (await db.selectFrom('documents').select('document_id').orderBy('document_id').execute()).map((r) => r.document_id);
  return ids.length ? ids[n % ids.length] : undefined;
}

export async function apply(db: Db, o: Op, clock: { now: string }): Promise<void> {
  const now = clock.now;
  const day = (d: number) => addDays(now, d).slice(0, 10);
  switch (o.kind) {
    case 'add-document':
      await db
        .insertInto('documents')
        .values({
          ...documentRow(`doc_new_${++docSeq}`, CREW[o.crew]!, o.code, o.days === null ? null : day(o.days), now),
          verification_status: o.verification,
        })
        .execute();
      return;
    case 'reverify':
    case 'redate':
    case 'replace':
    case 'withdraw': {
      const id = await pickDocument(db, o.doc);
      if (!id) return;
      if (o.kind === 'reverify')
        await db
          .updateTable('documents')
          .set({ verification_status: o.verification, review_status: o.review })
          .where('document_id', '=', id)
          .execute();
      if (o.kind === 'redate')
        await db
          .updateTable('documents')
          .set({ expiry_date: day(o.days), no_expiry: 0 })
          .where('document_id', '=', id)
          .execute();
      if (o.kind === 'withdraw') {
        const set = o.how === 'is_live' ? { is_live: 0 as const } : { processing_state: o.how };
        await db.updateTable('documents').set(set).where('document_id', '=', id).execute();
      }
      if (o.kind === 'replace') {
        const old = await db.selectFrom('documents').selectAll().where('document_id', '=', id).executeTakeFirstOrThrow();
        const newId = `doc_rep_${++docSeq}`;
        await db.transaction().execute(async (trx) => {
          await trx
            .insertInto('documents')
            .values({
              ...old,
              document_id: newId,
              expiry_date: day(o.days),
              no_expiry: 0,
              is_current: 1,
              superseded_by: null,
              updated_at: now,
            })
            .execute();
          await trx
            .updateTable('documents')
            .set({ is_current: 0, superseded_by: newId, updated_at: now })
            .where('document_id', '=', id)
            .execute();
        });
      }
      return;
    }
    case 'crew-status':
      await db
        .updateTable('crew')
        .set({ verification_status: o.verification, background_check_status: o.background })
        .where('crew_unique_id', '=', CREW[o.crew]!)
        .execute();
      return;
    case 'profile':
      await db.updateTable('crew').set({ profile_updated_at: now }).where('crew_unique_id', '=', CREW[o.crew]!).execute();
      return;
    case 'assignment': {
      const id = `asg_${CREW[o.crew]}_${VESSELS[o.vessel]}`;
      await db.deleteFrom('assignments').where('assignment_id', '=', id).execute();
      if (o.status !== 'removed') {
        await db
          .insertInto('assignments')
          .values({
            assignment_id: id,
            crew_unique_id: CREW[o.crew]!,
            vessel_id: VESSELS[o.vessel]!,
            role: o.role,
            position_name: null,
            status: o.status,
            as_of: now,
          })
          .execute();
      }
      return;
    }
    case 'consent':
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('consents')
          .where('crew_unique_id', '=', CREW[o.crew]!)
          .where('partner_id', '=', PARTNERS[o.partner]!)
          .execute();
        if (o.categories.length) {
          await trx
            .insertInto('consents')
            .values(
              o.categories.map((category) => ({
                crew_unique_id: CREW[o.crew]!,
                partner_id: PARTNERS[o.partner]!,
                category: category as never,
              })),
            )
            .execute();
        }
      });
      return;
    case 'tier':
      await db.updateTable('partners').set({ tier: o.tier }).where('partner_id', '=', PARTNERS[o.partner]!).execute();
      return;
    case 'overrides':
      await db
        .updateTable('partners')
        .set({ scope_overrides: o.scopes && JSON.stringify(o.scopes) })
        .where('partner_id', '=', PARTNERS[o.partner]!)
        .execute();
      return;
    case 'catalogue':
      if (o.drop) await db.deleteFrom('requirement_catalogue').where('requirement_key', '=', 'drug_alcohol_test').execute();
      else await loadFixtures(db, ['data/requirements.json'], () => new Date(now));
      return;
    case 'vessel-flag':
      await db.updateTable('vessels').set({ flag_state: o.flag }).where('vessel_id', '=', VESSELS[o.vessel]!).execute();
      return;
    case 'loader-crew':
      await loadFixtures(
        db,
        [writeFixture({ crew: [{ crew_unique_id: CREW[o.crew], name: `Crew ${CREW[o.crew]}`, background_check_status: o.background }] })],
        () => new Date(now),
      );
      return;
    case 'clock':
      clock.now = addDays(now, o.days);
  }
}
