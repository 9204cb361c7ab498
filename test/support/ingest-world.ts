import { mergePatch, type IngestEntity } from '../../src/domain/ingest-change.ts';
import { EVENT_TYPES } from '../../src/domain/vocabulary.ts';
import { FIXTURE_SECTIONS, type FixtureSection } from '../../src/services/fixtures/schema.ts';
import type { Incoming } from '../../src/services/ingest/apply-changes.ts';
import { ENTITY_KINDS } from '../../src/services/ingest/entities.ts';
import { WRITE_ORDER } from '../../src/services/ingest/write-records.ts';
import type { Db } from '../../src/store/database.ts';
import { insertEndpoint } from '../../src/store/repositories/webhook-endpoints-repo.ts';

/*
 * A small world fed to svc as changes (docs/ingest.md), random change streams over it, and a model
 * of what a stream leaves: the stream applied in the order delivered, a change not newer than the
 * entity's version skipped, a patch merged into the record, a crew member's delete erasing their
 * documents, assignments and consents, and nothing about an erased crew member applied afterwards.
 */

export const CREW = ['crew_1', 'crew_2', 'crew_3', 'crew_4'] as const;
export const VESSELS = ['ves_a', 'ves_b', 'ves_x'] as const;
export const PARTNERS = ['ptn_mgmt', 'ptn_basic', 'ptn_ext'] as const;
const CODES = [
  ['medical_fitness', 'medical', []],
  ['drug_alcohol_test', 'medical', []],
  ['security_awareness', 'training', ['A-VI/6-1']],
] as const;
const ROLES = ['master', 'bosun', 'cook', 'chief_engineer'];

/** One change as the test sends it. */
export interface TestChange {
  entity: IngestEntity;
  op: 'upsert' | 'patch' | 'delete';
  id: string | { crew_unique_id: string; partner_id: string };
  version: number;
  data?: Record<string, unknown>;
}

const key = (c: Pick<TestChange, 'entity' | 'id'>) =>
  `${c.entity}:${typeof c.id === 'string' ? c.id : `${c.id.crew_unique_id}|${c.id.partner_id}`}`;
const up = (entity: IngestEntity, id: TestChange['id'], data: Record<string, unknown>, version = 1): TestChange => ({
  entity,
  op: 'upsert',
  id,
  version,
  data,
});

const document = (id: string, crew: string, code: number, expiry: string, version: number) => {
  const [category, documentClass, stcw] = CODES[code % CODES.length]!;
  return {
    document_id: id,
    crew_unique_id: crew,
    type: documentClass,
    category: documentClass,
    title: `${category} v${version}`,
    verification_status: 'verified',
    issue_date: '2024-01-01',
    expiry_date: expiry,
    classification: { document_class: documentClass, category_code: category, stcw_codes: [...stcw] },
  };
};
const assignment = (crew: string, vessel: string, status: string) => ({
  assignment_id: `asg_${crew}_${vessel}`,
  crew_unique_id: crew,
  vessel_id: vessel,
  role: ROLES[CREW.indexOf(crew as never)]!,
  status,
  as_of: '2026-10-01T00:00:00Z',
});
const consentId = (crew: string, partner: string) => ({ crew_unique_id: crew, partner_id: partner });
const EXPIRIES = ['2026-12-01', '2027-06-01', '2026-11-30', '2030-01-01'];

/** The world at version 1: employers, vessels, partners (one external), crew, assignments, consents, documents. */
export function worldChanges(): TestChange[] {
  const vessel = (id: string, employer: string, flag: string) => ({
    vessel_id: id,
    employer_id: employer,
    vessel_name: id,
    imo: null,
    mmsi: null,
    flag_state: flag,
    vessel_type: 'bulk_carrier',
    gross_tonnage: 30000,
    propulsion_kw: 9000,
  });
  return [
    up('employer', 'emp_a', { employer_id: 'emp_a', name: 'Alpha' }),
    up('employer', 'emp_x', { employer_id: 'emp_x', name: 'Xeno' }),
    up('vessel', 'ves_a', vessel('ves_a', 'emp_a', 'GB')),
    up('vessel', 'ves_b', vessel('ves_b', 'emp_a', 'PA')),
    up('vessel', 'ves_x', vessel('ves_x', 'emp_x', 'LR')),
    up('partner', 'ptn_mgmt', { partner_id: 'ptn_mgmt', name: 'Mgmt', kind: 'customer', employer_id: 'emp_a', tier: 'management' }),
    up('partner', 'ptn_basic', { partner_id: 'ptn_basic', name: 'Basic', kind: 'customer', employer_id: 'emp_a', tier: 'basic' }),
    up('partner', 'ptn_ext', {
      partner_id: 'ptn_ext',
      name: 'External',
      kind: 'external',
      contract_scopes: ['crew:compliance:read', 'crew:documents:read', 'crew:status:subscribe'],
      contract_vessel_ids: ['ves_x'],
    }),
    ...CREW.map((id) => up('crew', id, { crew_unique_id: id, name: `Crew ${id}`, bio: 'v1', verification_status: 'verified' })),
    ...CREW.map((id, i) => up('assignment', `asg_${id}_${VESSELS[i % 3]}`, assignment(id, VESSELS[i % 3]!, 'active'))),
    ...CREW.flatMap((id, i) =>
      PARTNERS.filter((_, k) => (i + k) % 3 !== 0).map((p) =>
        up('consent', consentId(id, p), { ...consentId(id, p), categories: ['status', 'profile', 'documents', 'compliance'] }),
      ),
    ),
    ...CREW.flatMap((id, i) =>
      [0, 1].map((k) => up('document', `doc_${id}_${k}`, document(`doc_${id}_${k}`, id, i + k, EXPIRIES[(i + k) % 4]!, 1))),
    ),
  ];
}

/** Webhook endpoints for every partner, subscribed to every event. */
export async function addEndpoints(db: Db, at: string): Promise<void> {
  for (const p of PARTNERS) {
    await insertEndpoint(db, {
      endpointId: `whe_${p}`,
      partnerId: p,
      url: 'https://receiver.invalid/hook',
      subscribedEvents: [...EVENT_TYPES],
      secret: 'whsec_x',
      status: 'active',
      createdAt: at,
      updatedAt: at,
    });
  }
}

/** A generated step: which kind of change, on which entity, with which values (small numbers, mapped by `buildChanges`). */
export type Step = [kind: number, target: number, value: number];

/**
 * The changes of a stream, each entity's with increasing versions from 2, and then a delete of
 * each crew member in `erased`, newer than any change of theirs. Every crew or document change
 * carries a text of its own version (bio, title), so no stream restores a profile or a document as
 * it was, which would still move their update times.
 */
export function buildChanges(steps: readonly Step[], erased: readonly string[]): TestChange[] {
  const versions = new Map<string, number>();
  const next = (c: Omit<TestChange, 'version'>): TestChange => {
    const v = (versions.get(key(c)) ?? 1) + 1;
    versions.set(key(c), v);
    return { ...c, version: v };
  };
  const out: TestChange[] = [];
  for (const [kind, target, value] of steps) {
    const crew = CREW[target % CREW.length]!;
    const vessel = VESSELS[value % VESSELS.length]!;
    const partner = PARTNERS[value % PARTNERS.length]!;
    const version = (id: TestChange['id'], entity: IngestEntity) => (versions.get(key({ entity, id })) ?? 1) + 1;
    switch (kind % 8) {
      case 0:
        out.push(
          next({
            entity: 'crew',
            op: 'patch',
            id: crew,
            data: { bio: `bio v${version(crew, 'crew')}`, rank: value % 3 === 0 ? null : `rank ${value % 3}` },
          }),
        );
        break;
      case 1:
        out.push(
          next({
            entity: 'crew',
            op: 'upsert',
            id: crew,
            data: { name: `Crew ${crew}`, bio: `bio v${version(crew, 'crew')}`, verification_status: value % 2 ? 'verified' : 'pending' },
          }),
        );
        break;
      case 2: {
        // doc_<crew>_2 is new: only upserted or deleted (a patch before its upsert would wait, held, for the end of the stream).
        const id = `doc_${crew}_${value % 3}`;
        const v = version(id, 'document');
        out.push(
          next(
            value % 4 === 3
              ? { entity: 'document', op: 'delete', id }
              : value % 2 && value % 3 !== 2
                ? { entity: 'document', op: 'patch', id, data: { title: `title v${v}`, expiry_date: EXPIRIES[value % 4] } }
                : { entity: 'document', op: 'upsert', id, data: document(id, crew, target + value, EXPIRIES[value % 4]!, v) },
          ),
        );
        break;
      }
      case 3: {
        const id = `asg_${crew}_${vessel}`;
        out.push(
          next(
            value % 3 === 2
              ? { entity: 'assignment', op: 'delete', id }
              : { entity: 'assignment', op: 'upsert', id, data: assignment(crew, vessel, value % 3 ? 'on_leave' : 'active') },
          ),
        );
        break;
      }
      case 4: {
        const id = consentId(crew, partner);
        const categories = ['status', 'profile', 'documents', 'compliance'].filter((_, i) => (value >> i) % 2 === 1);
        out.push(
          next(
            value % 5 === 4
              ? { entity: 'consent', op: 'delete', id }
              : { entity: 'consent', op: 'upsert', id, data: { ...id, categories } },
          ),
        );
        break;
      }
      case 5:
        out.push(
          next({
            entity: 'vessel',
            op: 'patch',
            id: vessel,
            data: { flag_state: ['GB', 'PA', 'LR'][target % 3], gross_tonnage: 3000 + 10000 * (target % 4) },
          }),
        );
        break;
      case 6:
        out.push(
          next(
            partner === 'ptn_ext'
              ? {
                  entity: 'partner',
                  op: 'patch',
                  id: partner,
                  data: { contract_vessel_ids: VESSELS.filter((_, i) => (target >> i) % 2 === 1) },
                }
              : { entity: 'partner', op: 'patch', id: partner, data: { tier: ['management', 'basic', 'recruiter', 'vessel'][target % 4] } },
          ),
        );
        break;
      default:
        out.push({ entity: 'crew', op: 'upsert', id: crew, version: 1, data: { name: 'A stale upsert' } });
    }
  }
  for (const crew of erased) out.push(next({ entity: 'crew', op: 'delete', id: crew }));
  return out;
}

interface EntityState {
  version: number;
  record: Record<string, unknown> | null;
}

const crewOf = (c: TestChange, state: EntityState | undefined): string | null => {
  if (c.entity === 'crew') return null;
  if (typeof c.id === 'object') return c.id.crew_unique_id;
  return (c.data?.crew_unique_id ??
    state?.record?.crew_unique_id ??
    (c.entity === 'document' ? c.id.split('_').slice(1, 3).join('_') : null)) as string | null;
};

/**
 * What the stream leaves, as one change per entity it touched: the final record as an upsert, or a
 * delete; parents first, deletes last (a crew member's delete stands for their documents',
 * assignments' and consents'). The model of ingestion this test holds svc to.
 */
export function netEffect(world: readonly TestChange[], delivered: readonly TestChange[]): TestChange[] {
  const state = new Map<string, EntityState>(world.map((c) => [key(c), { version: c.version, record: c.data! }]));
  const touched = new Map<string, TestChange>();
  const erased = new Set<string>();
  for (const c of delivered) {
    const k = key(c);
    const s = state.get(k);
    if (s && c.version <= s.version) continue;
    const crew = crewOf(c, s);
    if (crew && erased.has(crew)) continue;
    if (c.op === 'patch' && !s?.record) continue;
    const record = c.op === 'delete' ? null : c.op === 'patch' ? (mergePatch(s!.record, c.data) as Record<string, unknown>) : { ...c.data };
    state.set(k, { version: c.version, record });
    touched.set(k, c);
    if (c.entity === 'crew' && c.op === 'delete') {
      erased.add(c.id as string);
      for (const [other, o] of state) if (o.record && o.record.crew_unique_id === c.id) state.set(other, { ...o, record: null });
    }
  }
  const out: TestChange[] = [];
  for (const [k, c] of touched) {
    const s = state.get(k)!;
    if (s.record) out.push({ entity: c.entity, op: 'upsert', id: c.id, version: s.version, data: s.record });
    else if (c.entity === 'crew' || !erased.has(crewOf(c, s)!)) out.push({ entity: c.entity, op: 'delete', id: c.id, version: s.version });
  }
  const rank = (c: TestChange) => (c.op === 'delete' ? 100 - WRITE_ORDER.indexOf(c.entity) : WRITE_ORDER.indexOf(c.entity));
  return out.sort((a, b) => rank(a) - rank(b));
}

/** Upserts as a fixture file (docs/fixtures.md): each record under its array, with its id fields. */
export function asFixture(upserts: readonly TestChange[]): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const c of upserts) {
    const section = Object.keys(FIXTURE_SECTIONS).find((k) => FIXTURE_SECTIONS[k as FixtureSection] === c.entity)!;
    const ids = typeof c.id === 'string' ? { [ENTITY_KINDS[c.entity].idFields[0]!]: c.id } : c.id;
    (out[section] ??= []).push({ ...ids, ...c.data });
  }
  return out;
}

/** Changes as ingestion receives them. */
export const incoming = (changes: readonly TestChange[], name: string): Incoming[] =>
  changes.map((c, i) => ({ origin: `${name}:${i + 1}`, text: JSON.stringify(c) }));
