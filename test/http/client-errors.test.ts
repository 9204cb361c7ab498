import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { loadConfig } from '../../src/config/config.ts';
import { createApp } from '../../src/http/app.ts';
import type { ClientErrorAnswer } from '../../src/http/client-error.ts';
import { listen, type RunningServer } from '../../src/http/server.ts';
import { checkComponent } from '../support/openapi-check.ts';
import { parseRawResponse as parseResponse, rawExchange } from '../support/raw-http.ts';

describe('requests Node refuses before the app sees them', () => {
  let running: RunningServer;
  const answers: ClientErrorAnswer[] = [];
  before(async () => {
    const app = createApp({ db: {} as never, config: loadConfig({}), clock: () => new Date(), logger: pino({ level: 'silent' }) });
    // Timeouts of a second (15 s and 30 s in svc serve), so a client that stops sending is answered quickly.
    running = await listen(app.callback(), {
      host: '127.0.0.1',
      port: 0,
      onClientError: (a) => answers.push(a),
      timeouts: { headersMs: 1000, requestMs: 2000 },
    });
  });
  after(() => running.stop(100));

  const cases: [string, string, number, string, boolean?][] = [
    [
      'headers over 16 KiB',
      `GET /api/v2/partners/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
    ['headers that stop coming', 'GET /api/v2/partners/me HTTP/1.1\r\nHost: x\r\n', 408, 'request_timeout', true],
    ['a header line without a colon', 'GET /api/v2/partners/me HTTP/1.1\r\nHost x\r\n\r\n', 400, 'bad_request'],
    ['a method that is not a token', 'G@T / HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'bad_request'],
    [
      'a chunked body with a bad chunk size',
      'POST /api/v2/employers/me/crew/lookup HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      400,
      'bad_request',
    ],
  ];
  for (const [what, bytes, status, code, stall] of cases) {
    it(`${what}: ${status} ${code} in the error shape, with X-Request-Id`, async () => {
      const res = parseResponse(await rawExchange(running.url, bytes, { stall }));
      assert.equal(res.status, status);
      const id = res.headers.get('x-request-id');
      assert.match(id ?? '', /^req_[0-9a-f]{24}$/);
      checkComponent('Error', res.body);
      assert.equal(res.body.detail.code, code);
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(res.headers.get('connection'), 'close');
      const answer = answers.find((a) => a.requestId === id);
      assert.deepEqual(answer && { status: answer.status, code: answer.code }, { status, code });
    });
  }

  it('a well-formed request on the same server is answered by the app as usual', async () => {
    const res = await fetch(`${running.url}/api/v2/partners/me`);
    assert.equal(res.status, 401);
    assert.match(res.headers.get('x-request-id') ?? '', /^req_/);
  });
});
