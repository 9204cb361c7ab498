// The changes bench:ingest feeds `svc ingest` with, and the same records as rows for the bare
// INSERT it is compared with. Records are the demo's (fixtures/demo.json) with new ids, so every
// change is one svc accepts; lines are generated as they are read, never held as an array.
import { readFileSync } from 'node:fs';
import type { Insertable } from 'kysely';
import { crewRow, documentRow } from '../../src/services/fixtures/to-rows.ts';
import type { CrewFixture, DocumentFixture } from '../../src/services/fixtures/schema.ts';
import type { CrewTable, DocumentsTable } from '../../src/store/database.ts';

export const DOCS_PER_CREW = 10;
export const EMPLOYER = 'bench_emp';
export const PARTNER = 'bench_ptn';

const demo = JSON.parse(readFileSync('fixtures/demo.json', 'utf8')) as { crew: CrewFixture[]; documents: DocumentFixture[] };
const CREW_TEMPLATE: Record<string, unknown> = { ...demo.crew[0]!, photo: undefined, profile_updated_at: undefined };
/** Ten documents of one demo crew member, without their files (a file is read and hashed, which is not what this measures). */
const DOC_TEMPLATES = demo.documents
  .filter((d) => d.crew_unique_id === demo.crew[0]!.crew_unique_id)
  .slice(0, DOCS_PER_CREW)
  .map((d) => ({ ...d, file: undefined }));
if (DOC_TEMPLATES.length < DOCS_PER_CREW) throw new Error(`the demo's first crew member has fewer than ${DOCS_PER_CREW} documents`);

export const crewId = (i: number) => `bench_crew_${String(i).padStart(7, '0')}`;
const vesselId = (v: number) => `bench_ves_${String(v).padStart(4, '0')}`;
export const vesselsFor = (crew: number) => Math.max(1, Math.round(crew / 500));

export function crewRecord(i: number, bio = `Seafarer ${i}, from the bench.`): CrewFixture {
  return JSON.parse(JSON.stringify({ ...CREW_TEMPLATE, crew_unique_id: crewId(i), email: `crew.${i}@bench.example`, bio })) as CrewFixture;
}

export function documentRecord(i: number, k: number): DocumentFixture {
  const d = DOC_TEMPLATES[k]!;
  return JSON.parse(
    JSON.stringify({ ...d, document_id: `${crewId(i)}_d${k}`, crew_unique_id: crewId(i), superseded_by: null }),
  ) as DocumentFixture;
}

const line = (entity: string, op: string, id: unknown, version: number, data?: unknown) =>
  `${JSON.stringify({ entity, op, id, version, ...(data ? { data } : {}) })}\n`;

/** What the crew's changes refer to: an employer, its vessels, a customer partner on it. Not timed. */
export function* parentLines(crew: number): Generator<string> {
  yield line('employer', 'upsert', EMPLOYER, 1, { name: 'Bench Shipmanagement' });
  for (let v = 0; v < vesselsFor(crew); v++) {
    yield line('vessel', 'upsert', vesselId(v), 1, {
      employer_id: EMPLOYER,
      vessel_name: `Bench ${v}`,
      imo: null,
      mmsi: null,
      flag_state: 'MT',
      vessel_type: 'bulk_carrier',
      gross_tonnage: 40000,
      propulsion_kw: 9000,
    });
  }
  yield line('partner', 'upsert', PARTNER, 1, { name: 'Bench Personnel', kind: 'customer', employer_id: EMPLOYER, tier: 'management' });
}

/** Each crew member, then their documents: 1 + DOCS_PER_CREW upserts a crew member. */
export function* crewLines(crew: number): Generator<string> {
  for (let i = 0; i < crew; i++) {
    let chunk = line('crew', 'upsert', crewId(i), 1, crewRecord(i));
    for (let k = 0; k < DOCS_PER_CREW; k++) chunk += line('document', 'upsert', documentRecord(i, k).document_id, 1, documentRecord(i, k));
    yield chunk;
  }
}

/** An assignment to one of the partner's vessels and the four consents, so a sync has pairs to diff. */
export function* fleetLines(crew: number): Generator<string> {
  const vessels = vesselsFor(crew);
  for (let i = 0; i < crew; i++) {
    yield (
      line('assignment', 'upsert', `asg_${crewId(i)}`, 1, {
        crew_unique_id: crewId(i),
        vessel_id: vesselId(i % vessels),
        role: 'master',
        status: 'active',
        as_of: '2026-09-01T08:00:00Z',
      }) +
      line('consent', 'upsert', { crew_unique_id: crewId(i), partner_id: PARTNER }, 1, {
        categories: ['status', 'profile', 'documents', 'compliance'],
      })
    );
  }
}

/** `count` crew members spread over the first `crew`, for the patch and upsert rounds. */
export const spread = (crew: number, count: number) =>
  Array.from({ length: Math.min(crew, count) }, (_, j) => Math.floor((j * crew) / Math.min(crew, count)));

/** One field (bio) changed per change: a merge patch of it, or the whole record again. */
export function* bioLines(ids: readonly number[], op: 'patch' | 'upsert', version: number): Generator<string> {
  for (const i of ids) {
    const bio = `Seafarer ${i}, bio of version ${version}.`;
    yield line('crew', op, crewId(i), version, op === 'patch' ? { bio } : crewRecord(i, bio));
  }
}

/** The rows `crewLines` makes, for the bare INSERT: crew rows and document rows of crew [from, to). */
export function crewRows(
  from: number,
  to: number,
  now: string,
): { crew: Insertable<CrewTable>[]; documents: Insertable<DocumentsTable>[] } {
  const crew: Insertable<CrewTable>[] = [];
  const documents: Insertable<DocumentsTable>[] = [];
  for (let i = from; i < to; i++) {
    crew.push({ ...crewRow(crewRecord(i), null), profile_updated_at: now, updated_at: now });
    for (let k = 0; k < DOCS_PER_CREW; k++) documents.push(documentRow(documentRecord(i, k), null, now));
  }
  return { crew, documents };
}
