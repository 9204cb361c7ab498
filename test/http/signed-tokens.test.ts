import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { redactSignedTokens, signToken, verifyToken } from '../../src/services/read-api/signed-token.ts';
import { expectError, expectIssues } from '../support/expect.ts';
import { capturingLogger } from '../support/log-capture.ts';
import { startWorld, type World } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The characters that differ from `c` only in the two low bits a 43-character base64url MAC leaves unused. */
function siblings(c: string): string[] {
  const i = ALPHABET.indexOf(c);
  return [0, 1, 2, 3].map((k) => ALPHABET[(i & ~3) | k]!).filter((s) => s !== c);
}

/** `token` with the last character of its signature swapped for a sibling. */
function withSiblingSignature(token: string): string {
  return `${token.slice(0, -1)}${siblings(token.at(-1)!)[0]}`;
}

describe('signed tokens are verified strictly', () => {
  const key = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => Buffer.from(b));
  const payload = fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string(), fc.integer()), { maxKeys: 5 });

  it('any change to the signature is refused, the unused bits of its last character included', () => {
    fc.assert(
      fc.property(key, payload, fc.nat(42), fc.constantFrom(...ALPHABET), (k, p, at, c) => {
        const token = signToken(k, p);
        assert.equal(JSON.stringify(verifyToken(k, token)), JSON.stringify(p));
        const dot = token.indexOf('.');
        const sig = token.slice(dot + 1);
        fc.pre(sig[at] !== c);
        assert.equal(verifyToken(k, `${token.slice(0, dot + 1)}${sig.slice(0, at)}${c}${sig.slice(at + 1)}`), null);
        for (const s of siblings(sig.at(-1)!)) assert.equal(verifyToken(k, `${token.slice(0, -1)}${s}`), null);
      }),
      { numRuns: 500 },
    );
  });

  it('any change to the payload part is refused', () => {
    fc.assert(
      fc.property(key, payload, fc.nat(), fc.constantFrom(...ALPHABET), (k, p, n, c) => {
        const token = signToken(k, p);
        const at = n % token.indexOf('.');
        fc.pre(token[at] !== c);
        assert.equal(verifyToken(k, `${token.slice(0, at)}${c}${token.slice(at + 1)}`), null);
      }),
      { numRuns: 500 },
    );
  });

  it('redaction finds a token wherever it sits in a path or message, also with something stuck to it', () => {
    fc.assert(
      fc.property(key, payload, fc.constantFrom('', 'x', '.pdf', '/extra', '%2F'), fc.constantFrom('', 'x', '/'), (k, p, tail, head) => {
        const token = signToken(k, { d: 'doc_1', ...p });
        for (const text of [
          `/api/v2/files/${head}${token}${tail}`,
          `no crew member ${token}${tail} on your fleet`,
          token.replace('.', '%2E'),
        ]) {
          assert.ok(!redactSignedTokens(text).includes(token.slice(-43)), text);
        }
      }),
      { numRuns: 200 },
    );
    assert.equal(redactSignedTokens('/api/v2/employers/me/crew/crew_ana/documents'), '/api/v2/employers/me/crew/crew_ana/documents');
  });
});

describeEachStore('tampered and leaked tokens over HTTP', ({ store }) => {
  let w: World;
  const { logger, lines } = capturingLogger();
  before(async () => {
    w = await startWorld(store().db, { logger });
  });
  after(() => w.close());

  it('a cursor whose signature differs only in unused bits is a 422 invalid cursor', async () => {
    const first = await w.api.get('/api/v2/employers/me/fleet?limit=1', { key: w.keys.full });
    const cursor: string = first.json.next_cursor;
    assert.ok(cursor);
    const bad = withSiblingSignature(cursor);
    const res = await w.api.get(`/api/v2/employers/me/fleet?limit=1&cursor=${encodeURIComponent(bad)}`, { key: w.keys.full });
    expectIssues(res, [
      { type: 'value_error', loc: ['query', 'cursor'], msg: 'Value error, invalid cursor', input: bad, ctx: { error: {} } },
    ]);
  });

  it('a file link whose signature differs only in unused bits is a 404 not_found', async () => {
    const res = await w.api.get('/api/v2/employers/me/crew/crew_ana/documents/doc_coc/download', { key: w.keys.full });
    const path = new URL(res.json.download_url).pathname;
    assert.equal((await w.api.get(path)).status, 200);
    expectError(await w.api.get(withSiblingSignature(path)), 404, 'not_found');
  });

  it('a valid file-link token reaches no log line, audit row or answer, whatever path carries it', async () => {
    const res = await w.api.get('/api/v2/employers/me/crew/crew_ana/documents/doc_coc/download', { key: w.keys.full });
    const token = new URL(res.json.download_url).pathname.split('/').pop()!;
    const signature = token.slice(-43);
    const attempts: [string, string, number][] = [
      ['GET', `/api/v2/files/${token}/extra`, 404],
      ['GET', `/api/v2/files/${token}x`, 404],
      ['GET', `/API/V2/FILES/${token}/x`, 404],
      ['GET', `/api/v2/files/x/${token}`, 404],
      ['POST', `/api/v2/files/${token}`, 405],
      ['GET', `/api/v2/nothing/${token}`, 404],
      ['GET', `/api/v2/employers/me/crew/${token}/documents`, 404],
      ['GET', `/api/v2/employers/me/crew/crew_ana/documents/${token}/download`, 404],
    ];
    for (const [method, path, status] of attempts) {
      const answer = await w.api.request(method, path, { key: path.includes('/employers/') ? w.keys.full : undefined });
      assert.equal(answer.status, status, `${method} ${path}`);
      assert.ok(!answer.bytes.toString().includes(signature), `answer to ${method} ${path}: ${answer.bytes.toString()}`);
      const [row] = await w.auditOf(answer.headers.get('x-request-id')!);
      assert.ok(row, `audit row of ${method} ${path}`);
      assert.ok(!JSON.stringify(row).includes(signature), `audit row of ${method} ${path}: ${JSON.stringify(row)}`);
    }
    const logged = lines.map((l) => JSON.stringify(l)).filter((l) => l.includes(signature));
    assert.deepEqual(logged, []);
  });
});
