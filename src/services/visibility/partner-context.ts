import type { Scope } from '../../domain/scopes.ts';
import type { KeyMode } from '../../domain/vocabulary.ts';
import type { FleetRef } from '../../store/repositories/fleet-repo.ts';
import type { Partner } from '../../store/repositories/partners-repo.ts';

/** Who is asking: the partner, the key's mode and the partner's effective scopes. */
export interface PartnerContext {
  partner: Partner;
  mode: KeyMode;
  keyId: string;
  scopes: ReadonlySet<Scope>;
}

/** The vessels a partner sees in a mode: its employer's (customer) or its contract's (external). */
export function fleetOf(partner: Partner, mode: KeyMode): FleetRef {
  const isTest = mode === 'test';
  if (partner.kind === 'external') return { kind: 'contract', partnerId: partner.partnerId, isTest };
  if (partner.employerId) return { kind: 'employer', employerId: partner.employerId, isTest };
  return { kind: 'none' };
}
