import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cliChild } from '../support/cli.ts';
import { svcCommandLine } from '../support/svc-build.ts';
import { waitForOutput } from '../support/wait.ts';

describe('svc serve on a terminal: one line per request', () => {
  it('time, level, method, path, status, duration, request id; 4xx set apart as WARN', async () => {
    const db = `sqlite:${join(mkdtempSync(join(tmpdir(), 'svc-lines-')), 'svc.db')}`;
    assert.equal((await cliChild(['--db', db, 'db', 'migrate', '--no-catalogue'])).code, 0);
    // script(1) gives svc serve a real terminal as standard output.
    const child = spawn('script', ['-qfec', svcCommandLine(['--db', db, 'serve', '--port', '0']), '/dev/null'], {
      env: { ...process.env, SVC_LOG_LEVEL: 'info', SVC_LOG_FORMAT: 'auto' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    try {
      const [, url] = await waitForOutput(child.stdout, () => out, /(http:\/\/127\.0\.0\.1:\d+)/, 30_000);
      assert.equal((await fetch(`${url}/_internal/health`)).status, 200);
      assert.equal((await fetch(`${url}/no-such-path`)).status, 404);
      await waitForOutput(child.stdout, () => out, /no-such-path[^\n]*\n/, 30_000);
      const plain = out.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r/g, '');
      const lines = plain.split('\n').filter((l) => /(GET) \//.test(l));
      assert.equal(lines.length, 2, plain);
      assert.match(lines[0]!, /^\d{2}:\d{2}:\d{2}\.\d{3} INFO {2}GET \/_internal\/health 200 \d+ ms \S+$/);
      assert.match(lines[1]!, /^\d{2}:\d{2}:\d{2}\.\d{3} WARN {2}GET \/no-such-path 404 \d+ ms \S+$/);
      assert.match(out, /\x1b\[33mWARN/, 'coloured apart on a terminal');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
