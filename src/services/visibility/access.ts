import { AppError } from '../../domain/app-error.ts';
import type { CrewAssignment } from '../../domain/fleet.ts';
import { fleetOf } from '../../domain/partner.ts';
import { insufficientScope, missingScope, type ScopeRule } from '../../domain/scopes.ts';
import type { ConsentCategory } from '../../domain/vocabulary.ts';
import type { Db } from '../../store/database.ts';
import { hasConsent } from '../../store/repositories/consents-repo.ts';
import { crewAssignmentsOnFleet } from '../../store/repositories/fleet-repo.ts';
import type { PartnerContext } from './partner-context.ts';

/** Throws insufficient_scope (403) naming the missing scope, unless the partner's scopes satisfy `rule`. */
export function requireScopes(ctx: PartnerContext, rule: ScopeRule): void {
  const missing = missingScope(rule, ctx.scopes);
  if (missing) throw insufficientScope(missing);
}

/**
 * The crew member's assignments on the partner's fleet (newest first). Crew not on the fleet,
 * including another partner's crew and crew of the other mode, are crew_not_found: never a leak.
 */
export async function requireCrewOnFleet(db: Db, ctx: PartnerContext, crewUniqueId: string): Promise<CrewAssignment[]> {
  const assignments = await crewAssignmentsOnFleet(db, fleetOf(ctx.partner, ctx.mode), crewUniqueId);
  if (assignments.length === 0) throw new AppError('crew_not_found', `no crew member ${crewUniqueId} on your fleet`);
  return assignments;
}

/** Throws consent_required (403) naming the category, unless the crew member consents. */
export async function requireConsent(db: Db, ctx: PartnerContext, crewUniqueId: string, category: ConsentCategory): Promise<void> {
  if (await hasConsent(db, ctx.partner.partnerId, crewUniqueId, category)) return;
  throw new AppError('consent_required', `the crew member has not consented to share ${category} data with you`, {
    extra: { consent: category },
  });
}
