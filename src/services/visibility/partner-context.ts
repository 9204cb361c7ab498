import type { Partner } from '../../domain/partner.ts';
import type { Scope } from '../../domain/scopes.ts';
import type { KeyMode } from '../../domain/vocabulary.ts';

/** Who is asking: the partner, the key's mode and the partner's effective scopes. */
export interface PartnerContext {
  partner: Partner;
  mode: KeyMode;
  keyId: string;
  scopes: ReadonlySet<Scope>;
}
