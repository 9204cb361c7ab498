import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { it } from 'node:test';
import { runCli } from '../../src/cli/run.ts';
import { describeEachWorld, NOW } from '../support/read-api-world.ts';

const DOWNLOAD = '/api/v2/employers/me/crew/crew_ana/documents/doc_coc/download';
const CHECK = '/api/v2/employers/me/crew/crew_ana/compliance-checks';

describeEachWorld(
  'absolute links and the Host header',
  { catalogue: true, config: { publicBaseUrl: 'https://api.partner-crew.example/' } },
  (w, { url }) => {
    it('with SVC_PUBLIC_BASE_URL, download_url and satisfied_by[].download_path are absolute on it, whatever Host says', async () => {
      const headers = { Host: 'evil.example.com', 'X-Forwarded-Host': 'evil.example.com' };
      const link = await w.api.get(DOWNLOAD, { key: w.keys.full, headers });
      assert.match(link.json.download_url, /^https:\/\/api\.partner-crew\.example\/api\/v2\/files\/[^/]+$/);
      const check = await w.api.request('POST', CHECK, { key: w.keys.full, body: {}, headers });
      const paths = check.json.requirements.flatMap((r: any) => r.satisfied_by.map((d: any) => d.download_path)).filter(Boolean);
      assert.ok(paths.length > 0);
      for (const p of paths) assert.match(p, /^https:\/\/api\.partner-crew\.example\/api\/v2\/files\/[^/]+$/);
      const profile = await w.api.get('/api/v2/employers/me/crew/crew_ana/profile', { key: w.keys.full, headers });
      assert.match(profile.json.profile_photo_url, /^https:\/\/api\.partner-crew\.example\//);
    });

    it('svc serve on a non-loopback address refuses to start without SVC_PUBLIC_BASE_URL, and says so (exit 64)', async () => {
      const stderr = new PassThrough();
      let said = '';
      stderr.on('data', (c) => (said += c));
      const run = (env: Record<string, string>) =>
        runCli(['serve', '--host', '0.0.0.0', '--port', '0', '--db', url()], {
          env,
          stdout: new PassThrough(),
          stderr,
          clock: () => NOW,
          onShutdown: () => {},
        });
      assert.equal(await run({}), 64);
      assert.match(said, /SVC_PUBLIC_BASE_URL/);
      said = '';
      assert.equal(await run({ SVC_PUBLIC_BASE_URL: 'api.example.com' }), 64);
      assert.match(said, /SVC_PUBLIC_BASE_URL must be an http\(s\) origin/);
    });
  },
);
