import { AppError } from './app-error.ts';
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
  'vessels:fleet:read',
  'crew:status:read',
  'crew:status:subscribe',
  'crew:profile:read',
  'crew:contact:read',
  'crew:professional:read',
  'crew:experience:read',
  'crew:personal:read',
  'crew:documents:read',
  'crew:documents:download',
  'crew:medical:read',
  'crew:compliance:read',
];

export const BASIC_TIER_SCOPES: readonly Scope[] = ['vessels:fleet:read', 'crew:status:read', 'crew:profile:read', 'crew:compliance:read'];

/** A partner as far as scope derivation cares. */
export interface ScopeSubject {
  kind: PartnerKind;
  tier: PartnerTier | null;
  scopeOverrides: readonly string[] | null;
  upgraded: boolean;
  contractScopes: readonly string[] | null;
}

/** Effective scopes of a partner, sorted (docs/decisions.md §2). */
export function effectiveScopes(partner: ScopeSubject): Scope[] {
  let granted: readonly string[];
  if (partner.kind === 'external') granted = partner.contractScopes ?? [];
  else if (partner.scopeOverrides) granted = partner.scopeOverrides;
  else granted = partner.tier === 'basic' ? BASIC_TIER_SCOPES : partner.tier ? FULL_TIER_SCOPES : [];
  const out = new Set<Scope>();
  for (const scope of granted) {
    if (!(ALL_SCOPES as readonly string[]).includes(scope)) continue;
    if (scope === 'crew:profile:full:read') {
      out.add('crew:experience:read');
      out.add('crew:personal:read');
    }
    out.add(scope as Scope);
  }
  // An upgraded scope_overrides partner keeps the old meaning of crew:profile:read (contact and
  // professional blocks included); one not upgraded gets name and rank only (docs/decisions.md §2).
  if (partner.kind === 'customer' && partner.scopeOverrides && partner.upgraded && out.has('crew:profile:read')) {
    out.add('crew:contact:read');
    out.add('crew:professional:read');
  }
  return [...out].sort();
}

/**
 * The scopes an operation requires: all of a list, or any one of a list (the profile, whose blocks
 * each open with their own scope). Declared once per route (src/http/routes/) and stated from
 * there in the OpenAPI document.
 */
export type ScopeRule = { all: readonly Scope[] } | { any: readonly Scope[] };

/** The download route's rule; a file link checks it again when followed (src/services/read-api/file-links.ts). */
export const DOCUMENT_DOWNLOAD_SCOPES: ScopeRule = { all: ['crew:documents:download'] };

/** The scope to name in a 403 when `held` does not satisfy `rule`, or null when it does. */
export function missingScope(rule: ScopeRule, held: ReadonlySet<Scope>): Scope | null {
  if ('all' in rule) return rule.all.find((s) => !held.has(s)) ?? null;
  return rule.any.some((s) => held.has(s)) ? null : (rule.any[0] ?? null);
}

/** 403 insufficient_scope naming the missing scope, with its WWW-Authenticate challenge. */
export function insufficientScope(scope: string): AppError {
  return new AppError('insufficient_scope', `this key lacks the scope ${scope}`, {
    extra: { required_scope: scope },
    headers: { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"` },
  });
}
