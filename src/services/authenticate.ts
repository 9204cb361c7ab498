import { digestsEqual, parseKey, redactKey, type ApiKeyRecord, type ParsedKey } from '../domain/api-keys.ts';
import { AppError } from '../domain/app-error.ts';
import { effectiveScopes } from '../domain/scopes.ts';
import type { Db } from '../store/database.ts';
import { findApiKeyByHash } from '../store/repositories/api-keys-repo.ts';
import { findPartner } from '../store/repositories/partners-repo.ts';
import type { PartnerContext } from './visibility/partner-context.ts';

/** Who an accepted key belongs to. */
export type Caller = { kind: 'partner'; partner: PartnerContext } | { kind: 'operator'; keyId: string; partnerId: string | null };

const REALM = 'Bearer realm="partner-api"';

/** 401 invalid_api_key with the challenge docs/decisions.md §1 prescribes; the key is never echoed beyond prefix and last 4. */
export function invalidKey(message: string, keySent: boolean): AppError {
  return new AppError('invalid_api_key', message, {
    headers: { 'WWW-Authenticate': keySent ? `${REALM}, error="invalid_token"` : REALM },
  });
}

async function findActiveKey(db: Db, raw: string, parsed: ParsedKey): Promise<ApiKeyRecord> {
  // A bad checksum is refused here, before the store is asked.
  if (!parsed.ok) throw invalidKey(`the API key ${redactKey(raw)} is not a valid key`, true);
  if (parsed.kind === 'pub') throw invalidKey('public widget keys are not accepted by this API', true);
  const record = await findApiKeyByHash(db, parsed.hash);
  // The lookup is by an index on the hash; the constant-time comparison guards the match itself.
  if (!record || !digestsEqual(record.keyHash, parsed.hash)) throw invalidKey(`the API key ${redactKey(raw)} is not known`, true);
  if (record.status !== 'active') throw invalidKey(`the API key ${redactKey(raw)} was revoked`, true);
  return record;
}

/**
 * Resolves a presented key to its caller: a partner (live or test key) or an operator. `parsed` is
 * `parseKey(raw)` when the caller has it already.
 */
export async function authenticateKey(db: Db, raw: string | undefined, parsed?: ParsedKey): Promise<Caller> {
  if (raw === undefined || raw === '') {
    throw invalidKey('an API key is required: send Authorization: Bearer <key> or X-Partner-API-Key', false);
  }
  const record = await findActiveKey(db, raw, parsed ?? parseKey(raw));
  if (record.kind === 'operator') return { kind: 'operator', keyId: record.keyId, partnerId: record.partnerId };
  const partner = record.partnerId ? await findPartner(db, record.partnerId) : undefined;
  if (!partner) throw invalidKey(`the API key ${redactKey(raw)} belongs to no partner`, true);
  return {
    kind: 'partner',
    partner: { partner, mode: record.kind, keyId: record.keyId, scopes: new Set(effectiveScopes(partner)) },
  };
}
