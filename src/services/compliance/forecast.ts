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
  db: Db, deps: { catalogue: CatalogueCache; windowDays: number }, partnerId: string, q: { on: string; days: number; vesselId?: string },
): Promise<ForecastEntry[]> {
  const partner = await findPartner(db, partnerId);
  if (!partner) throw new AppError('partner_not_found', `no partner with id "${partnerId}"`);
  const catalogue = await deps.catalogue.get(db);
  const last = addDays(q.on, q.days);
  const out: ForecastEntry[] = [];
  let after: RosterKey | null = null;
  for (;;) {
    const rows = await complianceRosterPage(db, fleetOf(partner, 'live'), partnerId, {
      ...(q.vesselId !== undefined ? { vesselId: q.vesselId } : {}), after, limit: PAGE,
    });
    for (const r of await evaluateRoster(db, rows, { catalogue, on: q.on, windowDays: deps.windowDays, medicalVisible: true, nextChange: true })) {
      const c = r.nextChange;
      if (!c || c.on > last) continue;
      out.push({
        on: c.on, crewUniqueId: r.assignment.assignment.crewUniqueId, vesselId: r.assignment.vessel.vesselId,
        positionName: r.assignment.assignment.positionName, from: r.evaluation.overallStatus, to: c.overallStatus, requirementKeys: c.requirementKeys,
      });
    }
    const tail = rows.at(-1);
    if (rows.length < PAGE || !tail) break;
    after = { vesselId: tail.vessel.vesselId, crewUniqueId: tail.assignment.crewUniqueId };
  }
  return out.sort((a, b) => a.on.localeCompare(b.on) || a.crewUniqueId.localeCompare(b.crewUniqueId) || a.vesselId.localeCompare(b.vesselId));
}
