import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { createLogger } from '../../src/cli/logger.ts';
import { loadConfig } from '../../src/config/config.ts';
import { cli, cliChild } from '../support/cli.ts';
import { svcCommand } from '../support/svc-build.ts';

/** What one info line looks like on a stream that is, or is not, a terminal. */
function logOnce(env: Record<string, string>, tty: boolean): string {
  const out = Object.assign(new PassThrough(), { isTTY: tty });
  let text = '';
  out.on('data', (c) => (text += c));
  createLogger(loadConfig(env), out).info({ url: 'http://127.0.0.1:1' }, 'listening');
  return text;
}

const isJsonLine = (text: string) => {
  try {
    return JSON.parse(text.trim()).msg === 'listening';
  } catch {
    return false;
  }
};

describe('log format', () => {
  it('auto (the default): readable lines on a terminal, JSON lines otherwise', () => {
    const tty = logOnce({}, true);
    assert.ok(!isJsonLine(tty), tty);
    assert.match(tty, /INFO.*listening/);
    assert.ok(isJsonLine(logOnce({}, false)));
  });

  it('SVC_LOG_FORMAT=pretty and json force either, whatever standard output is', () => {
    const pretty = logOnce({ SVC_LOG_FORMAT: 'pretty' }, false);
    assert.match(pretty, /INFO.*listening/);
    assert.match(pretty, /url: "http:\/\/127\.0\.0\.1:1"/);
    assert.doesNotMatch(pretty, /\x1b\[/, 'no colours into a file or pipe');
    assert.ok(isJsonLine(logOnce({ SVC_LOG_FORMAT: 'json' }, true)));
  });

  it('a bad SVC_LOG_FORMAT is refused at start naming the setting (exit 64)', async () => {
    const res = await cli(['serve', '--port', '0'], { SVC_LOG_FORMAT: 'loud' });
    assert.equal(res.code, 64);
    assert.match(res.stderr, /^svc: SVC_LOG_FORMAT must be one of auto, json, pretty, not "loud"$/m);
  });

  it('svc serve with SVC_LOG_FORMAT=pretty writes readable lines; piped without it, JSON lines', async () => {
    const db = `sqlite:${join(mkdtempSync(join(tmpdir(), 'svc-log-')), 'svc.db')}`;
    assert.equal((await cliChild(['--db', db, 'db', 'migrate', '--no-catalogue'])).code, 0);
    const firstLine = (format: string | undefined) =>
      new Promise<string>((resolve, reject) => {
        const svc = svcCommand();
        const child = spawn(svc.command, [...svc.args, '--db', db, 'serve', '--port', '0'], {
          env: { ...process.env, ...svc.env, SVC_LOG_LEVEL: 'info', SVC_LOG_FORMAT: format },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (c) => {
          out += c;
          if (out.includes('\n')) {
            child.kill('SIGTERM');
            resolve(out.split('\n')[0]!);
          }
        });
        child.on('exit', () => reject(new Error(`serve ended before logging: ${out}`)));
      });
    const pretty = await firstLine('pretty');
    assert.match(pretty, /INFO.*listening/);
    assert.ok(!isJsonLine(pretty));
    assert.ok(isJsonLine(await firstLine(undefined)));
  });
});
