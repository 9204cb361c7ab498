import type { CrewSignals } from '../../domain/crew.ts';
import type { Db } from '../database.ts';

/** The status and profile-change fields of several crew members (what events carry). */
export async function crewSignals(db: Db, crewIds: readonly string[]): Promise<Map<string, CrewSignals>> {
  const out = new Map<string, CrewSignals>();
  for (let start = 0; start < crewIds.length; start += 2000) {
    const rows = await db
      .selectFrom('crew')
      .select(['crew_unique_id', 'verification_status', 'background_check_status', 'profile_updated_at'])
      .where('crew_unique_id', 'in', crewIds.slice(start, start + 2000))
      .execute();
    for (const row of rows) {
      out.set(row.crew_unique_id, {
        crewUniqueId: row.crew_unique_id,
        verificationStatus: row.verification_status,
        backgroundCheckStatus: row.background_check_status,
        profileUpdatedAt: row.profile_updated_at,
      });
    }
  }
  return out;
}
