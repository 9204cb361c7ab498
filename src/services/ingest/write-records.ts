import type { IngestEntity } from '../../domain/ingest-change.ts';
import type { ConsentCategory } from '../../domain/vocabulary.ts';
import type { Selectable } from 'kysely';
import type { CrewTable, Db } from '../../store/database.ts';
import {
  replaceConsents,
  replaceContractVessels,
  upsertAssignments,
  upsertCatalogue,
  upsertCrewKeepingTimes,
  upsertDocuments,
  upsertEmployers,
  upsertPartners,
  upsertVessels,
} from '../../store/repositories/reference-data-repo.ts';
import { catalogueOrder } from '../../store/repositories/ingest-entities-repo.ts';
import { assignmentRow, crewRow, documentRow, partnerRow, vesselRow } from '../fixtures/to-rows.ts';
import type { Infer } from 'superstruct';
import type { RequirementDefinition } from '../../domain/catalogue.ts';
import type { CrewFixture, DocumentFixture, EmployerFixture, FixtureFile, PartnerFixture } from '../fixtures/schema.ts';

/** Columns whose change is a status change, not a profile change (profile_updated_at stays). */
const STATUS_COLUMNS: ReadonlySet<string> = new Set(['verification_status', 'background_check_status']);

/** The order records are written in, parents first, so every reference is in place when its row is written. */
export const WRITE_ORDER: readonly IngestEntity[] = [
  'employer',
  'vessel',
  'partner',
  'crew',
  'assignment',
  'consent',
  'document',
  'requirement',
];

/** Records as their entity's struct checked them (ENTITY_KINDS in ./entities.ts), each of the type it infers. */
type Records = ReadonlyArray<Record<string, unknown>>;
type Checked<T> = readonly T[];
type DocumentRecord = DocumentFixture & { file_sha256?: string | null };
type CrewRecord = CrewFixture & { photo_sha256?: string | null };
type ConsentRecord = { crew_unique_id: string; partner_id: string; categories: ConsentCategory[] };

/** A record's file as resolved: `file_sha256`/`photo_sha256` are the stored file's id. */
const fileOf = (d: DocumentRecord) => (d.file_sha256 ? { fileId: d.file_sha256, name: d.file_name ?? d.document_id } : null);

/**
 * Writes valid records of one entity as rows, as the fixture loader always has: an upsert of
 * unchanged data changes nothing (stored times kept), so it causes no change capture and no event.
 * `crewRows`: crew records' stored rows, read beforehand as upsertCrewKeepingTimes takes them.
 */
export async function writeRecords(
  db: Db,
  entity: IngestEntity,
  records: Records,
  now: string,
  crewRows?: ReadonlyMap<string, Selectable<CrewTable>>,
): Promise<void> {
  if (records.length === 0) return;
  switch (entity) {
    case 'employer':
      return upsertEmployers(
        db,
        (records as Checked<Infer<typeof EmployerFixture>>).map((r) => ({ employer_id: r.employer_id, name: r.name })),
      );
    case 'vessel':
      return upsertVessels(
        db,
        (records as Checked<NonNullable<FixtureFile['vessels']>[number]>).map((r) => vesselRow(r)),
      );
    case 'partner': {
      const partners = records as Checked<PartnerFixture>;
      await upsertPartners(
        db,
        partners.map((r) => partnerRow(r, now)),
      );
      for (const p of partners) if (p.kind === 'external') await replaceContractVessels(db, p.partner_id, p.contract_vessel_ids ?? []);
      return;
    }
    case 'crew':
      return upsertCrewKeepingTimes(
        db,
        (records as Checked<CrewRecord>).map((c) => ({
          row: crewRow(c, c.photo_sha256 ?? null),
          profileUpdatedAt: c.profile_updated_at,
        })),
        now,
        STATUS_COLUMNS,
        crewRows,
      );
    case 'assignment':
      return upsertAssignments(
        db,
        (records as Checked<NonNullable<FixtureFile['assignments']>[number]>).map((r) => assignmentRow(r)),
      );
    case 'consent':
      for (const c of records as Checked<ConsentRecord>) await replaceConsents(db, c.crew_unique_id, c.partner_id, c.categories);
      return;
    case 'document': {
      const rows = (records as Checked<DocumentRecord>).map((d) => ({ d, row: documentRow(d, fileOf(d), now) }));
      await upsertDocuments(
        db,
        rows.filter((x) => x.d.updated_at !== undefined).map((x) => x.row),
        false,
      );
      await upsertDocuments(
        db,
        rows.filter((x) => x.d.updated_at === undefined).map((x) => x.row),
        true,
      );
      return;
    }
    case 'requirement': {
      const requirements = records as Checked<RequirementDefinition>;
      const positions = await catalogueOrder(
        db,
        requirements.map((r) => r.key),
      );
      return upsertCatalogue(
        db,
        requirements.map((r) => ({
          requirement_key: r.key,
          position: positions.get(r.key)!,
          definition: JSON.stringify(r),
        })),
      );
    }
  }
}
