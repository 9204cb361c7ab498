import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { cliChild } from '../support/cli.ts';
import { requiredTool } from '../support/required-tool.ts';

const UNITS = 'deploy/systemd';
const analyze = requiredTool(
  'systemd-analyze',
  'systemd',
  ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'],
  process.env.SVC_SYSTEMD_ANALYZE,
);

/** The units as installed from this checkout: /srv/svc, where the README installs svc, becomes this repository. */
function unitsHere(dir: string, edit: (name: string, text: string) => string = (_n, t) => t): string[] {
  return readdirSync(UNITS).map((name) => {
    writeFileSync(join(dir, name), edit(name, readFileSync(join(UNITS, name), 'utf8').replaceAll('/srv/svc', resolve('.'))));
    return `./${name}`;
  });
}

function verify(dir: string, units: string[]) {
  return spawnSync(analyze.path(), ['verify', '--man=no', ...units], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
}

describe('deploy/: systemd units for svc serve and svc sync', () => {
  it('systemd-analyze verify accepts them without a warning; a broken timer is caught', { skip: analyze.skip }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-units-'));
    try {
      const units = unitsHere(dir);
      assert.deepEqual(units.sort(), ['./svc-serve.service', './svc-sync.service', './svc-sync.timer']);
      const ok = verify(dir, units);
      assert.equal(`${ok.stdout}${ok.stderr}`, '');
      assert.equal(ok.status, 0);
      const broken = verify(
        dir,
        unitsHere(dir, (name, text) => (name === 'svc-sync.timer' ? text.replace('OnCalendar=', 'OnCalendr=') : text)),
      );
      assert.match(`${broken.stdout}${broken.stderr}`, /Unknown key 'OnCalendr'/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('what the services run are svc commands, and the timer fires every 15 minutes', async () => {
    for (const name of ['svc-serve.service', 'svc-sync.service']) {
      const execs = [...readFileSync(join(UNITS, name), 'utf8').matchAll(/^ExecStart(?:Pre)?=\/srv\/svc\/bin\/svc (.+)$/gm)];
      assert.ok(execs.length > 0, name);
      for (const exec of execs) {
        const res = await cliChild([...exec[1]!.split(' '), '--help']);
        assert.equal(res.code, 0, `${name}: ${exec[0]}: ${res.stderr}`);
      }
    }
    assert.match(readFileSync(join(UNITS, 'svc-serve.service'), 'utf8'), /^ExecStartPre=\/srv\/svc\/bin\/svc config check$/m);
    assert.match(readFileSync(join(UNITS, 'svc-sync.timer'), 'utf8'), /^OnCalendar=\*:0\/15$/m);
    if (analyze.found) {
      const next = spawnSync(analyze.found, ['calendar', '--iterations=2', '*:0/15'], { encoding: 'utf8' });
      assert.match(next.stdout, /Normalized form: \*-\*-\* \*:00\/15:00/);
    }
  });
});
