import { AppError } from '../../domain/app-error.ts';
import { fleetOf } from '../../domain/partner.ts';
import { insufficientScope, missingScope, type ScopeRule } from '../../domain/scopes.ts';
import type { ConsentCategory } from '../../domain/vocabulary.ts';
import type { Db } from '../../store/database.ts';
import { crewAccessOnFleet, type CrewAccess } from '../../store/repositories/fleet-repo.ts';
import type { AtVersion } from '../plumbing/versioned-cache.ts';
import type { PartnerContext } from './partner-context.ts';

export type { CrewAccess };

/**
 * Fleet-and-consent answers reused while the data version holds: `version` is the data version
 * read for this call (before the answer), null when the store cannot give one safely (the store is
 * then asked). Everything the answer reads (assignments, vessels, contract vessels, consents) is
 * recorded by change capture, so a write to any of it moves the version.
 */
export type AccessReuse = AtVersion<CrewAccess>;

function crewAccess(db: Db, ctx: PartnerContext, crewUniqueId: string, reuse?: AccessReuse): Promise<CrewAccess> {
  const fleet = fleetOf(ctx.partner, ctx.mode);
  const read = () => crewAccessOnFleet(db, fleet, crewUniqueId, ctx.partner.partnerId);
  return reuse ? reuse.cache.obtain(reuse.version, JSON.stringify([fleet, crewUniqueId, ctx.partner.partnerId]), read) : read();
}

/** Throws insufficient_scope (403) naming the missing scope, unless the partner's scopes satisfy `rule`. */
export function requireScopes(ctx: PartnerContext, rule: ScopeRule): void {
  const missing = missingScope(rule, ctx.scopes);
  if (missing) throw insufficientScope(missing);
}

/**
 * The crew member's assignments on the partner's fleet (newest first) and consents to the partner,
 * in one round trip (none when `reuse` holds the answer for the call's data version). Crew not on the fleet, including another partner's crew and crew of the other
 * mode, are crew_not_found (404): never a leak. Then consent_required (403) naming `category`,
 * unless the crew member gives it.
 */
export async function requireCrewAccess(
  db: Db,
  ctx: PartnerContext,
  crewUniqueId: string,
  category: ConsentCategory,
  reuse?: AccessReuse,
): Promise<CrewAccess> {
  const access = await crewAccess(db, ctx, crewUniqueId, reuse);
  if (access.assignments.length === 0) throw new AppError('crew_not_found', `no crew member ${crewUniqueId} on your fleet`);
  if (!access.consents.has(category)) {
    throw new AppError('consent_required', `the crew member has not consented to share ${category} data with you`, {
      extra: { consent: category },
    });
  }
  return access;
}

/**
 * requireCrewAccess with `read` run beside it (one round trip of waiting instead of two); what
 * `read` returns is handed out only once access is granted, and its failure counts only then.
 */
export async function readWithCrewAccess<T>(
  db: Db,
  ctx: PartnerContext,
  crewUniqueId: string,
  category: ConsentCategory,
  read: () => Promise<T>,
): Promise<T> {
  const pending = read();
  pending.catch(() => {}); // awaited below once access is granted; refused access wins over its failure
  await requireCrewAccess(db, ctx, crewUniqueId, category);
  return pending;
}
