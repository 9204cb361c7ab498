import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startDocsServer } from '../support/docs-server.ts';
import type { TestApi } from '../support/http.ts';

/** A plain GET (fetch would add `Cache-Control: no-cache` to a conditional request, as a reload does). */
function conditionalGet(url: string, etag: string): Promise<{ status: number; length: number }> {
  return new Promise((resolve, reject) => {
    request(url, { headers: { 'If-None-Match': etag } }, (res) => {
      let length = 0;
      res.on('data', (c: Buffer) => (length += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, length }));
    })
      .on('error', reject)
      .end();
  });
}

describe('GET /docs serves the API reference from this service alone', () => {
  let api: TestApi;
  before(async () => {
    api = await startDocsServer();
  });
  after(() => api.close());

  it('the page loads only same-origin scripts and styles, under a self-only CSP', async () => {
    const res = await api.get('/docs');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self';/);
    assert.match(csp, /connect-src 'self';/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:/);
    assert.equal(res.headers.get('cache-control'), 'no-cache');
    const html = res.bytes.toString('utf8');
    assert.doesNotMatch(html, /https?:\/\//, 'no absolute URL: nothing from another origin');
    assert.doesNotMatch(html, /<script>|<style>| style=/, 'no inline script or style (the CSP would refuse them)');
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    assert.deepEqual(refs.sort(), [
      '/docs/assets/docs-init.js',
      '/docs/assets/favicon-32x32.png',
      '/docs/assets/swagger-ui-bundle.js',
      '/docs/assets/swagger-ui.css',
    ]);
    for (const ref of refs) {
      const asset = await api.get(ref);
      assert.equal(asset.status, 200, ref);
      assert.ok(asset.bytes.length > 0, ref);
      assert.equal(asset.headers.get('cache-control'), 'public, max-age=86400', ref);
      assert.equal(asset.headers.get('x-content-type-options'), 'nosniff', ref);
    }
    const init = (await api.get('/docs/assets/docs-init.js')).bytes.toString('utf8');
    assert.match(init, /url: '\/openapi\.json'/);
    assert.match(init, /validatorUrl: null/, 'no call to the public Swagger validator');
  });

  it('revalidates by ETag: a matching If-None-Match is a 304 without a body', async () => {
    for (const path of ['/docs', '/docs/assets/swagger-ui.css']) {
      const first = await api.get(path);
      const etag = first.headers.get('etag');
      assert.ok(etag, path);
      assert.deepEqual(await conditionalGet(`${api.url}${path}`, etag), { status: 304, length: 0 }, path);
      assert.equal((await conditionalGet(`${api.url}${path}`, '"other"')).status, 200, path);
    }
  });

  it('an unknown asset is 404 not_found, and nothing outside the list is served', async () => {
    for (const name of ['nope.js', 'swagger-ui-bundle.js.map', 'index.html', '..%2Fpackage.json']) {
      const res = await api.get(`/docs/assets/${name}`);
      assert.equal(res.status, 404, name);
      assert.equal(res.json.detail.code, 'not_found', name);
    }
  });
});
