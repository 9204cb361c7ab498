import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { crc32 } from 'node:zlib';
import { generateKey, hashKey, parseKey, redactKey } from '../../src/domain/api-keys.ts';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Independent base62 CRC32 checksum, written from docs/decisions.md §2 rather than imported. */
function expectedChecksum(text: string): string {
  let n = BigInt(crc32(text));
  let s = '';
  while (n > 0n) {
    s = ALPHABET[Number(n % 62n)] + s;
    n /= 62n;
  }
  return s.padStart(6, '0');
}

describe('API key format', () => {
  it('has the kind prefix, 30+ base62 characters and a 6-character CRC32 checksum', () => {
    for (const [kind, prefix] of [
      ['live', 'svc_live_'],
      ['test', 'svc_test_'],
      ['operator', 'svc_op_'],
      ['pub', 'svc_pub_'],
    ] as const) {
      const { key } = generateKey(kind);
      assert.ok(key.startsWith(prefix), key);
      const rest = key.slice(prefix.length);
      assert.match(rest, /^[0-9A-Za-z]{36,}$/);
      assert.equal(rest.slice(-6), expectedChecksum(key.slice(0, -6)));
    }
  });

  it('stores only the SHA-256 of the key, its prefix and last 4', () => {
    const g = generateKey('live');
    assert.equal(g.hash, createHash('sha256').update(g.key).digest('hex'));
    assert.equal(g.last4, g.key.slice(-4));
    assert.equal(g.prefix, 'svc_live_');
    assert.equal(hashKey(g.key), g.hash);
  });

  it('two keys are never the same', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateKey('live').key));
    assert.equal(keys.size, 200);
  });
});

describe('parsing a presented key', () => {
  it('accepts a well-formed key and tells its kind', () => {
    const { key } = generateKey('test');
    const parsed = parseKey(key);
    assert.deepEqual(parsed.ok && [parsed.kind, parsed.prefix], ['test', 'svc_test_']);
  });

  it('rejects a key whose checksum does not match, before any lookup', () => {
    const { key } = generateKey('live');
    const last = key.at(-1) === 'A' ? 'B' : 'A';
    assert.deepEqual(parseKey(key.slice(0, -1) + last), { ok: false, reason: 'checksum' });
  });

  it('rejects malformed keys', () => {
    for (const bad of [
      '',
      'svc_live_',
      'svc_live_abc',
      'sk_live_' + 'a'.repeat(40),
      'svc_live_' + '!'.repeat(40),
      `svc_other_${'a'.repeat(40)}`,
    ]) {
      assert.deepEqual(parseKey(bad), { ok: false, reason: 'malformed' }, bad);
    }
  });

  it('redacts a key to its prefix and last 4 characters', () => {
    const { key } = generateKey('live');
    assert.equal(redactKey(key), `svc_live_…${key.slice(-4)}`);
    assert.ok(!redactKey(key).includes(key.slice(9, 20)));
  });
});
