/** Vessels, each partner's fleet, and the consent records crew give the partners that see them. */
import { imoWithCheckDigit } from '../../src/domain/identifiers.ts';
import { Rng } from './random.ts';
import { MID, PARTNERS, VESSEL_SPECS } from './tables.ts';
import type { Consent, ConsentOut, CrewPlan, PartnerOut, VesselOut } from './types.ts';

export function buildVessels(): VesselOut[] {
  return VESSEL_SPECS.map((v) => {
    const r = new Rng(`vessel:${v.id}`);
    return {
      vessel_id: v.id,
      employer_id: v.employer,
      vessel_name: v.name,
      imo: v.imo6 ? imoWithCheckDigit(v.imo6) : null,
      mmsi: `${r.pick(MID[v.flag]!)}${r.digits(6)}`,
      flag_state: v.flag,
      vessel_type: v.type,
      gross_tonnage: v.gt,
      propulsion_kw: v.kw,
      trading_area: v.area ?? 'unlimited',
      is_test: v.test ?? false,
    };
  });
}

/** Vessel ids of a partner's fleet: its employer's vessels, or its contract's. */
export function partnerFleet(p: PartnerOut, vessels: readonly VesselOut[]): string[] {
  if (p.kind === 'external') return [...(p.contract_vessel_ids ?? [])];
  return vessels.filter((v) => v.employer_id === p.employer_id).map((v) => v.vessel_id);
}

function consentCategories(c: Consent): string[] | null {
  switch (c) {
    case 'all':
      return ['status', 'profile', 'documents', 'compliance'];
    case 'no_status':
      return ['profile', 'documents', 'compliance'];
    case 'no_profile':
      return ['status', 'documents', 'compliance'];
    case 'no_documents':
      return ['status', 'profile', 'compliance'];
    case 'no_compliance':
      return ['status', 'profile', 'documents'];
    case 'status_only':
      return ['status'];
    case 'none':
      return null;
  }
}

/**
 * One consent record per crew member and partner whose fleet they are on (crew without an
 * assignment consent to ptn_northsea_mgmt anyway), with the slot's categories for that partner.
 */
export function buildConsents(plans: readonly CrewPlan[], vessels: readonly VesselOut[]): ConsentOut[] {
  const fleets = new Map(PARTNERS.map((p) => [p.partner_id, new Set(partnerFleet(p, vessels))]));
  const out: ConsentOut[] = [];
  for (const plan of plans) {
    const partners = PARTNERS.filter((p) => plan.assignments.some((a) => fleets.get(p.partner_id)!.has(a.vessel.vessel_id))).map(
      (p) => p.partner_id,
    );
    if (plan.assignments.length === 0) partners.push('ptn_northsea_mgmt');
    for (const pid of partners) {
      const cats = consentCategories(plan.slot.consentFor?.[pid] ?? plan.slot.consent ?? 'all');
      if (cats) out.push({ crew_unique_id: plan.id, partner_id: pid, categories: cats });
    }
  }
  return out;
}
