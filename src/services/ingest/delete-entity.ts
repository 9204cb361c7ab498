import { entityKey, type Change } from '../../domain/ingest-change.ts';
import type { Db } from '../../store/database.ts';
import {
  deleteAssignment,
  deleteConsent,
  deleteDocument,
  deleteParent,
  deleteRequirement,
  dependents,
  eraseCrew,
} from '../../store/repositories/ingest-entities-repo.ts';
import { dropHeldAbout, tombstoneVersions, type EntityRef } from '../../store/repositories/ingest-repo.ts';

/** What a delete did: refused (why), or done, with the other entities it took with it. */
export type Deleted = { refused: string } | { gone: EntityRef[] };

/**
 * Deletes one entity (docs/ingest.md, "Deletes and erasure"). A crew member is erased with
 * everything about them; a document, an assignment, a consent (every category given to the
 * partner) or a requirement goes alone; an employer, a vessel or a partner only once nothing
 * refers to it any more. No event is sent for a delete itself; what it changes for partners (a
 * crew member leaving a fleet, a compliance status) follows through the next sync.
 */
export async function deleteEntity(trx: Db, change: Change, at: string): Promise<Deleted> {
  const id = entityKey(change.id);
  switch (change.entity) {
    case 'crew': {
      // Their held changes first, so that none keeps their files (deleteUnusedFiles).
      await dropHeldAbout(trx, id);
      const erased = await eraseCrew(trx, id);
      const gone: EntityRef[] = [
        ...erased.documentIds.map((entityId) => ({ entity: 'document', entityId })),
        ...erased.assignmentIds.map((entityId) => ({ entity: 'assignment', entityId })),
        ...erased.consentPartnerIds.map((p) => ({ entity: 'consent', entityId: `${id}|${p}` })),
      ];
      await tombstoneVersions(trx, gone, at);
      return { gone };
    }
    case 'document':
      await deleteDocument(trx, id);
      return { gone: [] };
    case 'assignment':
      await deleteAssignment(trx, id);
      return { gone: [] };
    case 'consent': {
      const { crew_unique_id, partner_id } = change.id as { crew_unique_id: string; partner_id: string };
      await deleteConsent(trx, crew_unique_id, partner_id);
      return { gone: [] };
    }
    case 'requirement':
      await deleteRequirement(trx, id);
      return { gone: [] };
    default: {
      const still = await dependents(trx, change.entity, id);
      if (still.length > 0)
        return { refused: `${change.entity} ${id} is still referred to by ${still.join(', ')}: delete or move them first` };
      await deleteParent(trx, change.entity, id);
      return { gone: [] };
    }
  }
}
