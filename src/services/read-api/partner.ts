import type { Config } from '../../config/config.ts';
import type { KeyMode, PartnerKind } from '../../domain/vocabulary.ts';
import type { Db } from '../../store/database.ts';
import { listFleetVessels, type VesselRow } from '../../store/repositories/fleet-repo.ts';
import { fleetOf, type PartnerContext } from '../visibility/partner-context.ts';

/** `GET /api/v2/partners/me` (docs/decisions.md §2). */
export interface PartnerMeWire {
  partner_id: string;
  name: string;
  kind: PartnerKind;
  tier: string | null;
  mode: KeyMode;
  key_id: string;
  scopes: string[];
  rate_limit: { limit: number; window_seconds: number };
}

export function toPartnerMeWire(ctx: PartnerContext, config: Config): PartnerMeWire {
  const p = ctx.partner;
  return {
    partner_id: p.partnerId,
    name: p.name,
    kind: p.kind,
    tier: p.tier,
    mode: ctx.mode,
    key_id: ctx.keyId,
    scopes: [...ctx.scopes].sort(),
    rate_limit: { limit: p.rateLimit ?? config.rateLimitDefault, window_seconds: config.rateLimitWindowSeconds },
  };
}

export interface VesselWire {
  vessel_id: string;
  vessel_name: string;
  imo: string | null;
  mmsi: string | null;
  flag_state: string;
  vessel_type: string;
}

export function toVesselWire(v: VesselRow): VesselWire {
  return { vessel_id: v.vessel_id, vessel_name: v.vessel_name, imo: v.imo, mmsi: v.mmsi, flag_state: v.flag_state, vessel_type: v.vessel_type };
}

/** The partner's vessels in the key's mode; empty when it has none. */
export async function listVessels(db: Db, ctx: PartnerContext): Promise<{ items: VesselWire[] }> {
  return { items: (await listFleetVessels(db, fleetOf(ctx.partner, ctx.mode))).map(toVesselWire) };
}
