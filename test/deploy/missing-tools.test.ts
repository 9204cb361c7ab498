import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runSuite } from '../support/run-suite.ts';

describe('a tool missing under CI=true', () => {
  it('fails each test that needs it, naming the tool, and the other tests of its file still run', async () => {
    const { code, out } = await runSuite(['test/deploy/systemd-units.test.ts'], {
      CI: 'true',
      SVC_SYSTEMD_ANALYZE: '/nonexistent/systemd-analyze',
    });
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
