import { parseKey } from '../domain/api-keys.ts';
import type { Db } from '../store/database.ts';
import { authVersion } from '../store/repositories/auth-version-repo.ts';
import { authenticateKey, type Caller } from './authenticate.ts';

export interface AuthenticatorOptions {
  /** Longest a key's answer is reused, whatever else happens (default 60 s). */
  ttlMs?: number;
  /** How often the store's revocation counter is read, at most (default 500 ms). */
  versionCheckMs?: number;
  /** Keys held at most; the oldest is dropped past it. */
  maxEntries?: number;
  /** Monotonic milliseconds (performance.now by default); tests move it by hand. */
  now?: () => number;
}

/** Authentication with an in-process cache of accepted keys. */
export interface Authenticator {
  /** As authenticateKey: the caller behind a presented key, or 401. */
  authenticate(raw: string | undefined): Promise<Caller>;
  /** Forgets every cached key at once: a key was revoked or deleted through this process. */
  invalidate(): void;
}

/**
 * Caches accepted keys by their SHA-256 hash for at most `ttlMs`. A revocation, deletion or
 * partner change made through this process calls `invalidate()` and takes effect at once; one made
 * by another process (another `svc serve`, an admin command, plain SQL) bumps the store's
 * auth_version counter by trigger, which this process reads at most every `versionCheckMs`, so it
 * takes effect within that time (plus one store round trip). Unknown and refused keys are never
 * cached: each costs a lookup, as before.
 */
export function createAuthenticator(db: Db, options: AuthenticatorOptions = {}): Authenticator {
  const ttlMs = options.ttlMs ?? 60_000;
  const versionCheckMs = options.versionCheckMs ?? 500;
  const maxEntries = options.maxEntries ?? 10_000;
  const now = options.now ?? (() => performance.now());
  const cache = new Map<string, { caller: Caller; at: number }>();
  // Bumped whenever the cache is cleared: a lookup that began before a clear must not refill it.
  let generation = 0;
  let version: string | undefined;
  let checkedAt = Number.NEGATIVE_INFINITY;
  let checking: Promise<void> | undefined;

  const clear = () => {
    cache.clear();
    generation++;
  };

  const checkVersion = async (): Promise<void> => {
    if (now() - checkedAt < versionCheckMs) return;
    checking ??= (async () => {
      const started = now();
      try {
        const current = await authVersion(db);
        if (current !== version) {
          clear();
          version = current;
        }
        checkedAt = started;
      } finally {
        checking = undefined;
      }
    })();
    await checking;
  };

  return {
    async authenticate(raw) {
      // Only keys whose shape and checksum hold are cached, by their hash: parsed once per call.
      const parsed = raw ? parseKey(raw) : undefined;
      if (!parsed?.ok) return authenticateKey(db, raw, parsed);
      await checkVersion();
      const hit = cache.get(parsed.hash);
      if (hit && now() - hit.at < ttlMs) return hit.caller;
      const began = generation;
      const caller = await authenticateKey(db, raw, parsed);
      if (began === generation) {
        cache.delete(parsed.hash);
        if (cache.size >= maxEntries) cache.delete(cache.keys().next().value!);
        cache.set(parsed.hash, { caller, at: now() });
      }
      return caller;
    },
    invalidate: clear,
  };
}
