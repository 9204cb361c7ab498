import { AppError } from '../../domain/app-error.ts';
import { addDays } from '../../domain/compliance/dates.ts';
import type { OverallStatus } from '../../domain/compliance/index.ts';
import { fleetOf, type Partner } from '../../domain/partner.ts';
import { effectiveScopes } from '../../domain/scopes.ts';
import type { Db } from '../../store/database.ts';
import { complianceRosterPage, isFleetVessel, type RosterKey } from '../../store/repositories/compliance-roster-repo.ts';
import { existingIds } from '../../store/repositories/ids-repo.ts';
import { findPartner } from '../../store/repositories/partners-repo.ts';
import type { CatalogueCache } from './catalogue-cache.ts';
import { evaluateRoster } from './evaluate-roster.ts';

/** One crew member whose overall status the calendar changes within the forecast window. */
export interface ForecastEntry {
  on: string;
  crewUniqueId: string;
  vesselId: string;
  positionName: string | null;
  from: OverallStatus;
  to: OverallStatus;
  requirementKeys: string[];
}

const PAGE = 500;

/** An operator's `--vessel`: unknown, or not on the partner's live fleet, is vessel_not_found (exit 1), never an empty forecast. */
async function requireFleetVessel(db: Db, partner: Partner, vesselId: string): Promise<void> {
  if (!(await existingIds(db, 'vessels', [vesselId])).has(vesselId))
    throw new AppError('vessel_not_found', `no vessel with id "${vesselId}"`);
  if (!(await isFleetVessel(db, fleetOf(partner, 'live'), vesselId))) {
    throw new AppError('vessel_not_found', `vessel ${vesselId} is not on the live fleet of partner ${partner.partnerId}`);
  }
}

/**
 * The operator's forecast (`svc compliance forecast`): the crew of a partner's live fleet that its
 * fleet compliance list shows (compliance consent), medical rows included, whose overall status
 * changes within `days` after `on`, sorted by date, then crew and vessel. The roster is read a page
 * at a time; only the changes are kept. A partner without crew:compliance:read (whose list shows
 * no one) is insufficient_scope; an unknown or foreign `vesselId` vessel_not_found.
 */
export async function forecastChanges(
  db: Db,
  deps: { catalogue: CatalogueCache; windowDays: number },
  partnerId: string,
  request: { on: string; days: number; vesselId?: string },
): Promise<ForecastEntry[]> {
  const partner = await findPartner(db, partnerId);
  if (!partner) throw new AppError('partner_not_found', `no partner with id "${partnerId}"`);
  if (!effectiveScopes(partner).includes('crew:compliance:read')) {
    throw new AppError(
      'insufficient_scope',
      `partner ${partnerId} lacks the scope crew:compliance:read: its fleet compliance list shows no one`,
    );
  }
  if (request.vesselId !== undefined) await requireFleetVessel(db, partner, request.vesselId);
  const catalogue = (await deps.catalogue.get(db)).definitions;
  const last = addDays(request.on, request.days);
  const out: ForecastEntry[] = [];
  let after: RosterKey | null = null;
  for (;;) {
    const rows = await complianceRosterPage(db, fleetOf(partner, 'live'), partnerId, {
      ...(request.vesselId !== undefined ? { vesselId: request.vesselId } : {}),
      after,
      limit: PAGE,
    });
    const evaluations = await evaluateRoster(db, rows, {
      catalogue,
      on: request.on,
      windowDays: deps.windowDays,
      medicalVisible: true,
      nextChange: true,
    });
    for (const evaluated of evaluations) {
      const change = evaluated.nextChange;
      if (!change || change.on > last) continue;
      out.push({
        on: change.on,
        crewUniqueId: evaluated.assignment.assignment.crewUniqueId,
        vesselId: evaluated.assignment.vessel.vesselId,
        positionName: evaluated.assignment.assignment.positionName,
        from: evaluated.evaluation.overallStatus,
        to: change.overallStatus,
        requirementKeys: change.requirementKeys,
      });
    }
    const tail = rows.at(-1);
    if (rows.length < PAGE || !tail) break;
    after = { vesselId: tail.vessel.vesselId, crewUniqueId: tail.assignment.crewUniqueId };
  }
  return out.sort(
    (a, b) => a.on.localeCompare(b.on) || a.crewUniqueId.localeCompare(b.crewUniqueId) || a.vesselId.localeCompare(b.vesselId),
  );
}
