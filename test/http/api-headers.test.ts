import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { TestResponse } from '../support/http.ts';
import { describeEachWorld } from '../support/read-api-world.ts';

function expectApiHeaders(res: TestResponse, what: string, cacheControl = 'no-store'): void {
  assert.equal(res.headers.get('cache-control'), cacheControl, `${what}: Cache-Control`);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `${what}: X-Content-Type-Options`);
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer', `${what}: Referrer-Policy`);
}

describeEachWorld('headers of every /api/v2 answer', (w) => {
  it('personal data and errors alike: no-store, nosniff, no-referrer', async () => {
    const key = w.keys.full;
    const calls: [string, () => Promise<TestResponse>][] = [
      ['profile', () => w.api.get('/api/v2/employers/me/crew/crew_ana/profile', { key })],
      ['documents', () => w.api.get('/api/v2/employers/me/crew/crew_ana/documents', { key })],
      ['fleet', () => w.api.get('/api/v2/employers/me/fleet', { key })],
      ['lookup', () => w.api.request('POST', '/api/v2/employers/me/crew/lookup', { key, body: { email: 'ana.silva@example.com' } })],
      ['partners/me', () => w.api.get('/api/v2/partners/me', { key })],
      ['401', () => w.api.get('/api/v2/employers/me/fleet')],
      ['404 crew', () => w.api.get('/api/v2/employers/me/crew/crew_nobody/profile', { key })],
      ['404 route', () => w.api.get('/api/v2/nothing')],
      ['405', () => w.api.request('DELETE', '/api/v2/employers/me/fleet', { key })],
      ['422', () => w.api.get('/api/v2/employers/me/fleet?limit=0', { key })],
      [
        '415',
        () => w.api.request('POST', '/api/v2/employers/me/crew/lookup', { key, body: 'x', headers: { 'Content-Type': 'text/plain' } }),
      ],
    ];
    for (const [what, call] of calls) {
      const res = await call();
      assert.ok(res.status < 500, `${what}: ${res.status}`);
      expectApiHeaders(res, what);
    }
  });

  it('file and photo routes keep their own caching (private, no-store) and carry the other two', async () => {
    const link = await w.api.get('/api/v2/employers/me/crew/crew_ana/documents/doc_coc/download', { key: w.keys.full });
    expectApiHeaders(link, 'download link', 'private, no-store');
    const file = await w.api.get(new URL(link.json.download_url).pathname);
    assert.equal(file.status, 200);
    expectApiHeaders(file, 'file', 'private, no-store');
    const photo = await w.api.get('/api/v2/employers/me/crew/crew_ana/photo', { key: w.keys.full });
    assert.equal(photo.status, 200);
    expectApiHeaders(photo, 'photo', 'private, no-store');
  });
});
