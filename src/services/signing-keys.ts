import { createHmac } from 'node:crypto';
import type { Db } from '../store/database.ts';
import { findOrCreateSetting } from '../store/repositories/settings-repo.ts';

/** HMAC keys of the read API, one per purpose so a token of one kind never verifies as another. */
export interface SigningKeys {
  fleetCursor: Buffer;
  eventsCursor: Buffer;
  fileLink: Buffer;
}

const SETTING = 'api_signing_secret';

/**
 * Loads the server secret from the `settings` table, generating it on first use; every process
 * sharing the store ends up with the same secret, so a cursor or link made by one is honoured by
 * all. The per-purpose keys are derived from it.
 */
export async function loadSigningKeys(db: Db, randomBytes: (size: number) => Buffer): Promise<SigningKeys> {
  const secret = Buffer.from(await findOrCreateSetting(db, SETTING, randomBytes(32).toString('base64url')), 'base64url');
  const derive = (purpose: string) => createHmac('sha256', secret).update(purpose).digest();
  return { fleetCursor: derive('fleet-cursor/v1'), eventsCursor: derive('events-cursor/v1'), fileLink: derive('file-link/v1') };
}

/** Memoises the keys per app; a failed load is retried on the next call instead of cached. */
export function signingKeysLoader(db: Db, randomBytes: (size: number) => Buffer): () => Promise<SigningKeys> {
  let pending: Promise<SigningKeys> | undefined;
  return () => {
    pending ??= loadSigningKeys(db, randomBytes).catch((err) => {
      pending = undefined;
      throw err;
    });
    return pending;
  };
}
