import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliChild } from '../support/cli.ts';
import { freePort } from '../support/free-port.ts';
import { mainConf, NGINX, selfSignedCert, siteHere } from '../support/nginx-site.ts';
import { eventually } from '../support/probe.ts';
import { requiredTool } from '../support/required-tool.ts';
import { startServeChild, type ServeChild } from '../support/serve-child.ts';
import { createSqliteStoreUrl, type TestStore } from '../support/stores.ts';

const nginx = requiredTool('nginx', 'nginx', [NGINX]);
/** The name partners call, as in the shipped site and the README's svc.env. */
const PUBLIC = 'api.example.com';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One call to nginx on loopback, as a partner calling https://api.example.com would make it (SNI and Host). */
function call(tls: { port: number; ca: string } | { port: number }, path: string, key?: string): Promise<Answer> {
  const options = {
    host: '127.0.0.1',
    port: tls.port,
    path,
    headers: { host: PUBLIC, ...(key ? { authorization: `Bearer ${key}` } : {}) },
    ...('ca' in tls ? { ca: tls.ca, servername: PUBLIC } : {}),
  };
  return new Promise((resolve, reject) => {
    const req = ('ca' in tls ? httpsRequest : httpRequest)(options, (res) => {
      let body = '';
      res.setEncoding('latin1').on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject).end();
  });
}

const listens = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket.end() && true)).once('error', () => resolve(false));
  });

/**
 * deploy/nginx/svc.conf run by Debian's nginx in front of `svc serve`, as the README sets it up.
 * The site is changed only where it names this machine's places: its certificate and logs move to a
 * temporary folder (test/support/nginx-site.ts), ports 80 and 443 become free loopback ports
 * (`listen 80` and `[::]:80` become 127.0.0.1 and [::1] on one port, 443 likewise: no root), and the
 * upstream 127.0.0.1:8080 becomes the port `svc serve --port 0` took. nginx runs in the foreground
 * (`daemon off`) with the folder as its prefix; svc gets the README's svc.env lines.
 */
describe('nginx with the shipped site in front of svc serve: what a partner calling over TLS sees', { skip: nginx.skip }, () => {
  let dir: string;
  let store: TestStore;
  let serve: ServeChild;
  let proxy: ChildProcess;
  let key: string;
  let ca: string;
  const ports = { http: 0, https: 0 };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-nginx-proxy-'));
    store = await createSqliteStoreUrl({ migrated: true });
    assert.equal((await cliChild(['--db', store.url, 'fixtures', 'load', 'fixtures/demo.json'])).code, 0);
    const issued = await cliChild(['--db', store.url, 'admin', 'issue-key', '--partner', 'ptn_northsea_mgmt']);
    key = issued.stdout.trim().split('\n').at(-1)!;
    serve = await startServeChild(store.url, { SVC_PUBLIC_BASE_URL: `https://${PUBLIC}`, SVC_TRUST_PROXY: '1' }, 60_000);
    ca = readFileSync(selfSignedCert(dir, [PUBLIC]).cert, 'utf8');
    ports.http = await freePort();
    ports.https = await freePort();
    const site = siteHere(dir, (text) =>
      text
        .replace('listen 80;', `listen 127.0.0.1:${ports.http};`)
        .replace('listen [::]:80;', `listen [::1]:${ports.http};`)
        .replace('listen 443 ssl http2;', `listen 127.0.0.1:${ports.https} ssl http2;`)
        .replace('listen [::]:443 ssl http2;', `listen [::1]:${ports.https} ssl http2;`)
        .replace('server 127.0.0.1:8080;', `server 127.0.0.1:${new URL(serve.url).port};`),
    );
    proxy = spawn(nginx.path(), ['-p', `${dir}/`, '-e', 'stderr', '-c', mainConf(dir, site), '-g', 'daemon off;'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    proxy.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    await eventually(`nginx listening on ${ports.https} (${stderr})`, async () => {
      assert.equal(proxy.exitCode, null, `nginx exited: ${stderr}`);
      return (await listens(ports.https)) && (await listens(ports.http));
    });
  });

  after(async () => {
    if (proxy && proxy.exitCode === null) {
      proxy.kill('SIGQUIT');
      await once(proxy, 'exit');
    }
    await serve?.stop();
    await store?.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a download link comes out https on the public origin, and the link itself works through nginx', async () => {
    const tls = { port: ports.https, ca };
    const link = await call(tls, '/api/v2/employers/me/crew/crew_0017/documents/doc_0017_aff/download', key);
    assert.equal(link.status, 200, link.body);
    const url = new URL((JSON.parse(link.body) as { download_url: string }).download_url);
    assert.equal(url.origin, `https://${PUBLIC}`);
    const file = await call(tls, `${url.pathname}${url.search}`);
    assert.equal(file.status, 200);
    assert.equal(file.headers['content-type'], 'application/pdf');
    assert.ok(file.body.startsWith('%PDF'), 'the document itself');
  });

  it("the OpenAPI document names the public origin; plain http redirects to https (the README's checks)", async () => {
    const doc = await call({ port: ports.https, ca }, '/openapi.json');
    assert.equal((JSON.parse(doc.body) as { servers: { url: string }[] }).servers[0]!.url, `https://${PUBLIC}`);
    const plain = await call({ port: ports.http }, '/openapi.json');
    assert.equal(plain.status, 301);
    assert.equal(plain.headers.location, `https://${PUBLIC}/openapi.json`);
  });
});
