import { hash, randomInt, timingSafeEqual } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { ApiKeyKind, ApiKeyStatus } from './vocabulary.ts';

/** The kinds of key the service knows, by prefix (docs/decisions.md §2). */
export type KeyKind = 'live' | 'test' | 'pub' | 'operator';

export const KEY_PREFIXES: Record<KeyKind, string> = {
  live: 'svc_live_',
  test: 'svc_test_',
  pub: 'svc_pub_',
  operator: 'svc_op_',
};

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^(svc_live_|svc_test_|svc_pub_|svc_op_)([0-9A-Za-z]{30,})([0-9A-Za-z]{6})$/;

function base62(value: number, width: number): string {
  let out = '';
  let rest = value;
  while (rest > 0) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out.padStart(width, '0');
}

/** The 6-character base62 CRC32 of the prefix and random part. */
export function keyChecksum(prefixAndRandom: string): string {
  return base62(crc32(prefixAndRandom), CHECKSUM_LENGTH);
}

/** A freshly generated key: the full secret (shown once) and what is stored of it. */
export interface GeneratedKey {
  key: string;
  kind: KeyKind;
  prefix: string;
  last4: string;
  hash: string;
}

export function hashKey(key: string): string {
  // One-shot: every API call hashes its key, and a Hash object per call cost a few µs more.
  return hash('sha256', key, 'hex');
}

/** Generates a key of a kind; `random` is injectable so tests can make it deterministic. */
export function generateKey(kind: KeyKind, random: (max: number) => number = randomInt): GeneratedKey {
  const prefix = KEY_PREFIXES[kind];
  let body = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) body += BASE62[random(62)];
  const key = prefix + body + keyChecksum(prefix + body);
  return { key, kind, prefix, last4: key.slice(-4), hash: hashKey(key) };
}

export type ParsedKey = { ok: true; kind: KeyKind; prefix: string; hash: string } | { ok: false; reason: 'malformed' | 'checksum' };

/** Checks a presented key's shape and checksum without touching the store. */
export function parseKey(raw: string): ParsedKey {
  const match = KEY_PATTERN.exec(raw);
  if (!match) return { ok: false, reason: 'malformed' };
  const [, prefix, body, checksum] = match as unknown as [string, string, string, string];
  if (keyChecksum(prefix + body) !== checksum) return { ok: false, reason: 'checksum' };
  const kind = (Object.keys(KEY_PREFIXES) as KeyKind[]).find((k) => KEY_PREFIXES[k] === prefix)!;
  return { ok: true, kind, prefix, hash: hashKey(raw) };
}

/** Constant-time comparison of two hex digests of equal length. */
export function digestsEqual(left: string, right: string): boolean {
  const leftBytes = Buffer.from(left, 'hex');
  const rightBytes = Buffer.from(right, 'hex');
  return leftBytes.length === rightBytes.length && timingSafeEqual(leftBytes, rightBytes);
}

/** What may be shown of a key in messages and logs: its prefix and last 4 characters. */
export function redactKey(raw: string): string {
  const prefix = Object.values(KEY_PREFIXES).find((p) => raw.startsWith(p)) ?? '';
  return raw.length <= prefix.length + 4 ? `${prefix}…` : `${prefix}…${raw.slice(-4)}`;
}

/** What the store holds of an API key: never the key itself. */
export interface ApiKeyRecord {
  keyId: string;
  partnerId: string | null;
  kind: ApiKeyKind;
  prefix: string;
  last4: string;
  keyHash: string;
  status: ApiKeyStatus;
  label: string | null;
  createdAt: string;
  revokedAt: string | null;
}
