import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('a tool missing under CI=true', () => {
  it('fails each test that needs it, naming the tool, and the other tests of its file still run', async () => {
    const run = spawn(process.execPath, ['scripts/run-tests.mjs', '--test-reporter=tap', 'test/deploy/systemd-units.test.ts'], {
      cwd: root,
      // Without NODE_TEST_CONTEXT: node:test refuses to start a run from within a test file's process.
      env: { ...process.env, NODE_TEST_CONTEXT: undefined, CI: 'true', SVC_SYSTEMD_ANALYZE: '/nonexistent/systemd-analyze' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    run.stdout.on('data', (c) => (out += c));
    run.stderr.on('data', (c) => (out += c));
    const code = await new Promise((resolve) => run.on('exit', resolve));
    assert.equal(code, 1, out);
    assert.match(
      out,
      /systemd-analyze \(Debian package systemd\) is not installed at \/nonexistent\/systemd-analyze; under CI=true its tests must run/,
    );
    assert.match(out, /^# fail 1$/m);
    assert.match(out, /^# cancelled 0$/m);
    assert.match(out, /^# pass [1-9]/m);
  });
});
