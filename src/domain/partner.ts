import type { KeyMode, PartnerKind, PartnerTier } from './vocabulary.ts';

/** A partner account (converted from its row in src/store/repositories/partners-repo.ts). */
export interface Partner {
  partnerId: string;
  name: string;
  kind: PartnerKind;
  employerId: string | null;
  tier: PartnerTier | null;
  scopeOverrides: string[] | null;
  upgraded: boolean;
  contractScopes: string[] | null;
  /** Requests per window; null: the configured default. */
  rateLimit: number | null;
}

/** Which vessels form a partner's fleet in one mode (docs/decisions.md, live and test keys). */
export type FleetRef =
  | { kind: 'employer'; employerId: string; isTest: boolean }
  | { kind: 'contract'; partnerId: string; isTest: boolean }
  | { kind: 'none' }
  /** Every vessel of both modes: the operator's view (CLI), never a partner's. */
  | { kind: 'all' };

/** The vessels a partner sees in a mode: its employer's (customer) or its contract's (external). */
export function fleetOf(partner: Partner, mode: KeyMode): FleetRef {
  const isTest = mode === 'test';
  if (partner.kind === 'external') return { kind: 'contract', partnerId: partner.partnerId, isTest };
  if (partner.employerId) return { kind: 'employer', employerId: partner.employerId, isTest };
  return { kind: 'none' };
}
