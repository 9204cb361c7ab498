import { AppError } from '../../domain/app-error.ts';
import { addDays } from '../../domain/compliance/dates.ts';
import type { OverallStatus } from '../../domain/compliance/index.ts';
import { fleetOf } from '../../domain/partner.ts';
import type { Db } from '../../store/database.ts';
import { complianceRosterPage, type RosterKey } from '../../store/repositories/compliance-roster-repo.ts';
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

/**
 * The operator's forecast (`svc compliance forecast`): the crew of a partner's live fleet that its
 * fleet compliance list shows (compliance consent), medical rows included, whose overall status
 * changes within `days` after `on`, sorted by date, then crew and vessel. The roster is read a page
 * at a time; only the changes are kept.
 */
export async function forecastChanges(
  db: Db, deps: { catalogue: CatalogueCache; windowDays: number }, partnerId: string, request: { on: string; days: number; vesselId?: string },
): Promise<ForecastEntry[]> {
  const partner = await findPartner(db, partnerId);
  if (!partner) throw new AppError('partner_not_found', `no partner with id "${partnerId}"`);
  const catalogue = await deps.catalogue.get(db);
  const last = addDays(request.on, request.days);
  const out: ForecastEntry[] = [];
  let after: RosterKey | null = null;
  for (;;) {
    const rows = await complianceRosterPage(db, fleetOf(partner, 'live'), partnerId, {
      ...(request.vesselId !== undefined ? { vesselId: request.vesselId } : {}), after, limit: PAGE,
    });
    const evaluations = await evaluateRoster(db, rows, { catalogue, on: request.on, windowDays: deps.windowDays, medicalVisible: true, nextChange: true });
    for (const evaluated of evaluations) {
      const change = evaluated.nextChange;
      if (!change || change.on > last) continue;
      out.push({
        on: change.on, crewUniqueId: evaluated.assignment.assignment.crewUniqueId, vesselId: evaluated.assignment.vessel.vesselId,
        positionName: evaluated.assignment.assignment.positionName, from: evaluated.evaluation.overallStatus, to: change.overallStatus,
        requirementKeys: change.requirementKeys,
      });
    }
    const tail = rows.at(-1);
    if (rows.length < PAGE || !tail) break;
    after = { vesselId: tail.vessel.vesselId, crewUniqueId: tail.assignment.crewUniqueId };
  }
  return out.sort((a, b) => a.on.localeCompare(b.on) || a.crewUniqueId.localeCompare(b.crewUniqueId) || a.vesselId.localeCompare(b.vesselId));
}
