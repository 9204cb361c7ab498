import type { CrewSignals } from '../../domain/crew.ts';
import type { Db } from '../database.ts';

/** The status and profile-change fields of several crew members (what events carry). */
export async function crewSignals(db: Db, crewIds: readonly string[]): Promise<Map<string, CrewSignals>> {
  const out = new Map<string, CrewSignals>();
  for (let i = 0; i < crewIds.length; i += 2000) {
    const rows = await db.selectFrom('crew')
      .select(['crew_unique_id', 'verification_status', 'background_check_status', 'profile_updated_at'])
      .where('crew_unique_id', 'in', crewIds.slice(i, i + 2000)).execute();
    for (const r of rows) {
      out.set(r.crew_unique_id, {
        crewUniqueId: r.crew_unique_id, verificationStatus: r.verification_status,
        backgroundCheckStatus: r.background_check_status, profileUpdatedAt: r.profile_updated_at,
      });
    }
  }
  return out;
}
