import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MAX_CHANGES_BYTES } from '../../src/domain/ingest-requests.ts';
import { DEFAULT_TIMEOUTS } from '../../src/http/server.ts';
import { MAX_FILE_BYTES } from '../../src/services/ingest/file-source.ts';
import { mainConf, NGINX, selfSignedCert, SITE, siteHere } from '../support/nginx-site.ts';

const MIB = 1024 * 1024;

function nginxTest(dir: string, conf: string) {
  return spawnSync(NGINX, ['-t', '-q', '-p', `${dir}/`, '-e', 'stderr', '-c', conf], { encoding: 'utf8', timeout: 60_000 });
}

/** A directive's value in the site, the first or the one inside `location <path>`. */
function directive(name: string, location?: string): string {
  const text = readFileSync(SITE, 'utf8');
  const scope = location ? text.slice(text.indexOf(`location ${location} {`)) : text;
  const found = new RegExp(`^\\s*${name} ([^;]+);`, 'm').exec(scope);
  assert.ok(found, `${name}${location ? ` in location ${location}` : ''}`);
  return found[1]!;
}

describe('deploy/nginx/svc.conf: nginx terminating TLS in front of svc', () => {
  it('nginx -t accepts it with a real certificate; a missing semicolon is caught', (t) => {
    if (!existsSync(NGINX)) {
      if (process.env.CI === 'true') assert.fail(`nginx is missing (${NGINX}): .ci/run installs Debian's nginx package`);
      t.skip(`nginx (Debian package nginx) is not installed at ${NGINX}: the site file is not checked`);
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'svc-nginx-'));
    try {
      selfSignedCert(dir);
      const ok = nginxTest(dir, mainConf(dir, siteHere(dir)));
      assert.equal(ok.stderr, '');
      assert.equal(ok.status, 0);
      const broken = nginxTest(
        dir,
        mainConf(
          dir,
          siteHere(dir, (s) => s.replace('client_max_body_size 11m;', 'client_max_body_size 11m')),
        ),
      );
      assert.notEqual(broken.status, 0);
      assert.match(broken.stderr, /svc\.conf:\d+/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('bodies up to svc limits pass, uploads stream, and nginx waits longer than svc', () => {
    const mib = (v: string) => Number(/^(\d+)m$/.exec(v)?.[1]) * MIB;
    const seconds = (v: string) => Number(/^(\d+)s$/.exec(v)?.[1]);
    assert.ok(mib(directive('client_max_body_size')) > MAX_CHANGES_BYTES);
    assert.ok(mib(directive('client_max_body_size', '/api/v2/admin/files/')) > MAX_FILE_BYTES);
    assert.equal(directive('proxy_request_buffering', '/api/v2/admin/files/'), 'off');
    assert.ok(seconds(directive('proxy_send_timeout')) * 1000 > DEFAULT_TIMEOUTS.requestMs);
    assert.ok(seconds(directive('proxy_read_timeout')) * 1000 > DEFAULT_TIMEOUTS.requestMs);
    assert.equal(directive('proxy_set_header X-Forwarded-Proto'), '$scheme');
    assert.equal(directive('server'), '127.0.0.1:8080');
    assert.equal(directive('return'), 'https://$host$request_uri'.replace(/^/, '301 '));
  });
});
