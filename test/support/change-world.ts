import type { Insertable } from 'kysely';
import { completeClassification } from '../../src/domain/classification.ts';
import { CatalogueCache } from '../../src/services/compliance/catalogue-cache.ts';
import { EVENT_TYPES } from '../../src/domain/vocabulary.ts';
import { loadFixtures } from '../../src/services/fixtures/load-fixtures.ts';
import type { Db, DocumentsTable } from '../../src/store/database.ts';
import { insertEndpoint } from '../../src/store/repositories/webhook-endpoints-repo.ts';
import { runDiff, type DiffDeps } from '../../src/sync/diff/run-diff.ts';
import { writeFixture } from './mini-fixture.ts';

/**
 * A small fleet for comparing incremental sync with a full re-diff: two employers' vessels, three
 * customer partners (management, basic, an overrides partner) and one external partner on a
 * contract vessel, six crew with documents that expire around the start date.
 */
export const CREW = ['crew_1', 'crew_2', 'crew_3', 'crew_4', 'crew_5', 'crew_6'] as const;
export const PARTNERS = ['ptn_mgmt', 'ptn_basic', 'ptn_over', 'ptn_ext'] as const;
export const VESSELS = ['ves_a', 'ves_b', 'ves_x'] as const;
export const START = '2026-11-22T10:00:00.000Z';

/** Category codes with their class; flag endorsements and CoCs carry a flag. */
export const CODES = [
  ['medical_fitness', 'medical'],
  ['drug_alcohol_test', 'medical'],
  ['security_awareness', 'training'],
  ['bst', 'training'],
  ['coc', 'coc'],
  ['flag_endorsement', 'endorsement'],
  ['tanker_basic', 'training'],
  ['passport', 'identity'],
] as const;

const ROLES = ['master', 'chief_engineer', 'bosun', 'cook', 'able_seafarer_deck', 'master'];

export function addDays(iso: string, days: number): string {
  return new Date(Date.parse(iso) + days * 86_400_000).toISOString();
}

/** A document row as a platform would write it with plain SQL. */
export function documentRow(id: string, crew: string, code: number, expiry: string | null, at: string): Insertable<DocumentsTable> {
  const [category, documentClass] = CODES[code % CODES.length]!;
  const flag = category === 'coc' ? 'PA' : category === 'flag_endorsement' ? 'GB' : null;
  const capacities =
    category === 'coc'
      ? [
          {
            stcw_regulation: null,
            role: 'master',
            level: null,
            gt_max: null,
            kw_max: null,
            power_unrestricted: false,
            area: 'unlimited',
            vessel_types: [],
          },
        ]
      : [];
  const classification = completeClassification(
    {
      document_class: documentClass,
      category_code: category,
      flag_state: flag,
      coc_capacities: capacities,
      stcw_codes: category === 'bst' ? ['A-VI/1-1', 'A-VI/1-2', 'A-VI/1-3', 'A-VI/1-4'] : [],
    },
    `${category} ${id}`,
  );
  return {
    document_id: id,
    crew_unique_id: crew,
    type: documentClass,
    category: documentClass,
    title: `${category} ${id}`,
    issuer: null,
    verification_status: 'verified',
    review_status: 'approved',
    issue_date: '2024-01-01',
    expiry_date: expiry,
    no_expiry: expiry === null ? 1 : 0,
    document_number: null,
    processing_state: 'processed',
    is_current: 1,
    is_live: 1,
    superseded_by: null,
    document_class: documentClass,
    classification: JSON.stringify(classification),
    file_id: null,
    file_name: null,
    processed_at: at,
    updated_at: at,
  };
}

export function baseFixture(): Record<string, unknown> {
  return {
    employers: [
      { employer_id: 'emp_a', name: 'Alpha' },
      { employer_id: 'emp_x', name: 'Xeno' },
    ],
    partners: [
      { partner_id: 'ptn_mgmt', name: 'Mgmt', kind: 'customer', employer_id: 'emp_a', tier: 'management' },
      { partner_id: 'ptn_basic', name: 'Basic', kind: 'customer', employer_id: 'emp_a', tier: 'basic' },
      {
        partner_id: 'ptn_over',
        name: 'Over',
        kind: 'customer',
        employer_id: 'emp_a',
        tier: 'recruiter',
        scope_overrides: ['crew:documents:read', 'crew:status:subscribe'],
      },
      {
        partner_id: 'ptn_ext',
        name: 'External',
        kind: 'external',
        contract_scopes: ['crew:compliance:read', 'crew:documents:read', 'crew:medical:read'],
        contract_vessel_ids: ['ves_x'],
      },
    ],
    vessels: [
      {
        vessel_id: 'ves_a',
        employer_id: 'emp_a',
        vessel_name: 'A',
        imo: '9074729',
        mmsi: '235000001',
        flag_state: 'GB',
        vessel_type: 'bulk_carrier',
        gross_tonnage: 30000,
        propulsion_kw: 9000,
      },
      {
        vessel_id: 'ves_b',
        employer_id: 'emp_a',
        vessel_name: 'B',
        imo: '9176187',
        mmsi: '235000002',
        flag_state: 'PA',
        vessel_type: 'oil_tanker',
        gross_tonnage: 60000,
        propulsion_kw: 12000,
      },
      {
        vessel_id: 'ves_x',
        employer_id: 'emp_x',
        vessel_name: 'X',
        imo: '9334076',
        mmsi: '636000003',
        flag_state: 'LR',
        vessel_type: 'bulk_carrier',
        gross_tonnage: 20000,
        propulsion_kw: 7000,
      },
    ],
    crew: CREW.map((id) => ({ crew_unique_id: id, name: `Crew ${id}` })),
    assignments: CREW.map((id, i) => ({
      crew_unique_id: id,
      vessel_id: VESSELS[i % 3]!,
      role: ROLES[i]!,
      status: 'active',
      as_of: '2026-10-01T00:00:00Z',
    })),
    consents: CREW.flatMap((id, i) =>
      PARTNERS.filter((_, k) => (i + k) % 3 !== 0).map((p) => ({
        crew_unique_id: id,
        partner_id: p,
        categories: ['status', 'profile', 'documents', 'compliance'],
      })),
    ),
  };
}

/** Loads the catalogue, the fleet, documents near the start date and an endpoint per partner. */
export async function seedWorld(db: Db): Promise<void> {
  await loadFixtures(db, ['data/requirements.json', writeFixture(baseFixture())], () => new Date(START));
  const docs = CREW.flatMap((crew, i) =>
    CODES.map((_, k) =>
      documentRow(`doc_${crew}_${k}`, crew, k, k === 7 ? null : addDays(START, 20 + 30 * ((i + k) % 6) - 60).slice(0, 10), START),
    ),
  );
  await db.insertInto('documents').values(docs).execute();
  for (const p of PARTNERS) {
    await insertEndpoint(db, {
      endpointId: `whe_${p}`,
      partnerId: p,
      url: 'https://receiver.invalid/hook',
      subscribedEvents: [...EVENT_TYPES],
      secret: 'whsec_x',
      status: 'active',
      createdAt: START,
      updatedAt: START,
    });
  }
}

export function diffDeps(now: () => Date, over: Partial<DiffDeps> = {}): DiffDeps {
  return { clock: now, catalogue: new CatalogueCache(now, 0), windowDays: 90, pageSize: 2, changeChunk: 3, ...over };
}

/** An event reduced to what a partner would notice: partner, type, crew member, payload. */
export type EventKey = string;

/** The events a dry run with `over` plans now (nothing written), one entry per planned event. */
export async function plannedEvents(db: Db, now: () => Date, over: Partial<DiffDeps> = {}): Promise<EventKey[]> {
  const { results } = await runDiff(db, diffDeps(now, { ...over, dryRun: true }));
  return results.flatMap((r) => (r.planned ?? []).map((e) => JSON.stringify([r.partnerId, e.type, e.crewUniqueId, e.data]))).sort();
}

/** The events a full re-diff would create now (a dry run: nothing written). */
export function fullDiffEvents(db: Db, now: () => Date): Promise<EventKey[]> {
  return plannedEvents(db, now, { full: true });
}

/** Runs the incremental diff for real; the events it wrote, and whether any partner took a full pass. */
export async function incrementalRun(
  db: Db,
  now: () => Date,
  over: Partial<DiffDeps> = {},
): Promise<{ events: EventKey[]; full: boolean }> {
  const before = new Set((await db.selectFrom('outbox_events').select('event_id').execute()).map((r) => r.event_id));
  const { results } = await runDiff(db, diffDeps(now, over));
  const rows = await db.selectFrom('outbox_events').select(['event_id', 'body']).execute();
  const events = rows
    .filter((r) => !before.has(r.event_id))
    .map((r) => {
      const b = JSON.parse(r.body);
      return JSON.stringify([b.partner_id, b.event_type, b.data.crew_unique_id, b.data]);
    })
    .sort();
  return { events, full: results.some((r) => r.full) };
}

/** Every event the outbox holds as a partner would notice it, one entry per row (an event written twice shows twice). */
export async function outboxEvents(db: Db): Promise<EventKey[]> {
  const rows = await db.selectFrom('outbox_events').select('body').execute();
  return rows
    .map(({ body }) => {
      const b = JSON.parse(body);
      return JSON.stringify([b.partner_id, b.event_type, b.data.crew_unique_id, b.data]);
    })
    .sort();
}

/** Document ids each (partner, crew member) pair was sent, by `partner|crew`, as the snapshots hold them; absent: documents not shown to the pair. */
export async function sentDocuments(db: Db): Promise<Map<string, Set<string>>> {
  const rows = await db.selectFrom('sync_snapshots').select(['partner_id', 'crew_unique_id', 'state']).execute();
  const out = new Map<string, Set<string>>();
  for (const row of rows) {
    const docs = (JSON.parse(row.state) as { docs?: Record<string, string> }).docs;
    if (docs) out.set(`${row.partner_id}|${row.crew_unique_id}`, new Set(Object.keys(docs)));
  }
  return out;
}
