import assert from 'node:assert/strict';
import { request } from 'node:http';
import { it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { COMPRESS_THRESHOLD_BYTES } from '../../src/http/middleware/compression.ts';
import { describeEachWorld } from '../support/read-api-world.ts';

/** A GET with raw bytes back (no decoding), to see what went over the wire. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, bytes: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describeEachWorld('compression of large answers', (w) => {
  it('br or gzip when asked and the answer is large; the same bytes once decoded; small answers and unasked ones as they are', async () => {
    const path = `${w.api.url}/openapi.json`;
    const plain = await rawGet(path, {});
    assert.ok(plain.bytes.length > COMPRESS_THRESHOLD_BYTES);
    assert.equal(plain.headers['content-encoding'], undefined);
    const br = await rawGet(path, { 'Accept-Encoding': 'gzip, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.ok(br.bytes.length < plain.bytes.length / 3);
    assert.deepEqual(brotliDecompressSync(br.bytes), plain.bytes);
    const gz = await rawGet(path, { 'Accept-Encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.deepEqual(gunzipSync(gz.bytes), plain.bytes);
    const small = await rawGet(`${w.api.url}/api/v2/partners/me`, { Authorization: `Bearer ${w.keys.full}`, 'Accept-Encoding': 'br' });
    assert.equal(small.status, 200);
    assert.ok(small.bytes.length < COMPRESS_THRESHOLD_BYTES);
    assert.equal(small.headers['content-encoding'], undefined);
  });

  it('without Accept-Encoding the answer is the one koa-compress gives an identity-only client, Vary included', async () => {
    for (const path of [`${w.api.url}/openapi.json`, `${w.api.url}/api/v2/partners/me`, `${w.api.url}/api/v2/no-such-route`]) {
      const auth = { Authorization: `Bearer ${w.keys.full}` };
      const unasked = await rawGet(path, auth);
      const identity = await rawGet(path, { ...auth, 'Accept-Encoding': 'identity' });
      assert.equal(unasked.status, identity.status);
      assert.equal(unasked.headers.vary, 'Accept-Encoding', path);
      for (const name of ['vary', 'content-encoding', 'content-type', 'content-length']) {
        assert.equal(unasked.headers[name], identity.headers[name], `${path}: ${name}`);
      }
      assert.deepEqual(unasked.bytes, identity.bytes);
    }
  });
});
