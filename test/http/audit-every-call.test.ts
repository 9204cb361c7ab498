import assert from 'node:assert/strict';
import { request } from 'node:http';
import { it } from 'node:test';
import { describeEachWorld } from '../support/read-api-world.ts';

/** POSTs a chunked body (no Content-Length) of about `size` bytes of JSON; the server may cut it off. */
function postChunked(url: string, path: string, key: string, size: number): Promise<{ status?: number; requestId?: string }> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        method: 'POST',
        path,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      },
      (res) => {
        res.resume();
        resolve({ status: res.statusCode, requestId: res.headers['x-request-id'] as string | undefined });
      },
    );
    // The server may drop the connection before the body is sent: the answer, if any, is what counts.
    req.on('error', () => resolve({}));
    const chunk = Buffer.alloc(16 * 1024, 'x');
    let sent = 0;
    req.write('{"email":"');
    const pump = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end('"}');
    };
    pump();
  });
}

describeEachWorld('every call has its audit row, whatever happened to its socket', (w) => {
  it('a chunked body over the limit: 413, and one audit row with the status, the route and the client address', async () => {
    const res = await postChunked(w.api.url, '/api/v2/employers/me/crew/lookup', w.keys.full, 320 * 1024);
    assert.equal(res.status, 413);
    const rows = await w.auditOf(res.requestId!);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.status, 413);
    assert.equal(rows[0]!.route, '/api/v2/employers/me/crew/lookup');
    assert.equal(rows[0]!.partnerId, 'ptn_full');
    assert.equal(rows[0]!.clientIp, '127.0.0.1');
  });
});
