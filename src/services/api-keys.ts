import { randomBytes } from 'node:crypto';
import { generateKey, type ApiKeyRecord, type KeyKind } from '../domain/api-keys.ts';
import { AppError } from '../domain/app-error.ts';
import type { Clock } from '../domain/clock.ts';
import type { KeyMode } from '../domain/vocabulary.ts';
import type { Db } from '../store/database.ts';
import {
  deleteApiKey,
  findApiKey,
  insertApiKey,
  listApiKeys,
  revokeActiveKeysLabelled,
  revokeApiKey,
} from '../store/repositories/api-keys-repo.ts';
import { requireKnownIds } from './known-ids.ts';

/** A key just issued: the full secret, to show once, and its stored record. */
export interface IssuedKey {
  key: string;
  record: ApiKeyRecord;
  /** Keys revoked because the new one replaces them (`replaceSameLabel`). */
  replaced: string[];
}

/**
 * Where the first C0 control, DEL or C1 control of a label is, or -1: a label holding one could
 * rewrite the terminal of whoever lists keys.
 */
function controlAt(label: string): number {
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    if (c <= 0x1f || (c >= 0x7f && c <= 0x9f)) return i;
  }
  return -1;
}

/** Throws invalid_input when a key label holds a terminal control character. */
function checkLabel(label: string | null): void {
  const at = label === null ? -1 : controlAt(label);
  if (at < 0) return;
  const code = label!.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0');
  throw new AppError(
    'invalid_input',
    `the key label may not hold control characters (U+${code} at character ${at + 1}); use printable text`,
  );
}

async function store(
  db: Db,
  kind: Exclude<KeyKind, 'pub'>,
  partnerId: string | null,
  label: string | null,
  clock: Clock,
): Promise<IssuedKey> {
  checkLabel(label);
  const generated = generateKey(kind);
  const record: ApiKeyRecord = {
    keyId: `key_${randomBytes(8).toString('hex')}`,
    partnerId,
    kind,
    prefix: generated.prefix,
    last4: generated.last4,
    keyHash: generated.hash,
    status: 'active',
    label,
    createdAt: clock().toISOString(),
    revokedAt: null,
  };
  await insertApiKey(db, {
    key_id: record.keyId,
    partner_id: partnerId,
    kind,
    prefix: record.prefix,
    last4: record.last4,
    key_hash: record.keyHash,
    status: 'active',
    label,
    created_at: record.createdAt,
    revoked_at: null,
  });
  return { key: generated.key, record, replaced: [] };
}

/**
 * Issues a partner key in live or test mode. With `replaceSameLabel` (and a label), the partner's
 * other active partner keys that carry the same label are revoked in the same transaction: a
 * script that issues itself a key on every run (the demo does) leaves one live key, not one per run.
 */
export async function issuePartnerKey(
  db: Db,
  partnerId: string,
  mode: KeyMode,
  clock: Clock,
  label: string | null = null,
  options: { replaceSameLabel?: boolean } = {},
): Promise<IssuedKey> {
  await requireKnownIds(db, { partnerId });
  if (options.replaceSameLabel && label === null) {
    throw new AppError('invalid_input', 'replacing the keys of the same label needs a label (--label)');
  }
  return db.transaction().execute(async (trx) => {
    const replaced = options.replaceSameLabel ? await revokeActiveKeysLabelled(trx, partnerId, label!, clock().toISOString()) : [];
    return { ...(await store(trx, mode, partnerId, label, clock)), replaced };
  });
}

/** Issues an operator key (admin routes only), optionally tied to a partner's account. */
export async function issueOperatorKey(db: Db, clock: Clock, options: { partnerId?: string; label?: string } = {}): Promise<IssuedKey> {
  await requireKnownIds(db, { partnerId: options.partnerId });
  return store(db, 'operator', options.partnerId ?? null, options.label ?? null, clock);
}

/**
 * Revokes (default) or hard-deletes a key. With `partnerId` the key must belong to that partner;
 * without, any key is found by its id (operator keys that belong to no partner included). Revoking an already revoked key succeeds; an unknown key, or one of
 * another partner, is key_not_found; hard delete of an operator key is refused with
 * operator_key_revoke_only.
 */
export async function revokeKey(db: Db, partnerId: string | undefined, keyId: string, hard: boolean, clock: Clock): Promise<ApiKeyRecord> {
  const key = await findApiKey(db, keyId);
  if (!key || (partnerId !== undefined && key.partnerId !== partnerId)) {
    throw new AppError(
      'key_not_found',
      partnerId && key ? `partner ${partnerId} has no key with id "${keyId}"` : `no key with id "${keyId}"`,
    );
  }
  if (hard && key.kind === 'operator') {
    throw new AppError('operator_key_revoke_only', 'operator keys are revoked, not deleted; retry without hard=true');
  }
  if (hard) await deleteApiKey(db, keyId);
  else await revokeApiKey(db, keyId, clock().toISOString());
  return key;
}

/** The stored keys (never the keys themselves), of one partner or all, for the operator. */
export function listKeys(db: Db, partnerId?: string): Promise<ApiKeyRecord[]> {
  return listApiKeys(db, partnerId);
}
