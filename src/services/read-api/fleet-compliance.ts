import { addDays } from '../../domain/compliance/dates.ts';
import { medicalRowsOn } from '../../domain/compliance/on-date.ts';
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
export function encodeFleetComplianceCursor(key: Buffer, ctx: PartnerContext, cursor: FleetComplianceCursor): string {
  const filters = cursor.filters;
  return signToken(key, {
    v: 'fc1',
    p: ctx.partner.partnerId,
    m: ctx.mode,
    on: filters.on,
    ves: filters.vesselId ?? null,
    st: filters.overallStatuses ?? null,
    cw: filters.changesWithinDays ?? null,
    a: [cursor.after.vesselId, cursor.after.crewUniqueId],
  });
}

const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** The cursor, when this service signed it for this partner and mode; null otherwise. */
export function decodeFleetComplianceCursor(key: Buffer, token: string, ctx: PartnerContext): FleetComplianceCursor | null {
  const payload = verifyToken(key, token);
  if (!payload || payload.v !== 'fc1' || payload.p !== ctx.partner.partnerId || payload.m !== ctx.mode) return null;
  if (typeof payload.on !== 'string' || !strings(payload.a) || payload.a.length !== 2) return null;
  const filters: FleetComplianceFilters = { on: payload.on };
  if (typeof payload.ves === 'string') filters.vesselId = payload.ves;
  if (strings(payload.st)) filters.overallStatuses = payload.st as OverallStatus[];
  if (typeof payload.cw === 'number') filters.changesWithinDays = payload.cw;
  return { filters, after: { vesselId: payload.a[0]!, crewUniqueId: payload.a[1]! } };
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
  /** Present when the medical rows are shown as they stand on another date than `on`: today, for a key without crew:medical:read. */
  medical_on?: string;
  items: FleetComplianceItemWire[];
  /** Absent on the last page. */
  next_cursor?: string;
}

export function toNextChangeWire(change: StatusChange | null): NextChangeWire | null {
  return change && { on: change.on, overall_status: change.overallStatus, requirement_keys: [...change.requirementKeys] };
}

function toItemWire(evaluated: RosterEvaluation): FleetComplianceItemWire {
  return {
    crew_unique_id: evaluated.assignment.assignment.crewUniqueId,
    vessel_id: evaluated.assignment.vessel.vesselId,
    position_name: evaluated.assignment.assignment.positionName,
    overall_status: evaluated.evaluation.overallStatus,
    summary: { ...evaluated.evaluation.summary },
    next_change: toNextChangeWire(evaluated.nextChange),
  };
}

function matches(filters: FleetComplianceFilters, evaluated: RosterEvaluation): boolean {
  if (filters.overallStatuses && !filters.overallStatuses.includes(evaluated.evaluation.overallStatus)) return false;
  if (filters.changesWithinDays !== undefined) {
    return evaluated.nextChange !== null && evaluated.nextChange.on <= addDays(filters.on, filters.changesWithinDays);
  }
  return true;
}

/** Rows read per round while a filtered page fills; a page reads at most this many rounds. */
const SCAN_ROUNDS = 5;

/** What listing needs besides the store. */
export interface FleetComplianceDeps {
  catalogue: CatalogueCache;
  windowDays: number;
  cursorKey: Buffer;
  /** YYYY-MM-DD of the call: without crew:medical:read, medical rows are shown as they stand that day, whatever `on`. */
  today: string;
}

/**
 * One keyset page of the fleet's compliance (docs/api.md): the on-fleet assignments of crew who
 * give compliance consent, by vessel then crew, each evaluated on `filters.on` as the single check
 * would (without crew:medical:read, medical rows as they stand today, and held there for the
 * next change, docs/decisions.md §6). Filters on the outcome are applied after evaluation: a page reads at most SCAN_ROUNDS
 * times `limit` rows, so it may hold fewer than `limit` items with a `next_cursor` still given.
 * Only one page of rows and their documents is held at a time, whatever the fleet's size.
 */
export async function listFleetCompliancePage(
  db: Db,
  ctx: PartnerContext,
  deps: FleetComplianceDeps,
  page: { filters: FleetComplianceFilters; limit: number; after: RosterKey | null },
): Promise<FleetCompliancePageWire> {
  const catalogue = (await deps.catalogue.get(db)).definitions;
  const fleet = fleetOf(ctx.partner, ctx.mode);
  const medicalVisible = ctx.scopes.has('crew:medical:read');
  const medicalOn = medicalRowsOn(page.filters.on, deps.today, medicalVisible);
  const items: FleetComplianceItemWire[] = [];
  let after = page.after;
  let more = false;
  for (let round = 0; round < SCAN_ROUNDS && items.length < page.limit; round++) {
    const rows = await complianceRosterPage(db, fleet, ctx.partner.partnerId, {
      ...(page.filters.vesselId !== undefined ? { vesselId: page.filters.vesselId } : {}),
      after,
      limit: page.limit + 1,
    });
    more = rows.length > page.limit;
    const evaluations = await evaluateRoster(db, rows.slice(0, page.limit), {
      catalogue,
      on: page.filters.on,
      windowDays: deps.windowDays,
      medicalVisible,
      nextChange: true,
      ...(medicalOn !== undefined ? { medicalOn } : {}),
    });
    for (const evaluated of evaluations) {
      after = { vesselId: evaluated.assignment.vessel.vesselId, crewUniqueId: evaluated.assignment.assignment.crewUniqueId };
      if (matches(page.filters, evaluated)) items.push(toItemWire(evaluated));
      if (items.length === page.limit) {
        more ||= evaluated !== evaluations.at(-1);
        break;
      }
    }
    if (!more) break;
  }
  const out: FleetCompliancePageWire = { on: page.filters.on, ...(medicalOn !== undefined ? { medical_on: medicalOn } : {}), items };
  if (more && after) out.next_cursor = encodeFleetComplianceCursor(deps.cursorKey, ctx, { filters: page.filters, after });
  return out;
}
