import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.ts';
import { createApp } from '../../src/http/app.ts';
import type { RouteModule } from '../../src/http/app-deps.ts';
import { routeModules } from '../../src/http/routes/index.ts';
import { listen } from '../../src/http/server.ts';
import { openStore } from '../../src/store/connect.ts';
import { findAuditEntries } from '../../src/store/repositories/audit-repo.ts';
import { startTestApi } from '../support/http.ts';
import { checkAgainstOpenApi } from '../support/openapi-check.ts';
import { startWorld } from '../support/read-api-world.ts';
import { describeEachStore } from '../support/stores.ts';

/**
 * A route that holds its request until the test lets it go: `entered` resolves when a request is
 * inside the handler, `release()` lets it answer. Nothing here waits on the clock.
 */
function heldRoute() {
  let entered!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (entered = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const module: RouteModule = {
    name: 'held',
    register(router) {
      router.get('/test/held', async (ctx) => {
        entered();
        await released;
        ctx.body = { done: true };
      });
      router.get('/test/quick', async (ctx) => {
        ctx.body = { done: true };
      });
    },
  };
  return { module, arrived, release };
}

function bareApp(modules: readonly RouteModule[]) {
  return createApp({ db: {} as never, config: loadConfig({}), clock: () => new Date(), logger: pino({ level: 'silent' }) }, modules);
}

describe('serving', () => {
  it('graceful stop: refuses new connections, lets in-flight requests finish', async () => {
    const held = heldRoute();
    const running = await listen(bareApp([held.module]).callback(), { host: '127.0.0.1', port: 0 });
    const inFlight = fetch(`${running.url}/test/held`);
    await held.arrived;
    const stopped = running.stop(5000);
    await assert.rejects(fetch(`${running.url}/test/quick`), /fetch failed/);
    held.release();
    const res = await inFlight;
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { done: true });
    await stopped;
  });

  it('graceful stop gives up on requests still running after the grace period', async () => {
    const held = heldRoute();
    const running = await listen(bareApp([held.module]).callback(), { host: '127.0.0.1', port: 0 });
    const inFlight = fetch(`${running.url}/test/held`).then(
      () => 'answered',
      () => 'cut',
    );
    await held.arrived;
    // The request is never released: stop returning at all means it gave up after the grace period.
    await running.stop(100);
    assert.equal(await inFlight, 'cut');
    held.release();
  });

  it('serves HTTPS with --tls-cert/--tls-key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const running = await listen(bareApp(routeModules).callback(), {
      host: '127.0.0.1',
      port: 0,
      tls: { certFile: join(dir, 'cert.pem'), keyFile: join(dir, 'key.pem') },
    });
    try {
      assert.match(running.url, /^https:\/\//);
      const { status, headers, body } = await new Promise<{ status: number; headers: Headers; body: string }>((resolve, reject) => {
        httpsRequest(`${running.url}/openapi.json`, { ca: readFileSync(join(dir, 'cert.pem')) }, (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              headers: new Headers(res.headers as Record<string, string>),
              body: text,
            }),
          );
        })
          .on('error', reject)
          .end();
      });
      checkAgainstOpenApi({ method: 'GET', path: '/openapi.json', status, headers, body: JSON.parse(body) });
      assert.equal(JSON.parse(body).openapi, '3.1.0');
    } finally {
      await running.stop(100);
    }
  });

  it('an unreadable certificate is a clear error', async () => {
    await assert.rejects(
      listen(bareApp([]).callback(), { host: '127.0.0.1', port: 0, tls: { certFile: '/nope.pem', keyFile: '/nope.key' } }),
      {
        code: 'invalid_setting',
      },
    );
  });
});

describeEachStore('serving behind a proxy, and health', ({ store, url }) => {
  it('with trust-proxy, links use the forwarded scheme and host and the audit the forwarded address; without, they are ignored', async () => {
    const forwarded = {
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'api.example.com',
      'X-Forwarded-For': '198.51.100.1, 203.0.113.7',
    };
    const trusting = await startWorld(store().db, { config: { trustProxy: true } });
    try {
      const res = await trusting.api.get('/api/v2/employers/me/crew/crew_ana/documents/doc_coc/download', {
        key: trusting.keys.full,
        headers: forwarded,
      });
      assert.match(res.json.download_url, /^https:\/\/api\.example\.com\/api\/v2\/files\//);
      assert.equal((await trusting.auditOf(res.headers.get('x-request-id')!))[0]?.clientIp, '203.0.113.7');
    } finally {
      await trusting.close();
    }
    const plainApp = createApp({
      db: store().db,
      config: loadConfig({}, { rateLimitDefault: 1000 }),
      clock: () => new Date('2026-11-22T10:00:00Z'),
      logger: pino({ level: 'silent' }),
    });
    const plain = await startTestApi(plainApp);
    try {
      const me = await plain.get('/_internal/health', { headers: forwarded });
      await plainApp.services.audit.flush();
      assert.equal((await findAuditEntries(store().db, me.headers.get('x-request-id')!))[0]?.clientIp, '127.0.0.1');
    } finally {
      await plain.close();
    }
  });

  it('health answers 503 when the store does not', async () => {
    const gone = await openStore(url());
    const api = await startTestApi(
      createApp({ db: gone.db, config: loadConfig({}), clock: () => new Date(), logger: pino({ level: 'silent' }) }),
    );
    try {
      await gone.close();
      const res = await api.get('/_internal/health');
      assert.equal(res.status, 503);
      assert.deepEqual(res.json, { status: 'unavailable', store: 'unavailable' });
    } finally {
      await api.close();
    }
  });
});
