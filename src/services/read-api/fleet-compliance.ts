import { addDays } from '../../domain/compliance/dates.ts';
import type { ComplianceSummary, OverallStatus } from '../../domain/compliance/index.ts';
import type { StatusChange } from '../../domain/compliance/status-forecast.ts';
import { fleetOf } from '../../domain/partner.ts';
import type { Db } from '../../store/database.ts';
import { complianceRosterPage, type RosterKey } from '../../store/repositories/compliance-roster-repo.ts';
import type { CatalogueCache } from '../compliance/catalogue-cache.ts';
import { evaluateRoster, type RosterEvaluation } from '../compliance/evaluate-roster.ts';
import type { PartnerContext } from '../visibility/partner-context.ts';
import { signToken, verifyToken } from './signed-token.ts';

/** What the fleet compliance list is filtered by; a cursor carries them, so every page keeps them. */
export interface FleetComplianceFilters {
  on: string;
  vesselId?: string;
  overallStatuses?: OverallStatus[];
  changesWithinDays?: number;
}

export interface FleetComplianceCursor {
  filters: FleetComplianceFilters;
  after: RosterKey;
}

// `v: 'fc1'` keeps a fleet roster cursor (signed with the same key) from being taken here, and the reverse.
export function encodeFleetComplianceCursor(key: Buffer, ctx: PartnerContext, c: FleetComplianceCursor): string {
  const f = c.filters;
  return signToken(key, {
    v: 'fc1', p: ctx.partner.partnerId, m: ctx.mode, on: f.on, ves: f.vesselId ?? null, st: f.overallStatuses ?? null,
    cw: f.changesWithinDays ?? null, a: [c.after.vesselId, c.after.crewUniqueId],
  });
}

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The cursor, when this service signed it for this partner and mode; null otherwise. */
export function decodeFleetComplianceCursor(key: Buffer, token: string, ctx: PartnerContext): FleetComplianceCursor | null {
  const p = verifyToken(key, token);
  if (!p || p.v !== 'fc1' || p.p !== ctx.partner.partnerId || p.m !== ctx.mode) return null;
  if (typeof p.on !== 'string' || !strings(p.a) || p.a.length !== 2) return null;
  const filters: FleetComplianceFilters = { on: p.on };
  if (typeof p.ves === 'string') filters.vesselId = p.ves;
  if (strings(p.st)) filters.overallStatuses = p.st as OverallStatus[];
  if (typeof p.cw === 'number') filters.changesWithinDays = p.cw;
  return { filters, after: { vesselId: p.a[0]!, crewUniqueId: p.a[1]! } };
}

export interface NextChangeWire {
  on: string;
  overall_status: OverallStatus;
  requirement_keys: string[];
}

export interface FleetComplianceItemWire {
  crew_unique_id: string;
  vessel_id: string;
  position_name: string | null;
  overall_status: OverallStatus;
  summary: ComplianceSummary;
  next_change: NextChangeWire | null;
}

export interface FleetCompliancePageWire {
  on: string;
  items: FleetComplianceItemWire[];
  /** Absent on the last page. */
  next_cursor?: string;
}

export function toNextChangeWire(c: StatusChange | null): NextChangeWire | null {
  return c && { on: c.on, overall_status: c.overallStatus, requirement_keys: [...c.requirementKeys] };
}

function toItemWire(r: RosterEvaluation): FleetComplianceItemWire {
  return {
    crew_unique_id: r.assignment.assignment.crewUniqueId,
    vessel_id: r.assignment.vessel.vesselId,
    position_name: r.assignment.assignment.positionName,
    overall_status: r.evaluation.overallStatus,
    summary: { ...r.evaluation.summary },
    next_change: toNextChangeWire(r.nextChange),
  };
}

function matches(f: FleetComplianceFilters, r: RosterEvaluation): boolean {
  if (f.overallStatuses && !f.overallStatuses.includes(r.evaluation.overallStatus)) return false;
  if (f.changesWithinDays !== undefined) return r.nextChange !== null && r.nextChange.on <= addDays(f.on, f.changesWithinDays);
  return true;
}

/** Rows read per round while a filtered page fills; a page reads at most this many rounds. */
const SCAN_ROUNDS = 5;

/** What listing needs besides the store. */
export interface FleetComplianceDeps {
  catalogue: CatalogueCache;
  windowDays: number;
  cursorKey: Buffer;
}

/**
 * One keyset page of the fleet's compliance (docs/api.md): the on-fleet assignments of crew who
 * give compliance consent, by vessel then crew, each evaluated on `filters.on` as the single check
 * would. Filters on the outcome are applied after evaluation: a page reads at most SCAN_ROUNDS
 * times `limit` rows, so it may hold fewer than `limit` items with a `next_cursor` still given.
 * Only one page of rows and their documents is held at a time, whatever the fleet's size.
 */
export async function listFleetCompliancePage(
  db: Db, ctx: PartnerContext, deps: FleetComplianceDeps,
  q: { filters: FleetComplianceFilters; limit: number; after: RosterKey | null },
): Promise<FleetCompliancePageWire> {
  const catalogue = await deps.catalogue.get(db);
  const fleet = fleetOf(ctx.partner, ctx.mode);
  const items: FleetComplianceItemWire[] = [];
  let after = q.after;
  let more = false;
  for (let round = 0; round < SCAN_ROUNDS && items.length < q.limit; round++) {
    const rows = await complianceRosterPage(db, fleet, ctx.partner.partnerId, {
      ...(q.filters.vesselId !== undefined ? { vesselId: q.filters.vesselId } : {}), after, limit: q.limit + 1,
    });
    more = rows.length > q.limit;
    const evaluated = await evaluateRoster(db, rows.slice(0, q.limit), {
      catalogue, on: q.filters.on, windowDays: deps.windowDays, medicalVisible: ctx.scopes.has('crew:medical:read'), nextChange: true,
    });
    for (const r of evaluated) {
      after = { vesselId: r.assignment.vessel.vesselId, crewUniqueId: r.assignment.assignment.crewUniqueId };
      if (matches(q.filters, r)) items.push(toItemWire(r));
      if (items.length === q.limit) {
        more ||= r !== evaluated.at(-1);
        break;
      }
    }
    if (!more) break;
  }
  const out: FleetCompliancePageWire = { on: q.filters.on, items };
  if (more && after) out.next_cursor = encodeFleetComplianceCursor(deps.cursorKey, ctx, { filters: q.filters, after });
  return out;
}
