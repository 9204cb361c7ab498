import type { IngestEntity } from '../../domain/ingest-change.ts';
import type { ConsentCategory } from '../../domain/vocabulary.ts';
import type { Db } from '../../store/database.ts';
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
import type { CrewFixture, DocumentFixture, FixtureFile, PartnerFixture } from '../fixtures/schema.ts';

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

type Records = ReadonlyArray<Record<string, any>>;

/** A record's file as resolved: `file_sha256`/`photo_sha256` are the stored file's id. */
const fileOf = (d: Record<string, any>) =>
  d.file_sha256 ? { fileId: d.file_sha256 as string, name: (d.file_name as string | undefined) ?? `${d.document_id}` } : null;

/**
 * Writes valid records of one entity as rows, as the fixture loader always has: an upsert of
 * unchanged data changes nothing (stored times kept), so it causes no change capture and no event.
 */
export async function writeRecords(db: Db, entity: IngestEntity, records: Records, now: string): Promise<void> {
  if (records.length === 0) return;
  switch (entity) {
    case 'employer':
      return upsertEmployers(
        db,
        records.map((r) => ({ employer_id: r.employer_id, name: r.name })),
      );
    case 'vessel':
      return upsertVessels(
        db,
        records.map((r) => vesselRow(r as NonNullable<FixtureFile['vessels']>[number])),
      );
    case 'partner':
      await upsertPartners(
        db,
        records.map((r) => partnerRow(r as PartnerFixture, now)),
      );
      for (const p of records) if (p.kind === 'external') await replaceContractVessels(db, p.partner_id, p.contract_vessel_ids ?? []);
      return;
    case 'crew':
      return upsertCrewKeepingTimes(
        db,
        records.map((c) => ({
          row: crewRow(c as CrewFixture, (c.photo_sha256 as string | undefined) ?? null),
          profileUpdatedAt: c.profile_updated_at,
        })),
        now,
        STATUS_COLUMNS,
      );
    case 'assignment':
      return upsertAssignments(
        db,
        records.map((r) => assignmentRow(r as NonNullable<FixtureFile['assignments']>[number])),
      );
    case 'consent':
      for (const c of records) await replaceConsents(db, c.crew_unique_id, c.partner_id, c.categories as ConsentCategory[]);
      return;
    case 'document': {
      const rows = records.map((d) => ({ d, row: documentRow(d as DocumentFixture, fileOf(d), now) }));
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
      const positions = await catalogueOrder(
        db,
        records.map((r) => r.key as string),
      );
      return upsertCatalogue(
        db,
        records.map((r) => ({
          requirement_key: r.key,
          position: positions.get(r.key)!,
          definition: JSON.stringify(r),
        })),
      );
    }
  }
}
