import type { Config } from '../../config/config.ts';
import { publicKeysAt } from '../../domain/ed25519-keys.ts';
import type { Vessel } from '../../domain/fleet.ts';
import { fleetOf } from '../../domain/partner.ts';
import type { KeyMode, PartnerKind } from '../../domain/vocabulary.ts';
import type { Db } from '../../store/database.ts';
import { listFleetVessels } from '../../store/repositories/fleet-repo.ts';
import { findEndpointByPartner } from '../../store/repositories/webhook-endpoints-repo.ts';
import type { PartnerContext } from '../visibility/partner-context.ts';

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
  /** The `whpk_` keys the partner's deliveries carry Ed25519 (`v1a`) signatures with now; two during a rotation. */
  webhook_public_keys: string[];
}

export function toPartnerMeWire(ctx: PartnerContext, config: Config, webhookPublicKeys: string[]): PartnerMeWire {
  const partner = ctx.partner;
  return {
    partner_id: partner.partnerId,
    name: partner.name,
    kind: partner.kind,
    tier: partner.tier,
    mode: ctx.mode,
    key_id: ctx.keyId,
    scopes: [...ctx.scopes].sort(),
    rate_limit: { limit: partner.rateLimit ?? config.rateLimitDefault, window_seconds: config.rateLimitWindowSeconds },
    webhook_public_keys: webhookPublicKeys,
  };
}

/** `GET /api/v2/partners/me`, with the public keys of the partner's webhook endpoint at `now` (none without Ed25519 signatures). */
export async function partnerMe(db: Db, ctx: PartnerContext, config: Config, now: Date): Promise<PartnerMeWire> {
  const endpoint = await findEndpointByPartner(db, ctx.partner.partnerId);
  return toPartnerMeWire(ctx, config, endpoint ? publicKeysAt(endpoint, now) : []);
}

export interface VesselWire {
  vessel_id: string;
  vessel_name: string;
  imo: string | null;
  mmsi: string | null;
  flag_state: string;
  vessel_type: string;
}

export function toVesselWire(vessel: Vessel): VesselWire {
  return {
    vessel_id: vessel.vesselId,
    vessel_name: vessel.vesselName,
    imo: vessel.imo,
    mmsi: vessel.mmsi,
    flag_state: vessel.flagState,
    vessel_type: vessel.vesselType,
  };
}

/** The partner's vessels in the key's mode; empty when it has none. */
export async function listVessels(db: Db, ctx: PartnerContext): Promise<{ items: VesselWire[] }> {
  return { items: (await listFleetVessels(db, fleetOf(ctx.partner, ctx.mode))).map(toVesselWire) };
}
