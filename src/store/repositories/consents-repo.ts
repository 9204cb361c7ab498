import type { ConsentCategory } from '../../domain/vocabulary.ts';
import type { Db } from '../database.ts';
import { inIdSet } from './id-set.ts';

/** Consent categories each of `crewIds` gives `partnerId`; crew with none are absent from the map. */
export async function consentsFor(db: Db, partnerId: string, crewIds: readonly string[]): Promise<Map<string, Set<ConsentCategory>>> {
  return (await consentsForPartners(db, [partnerId], crewIds)).get(partnerId)!;
}

export async function hasConsent(db: Db, partnerId: string, crewUniqueId: string, category: ConsentCategory): Promise<boolean> {
  const row = await db
    .selectFrom('consents')
    .select('category')
    .where('partner_id', '=', partnerId)
    .where('crew_unique_id', '=', crewUniqueId)
    .where('category', '=', category)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Consents of several crew members to several partners: partner → crew → categories. Each set is
 * bound as one parameter (inIdSet, src/store/repositories/id-set.ts), the crew 2,000 at a time.
 */
export async function consentsForPartners(
  db: Db,
  partnerIds: readonly string[],
  crewIds: readonly string[],
): Promise<Map<string, Map<string, Set<ConsentCategory>>>> {
  const out = new Map<string, Map<string, Set<ConsentCategory>>>(partnerIds.map((p) => [p, new Map()]));
  if (partnerIds.length === 0) return out;
  for (let start = 0; start < crewIds.length; start += 2000) {
    const rows = await db
      .selectFrom('consents')
      .select(['partner_id', 'crew_unique_id', 'category'])
      .where(inIdSet(db, 'partner_id', partnerIds))
      .where(inIdSet(db, 'crew_unique_id', crewIds.slice(start, start + 2000)))
      .execute();
    for (const row of rows) {
      const byCrew = out.get(row.partner_id)!;
      if (!byCrew.has(row.crew_unique_id)) byCrew.set(row.crew_unique_id, new Set());
      byCrew.get(row.crew_unique_id)!.add(row.category);
    }
  }
  return out;
}
