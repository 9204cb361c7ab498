import { AppError } from '../../domain/app-error.ts';
import { fleetOf, type FleetRef } from '../../domain/partner.ts';
import { insufficientScope, missingScope, type ScopeRule } from '../../domain/scopes.ts';
import type { ConsentCategory } from '../../domain/vocabulary.ts';
import type { Db } from '../../store/database.ts';
import { crewAccessOnFleet, crewCheckOnFleet, type CrewAccess } from '../../store/repositories/crew-on-fleet-repo.ts';
import type { EvaluationDocumentWithFile } from '../../store/repositories/documents-repo.ts';
import type { PartnerContext } from './partner-context.ts';

export type { CrewAccess };

/** Whose access is asked: the partner's fleet (of the key's mode), the crew member, and the partner the consents are given to. */
export interface CrewAccessQuery {
  fleet: FleetRef;
  crewUniqueId: string;
  partnerId: string;
}

/** Reads a crew member's assignments on a fleet and consents to a partner: the store's read, or the read cache's. */
export type ReadCrewAccess = (query: CrewAccessQuery) => Promise<CrewAccess>;

/** The store's read, in one round trip. */
export function storeCrewAccess(db: Db): ReadCrewAccess {
  return (q) => crewAccessOnFleet(db, q.fleet, q.crewUniqueId, q.partnerId);
}

/** A compliance check's CrewAccess, with the crew member's evaluation documents when they were read in the same statement. */
export type CheckAccess = CrewAccess & { documents?: EvaluationDocumentWithFile[] };

/** Reads a compliance check's CheckAccess: the store's read, or the read cache's. */
export type ReadCheckAccess = (query: CrewAccessQuery) => Promise<CheckAccess>;

/** The store's read of a check, the documents included, in one round trip. */
export function storeCheckAccess(db: Db): ReadCheckAccess {
  return (q) => crewCheckOnFleet(db, q.fleet, q.crewUniqueId, q.partnerId);
}

/** Throws insufficient_scope (403) naming the missing scope, unless the partner's scopes satisfy `rule`. */
export function requireScopes(ctx: PartnerContext, rule: ScopeRule): void {
  const missing = missingScope(rule, ctx.scopes);
  if (missing) throw insufficientScope(missing);
}

/**
 * The crew member's assignments on the partner's fleet (newest first) and consents to the partner,
 * through `read`. Crew not on the fleet, including another partner's crew and crew of the other
 * mode, are crew_not_found (404): never a leak. Then consent_required (403) naming `category`,
 * unless the crew member gives it.
 */
export async function requireCrewAccess<A extends CrewAccess>(
  read: (query: CrewAccessQuery) => Promise<A>,
  ctx: PartnerContext,
  crewUniqueId: string,
  category: ConsentCategory,
): Promise<A> {
  const access = await read({ fleet: fleetOf(ctx.partner, ctx.mode), crewUniqueId, partnerId: ctx.partner.partnerId });
  requireGranted(access.assignments.length > 0, access.consents, crewUniqueId, category);
  return access;
}

/** requireCrewAccess's rule, given whether the crew member is on the fleet and the consents they give. */
export function requireGranted(
  onFleet: boolean,
  consents: ReadonlySet<ConsentCategory>,
  crewUniqueId: string,
  category: ConsentCategory,
): void {
  if (!onFleet) throw new AppError('crew_not_found', `no crew member ${crewUniqueId} on your fleet`);
  if (!consents.has(category)) {
    throw new AppError('consent_required', `the crew member has not consented to share ${category} data with you`, {
      extra: { consent: category },
    });
  }
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
  await requireCrewAccess(storeCrewAccess(db), ctx, crewUniqueId, category);
  return pending;
}
