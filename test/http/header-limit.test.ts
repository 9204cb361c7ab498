import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.ts';
import { createApp } from '../../src/http/app.ts';
import { listen } from '../../src/http/server.ts';
import { openApiDocument } from '../support/openapi-check.ts';

function statusOf(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

describe('the client error documented for operations without key or input', () => {
  it('is 431 from the HTTP server for request headers over 16 KiB', async () => {
    const app = createApp({ db: {} as never, config: loadConfig({}), clock: () => new Date(), logger: pino({ level: 'silent' }) });
    const running = await listen(app.callback(), { host: '127.0.0.1', port: 0 });
    try {
      for (const path of ['/_internal/health', '/openapi.json', '/docs']) {
        assert.ok(openApiDocument().paths[path].get.responses['431'], `${path} documents 431`);
        assert.equal(await statusOf(`${running.url}${path}`, { 'X-Padding': 'x'.repeat(20 * 1024) }), 431, path);
      }
      assert.equal(await statusOf(`${running.url}/openapi.json`, {}), 200);
    } finally {
      await running.stop(100);
    }
  });
});
