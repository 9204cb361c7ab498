import type { PartnerKind, PartnerTier } from './vocabulary.ts';

/** Every scope name the service knows (docs/contract.md, "Scopes"). */
export const ALL_SCOPES = [
  'vessels:fleet:read',
  'crew:status:read',
  'crew:status:subscribe',
  'crew:profile:read',
  'crew:contact:read',
  'crew:professional:read',
  'crew:experience:read',
  'crew:personal:read',
  'crew:profile:full:read',
  'crew:documents:read',
  'crew:documents:download',
  'crew:medical:read',
  'crew:compliance:read',
  'connections:read',
  'connections:write',
] as const;

export type Scope = (typeof ALL_SCOPES)[number];

/** The read scopes every full customer tier receives (docs/decisions.md §2). */
export const FULL_TIER_SCOPES: readonly Scope[] = [
  'vessels:fleet:read', 'crew:status:read', 'crew:status:subscribe', 'crew:profile:read',
  'crew:contact:read', 'crew:professional:read', 'crew:experience:read', 'crew:personal:read',
  'crew:documents:read', 'crew:documents:download', 'crew:medical:read', 'crew:compliance:read',
];

export const BASIC_TIER_SCOPES: readonly Scope[] = [
  'vessels:fleet:read', 'crew:status:read', 'crew:profile:read', 'crew:compliance:read',
];

/** A partner as far as scope derivation cares. */
export interface ScopeSubject {
  kind: PartnerKind;
  tier: PartnerTier | null;
  scopeOverrides: readonly string[] | null;
  upgraded: boolean;
  contractScopes: readonly string[] | null;
}

/** Effective scopes of a partner, sorted (docs/decisions.md §2). */
export function effectiveScopes(p: ScopeSubject): Scope[] {
  let granted: readonly string[];
  if (p.kind === 'external') granted = p.contractScopes ?? [];
  else if (p.scopeOverrides) granted = p.scopeOverrides;
  else granted = p.tier === 'basic' ? BASIC_TIER_SCOPES : p.tier ? FULL_TIER_SCOPES : [];
  const out = new Set<Scope>();
  for (const s of granted) {
    if (!(ALL_SCOPES as readonly string[]).includes(s)) continue;
    if (s === 'crew:profile:full:read') {
      out.add('crew:experience:read');
      out.add('crew:personal:read');
    }
    out.add(s as Scope);
  }
  // An upgraded scope_overrides partner keeps the old meaning of crew:profile:read (contact and
  // professional blocks included); one not upgraded gets name and rank only (docs/decisions.md §2).
  if (p.kind === 'customer' && p.scopeOverrides && p.upgraded && out.has('crew:profile:read')) {
    out.add('crew:contact:read');
    out.add('crew:professional:read');
  }
  return [...out].sort();
}

