import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The shipped nginx site (README.md, "Behind a TLS proxy") and Debian's nginx, which the suite runs it with. */
export const SITE = 'deploy/nginx/svc.conf';
export const NGINX = '/usr/sbin/nginx';

/** The site as installed, its certificate and log paths moved into `dir` (no root needed), then `edit`ed. */
export function siteHere(dir: string, edit: (text: string) => string = (t) => t): string {
  const site = readFileSync(SITE, 'utf8')
    .replace(/ssl_certificate \S+;/, `ssl_certificate ${join(dir, 'cert.pem')};`)
    .replace(/ssl_certificate_key \S+;/, `ssl_certificate_key ${join(dir, 'key.pem')};`)
    .replaceAll('/var/log/nginx/', `${dir}/`);
  const directives = site.replace(/#.*$/gm, '');
  assert.doesNotMatch(directives, /\/(etc|var)\//, 'every system path of the site is replaced');
  writeFileSync(join(dir, 'svc.conf'), edit(site));
  return join(dir, 'svc.conf');
}

/** A main nginx.conf in `dir` that includes the site, as Debian's includes sites-enabled/. */
export function mainConf(dir: string, site: string): string {
  mkdirSync(join(dir, 'temp'), { recursive: true });
  const temps = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((k) => `${k}_temp_path ${join(dir, 'temp', k)};`);
  const conf = join(dir, 'nginx.conf');
  writeFileSync(
    conf,
    [
      `error_log ${join(dir, 'error.log')};`,
      `pid ${join(dir, 'nginx.pid')};`,
      'events {}',
      `http { ${temps.join(' ')} access_log ${join(dir, 'access.log')}; include ${site}; }`,
    ].join('\n'),
  );
  return conf;
}

/** A self-signed certificate for `names` (DNS names or IP addresses), valid a day: `dir`/cert.pem and key.pem. */
export function selfSignedCert(dir: string, names: string[] = ['localhost']): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  const san = names.map((n) => (/^[\d.]+$|:/.test(n) ? `IP:${n}` : `DNS:${n}`)).join(',');
  const res = spawnSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${names[0]}`, '-days', '1', '-addext', `subjectAltName=${san}`].concat([
      '-keyout',
      key,
      '-out',
      cert,
    ]),
    { encoding: 'utf8', timeout: 60_000 },
  );
  assert.equal(res.status, 0, res.stderr);
  return { cert, key };
}
