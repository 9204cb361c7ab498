import { fleetOf } from '../../domain/partner.ts';
import type { KeyMode } from '../../domain/vocabulary.ts';
import type { Db } from '../../store/database.ts';
import type { RosterEntry } from '../../domain/fleet.ts';
import { fleetPageWithCounts } from '../../store/repositories/fleet-repo.ts';
import { addDaysUtc, canSeeMedical } from '../visibility/documents.ts';
import type { PartnerContext } from '../visibility/partner-context.ts';
import { signToken, verifyToken } from './signed-token.ts';
import { wireTime } from '../../domain/clock.ts';

/** Where a fleet page continues: after this (vessel, crew) key, for this partner, mode and window. */
export interface FleetCursor {
  partnerId: string;
  mode: KeyMode;
  windowDays: number;
  after: { vesselId: string; crewUniqueId: string };
}

export function encodeFleetCursor(key: Buffer, cursor: FleetCursor): string {
  return signToken(key, {
    v: 1,
    p: cursor.partnerId,
    m: cursor.mode,
    w: cursor.windowDays,
    a: [cursor.after.vesselId, cursor.after.crewUniqueId],
  });
}

/**
 * The cursor, when it was signed by this service for this partner and mode; null when it was
 * tampered with, made for another partner or mode, or is not a cursor at all.
 */
export function decodeFleetCursor(key: Buffer, token: string, ctx: PartnerContext): FleetCursor | null {
  const payload = verifyToken(key, token);
  if (!payload || payload.v !== 1 || payload.p !== ctx.partner.partnerId || payload.m !== ctx.mode) return null;
  const [vesselId, crewUniqueId, ...rest] = Array.isArray(payload.a) ? (payload.a as unknown[]) : [];
  if (typeof payload.w !== 'number' || typeof vesselId !== 'string' || typeof crewUniqueId !== 'string' || rest.length > 0) return null;
  return { partnerId: ctx.partner.partnerId, mode: ctx.mode, windowDays: payload.w, after: { vesselId, crewUniqueId } };
}

/** One fleet list item; status fields only with status consent and crew:status:read. */
export interface FleetEntryWire {
  crew_unique_id: string;
  vessel_id: string;
  as_of: string;
  name: string;
  vessel_name: string;
  vessel_imo: string | null;
  role: string;
  status?: string;
  background_check_status?: string;
  documents_expiring: number;
}

export interface FleetPageWire {
  items: FleetEntryWire[];
  expiring_within_days: number;
  /** Absent on the last page. */
  next_cursor?: string;
}

export function toFleetEntryWire(entry: RosterEntry, showStatus: boolean, documentsExpiring: number): FleetEntryWire {
  // Status fields are left out, not nulled, without consent (docs/decisions.md §3); spec field order kept.
  const status = showStatus ? { status: entry.status, background_check_status: entry.backgroundCheckStatus } : {};
  return {
    crew_unique_id: entry.crewUniqueId,
    vessel_id: entry.vesselId,
    as_of: wireTime(entry.asOf),
    name: entry.name,
    vessel_name: entry.vesselName,
    vessel_imo: entry.imo,
    role: entry.role,
    ...status,
    documents_expiring: documentsExpiring,
  };
}

/**
 * One keyset page of the roster (docs/decisions.md §4): ordered by vessel then crew, strictly after the
 * cursor, so rows added or removed between pages are neither skipped nor repeated.
 */
export async function listFleetPage(
  db: Db,
  ctx: PartnerContext,
  cursorKey: Buffer,
  query: { limit: number; windowDays: number; after: FleetCursor['after'] | null; today: string },
): Promise<FleetPageWire> {
  const expiring = ctx.scopes.has('crew:documents:read')
    ? { from: query.today, to: addDaysUtc(query.today, query.windowDays), includeMedical: canSeeMedical(ctx) }
    : null;
  const rows = await fleetPageWithCounts(db, fleetOf(ctx.partner, ctx.mode), query.after, query.limit + 1, ctx.partner.partnerId, expiring);
  const page = rows.slice(0, query.limit);
  const statusScope = ctx.scopes.has('crew:status:read');
  const out: FleetPageWire = {
    items: page.map((entry) => toFleetEntryWire(entry, statusScope && entry.statusConsent, entry.documentsExpiring)),
    expiring_within_days: query.windowDays,
  };
  const last = page.at(-1);
  if (rows.length > query.limit && last) {
    out.next_cursor = encodeFleetCursor(cursorKey, {
      partnerId: ctx.partner.partnerId,
      mode: ctx.mode,
      windowDays: query.windowDays,
      after: { vesselId: last.vesselId, crewUniqueId: last.crewUniqueId },
    });
  }
  return out;
}
