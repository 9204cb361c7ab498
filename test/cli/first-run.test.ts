import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cliChild } from '../support/cli.ts';
import { demoExports } from '../support/demo-exports.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * A clone of package-lock.json in an empty folder, with a fake `npm` first on PATH that records
 * its arguments: what scripts/ensure-deps.mjs would install, without the network.
 */
function fakeClone(installed?: (lock: any) => any) {
  const dir = mkdtempSync(join(tmpdir(), 'svc-clone-'));
  mkdirSync(join(dir, 'scripts'));
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(root, 'scripts/ensure-deps.mjs'), join(dir, 'scripts/ensure-deps.mjs'));
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
  writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock));
  if (installed) {
    mkdirSync(join(dir, 'node_modules'));
    writeFileSync(join(dir, 'node_modules/.package-lock.json'), JSON.stringify(installed(structuredClone(lock))));
  }
  writeFileSync(join(dir, 'bin/npm'), '#!/bin/sh\necho "$@" >> npm-calls\n');
  chmodSync(join(dir, 'bin/npm'), 0o755);
  return dir;
}

/** The real npm, found before a fake clone's bin/ goes first on PATH. */
const NPM = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();

/** Runs `file args` in a fake clone, its fake npm first on PATH; reports what that npm was asked. */
function runIn(dir: string, file: string, args: string[]): Promise<{ code: number | null; stderr: string; npmCalls: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd: dir, env: { ...process.env, PATH: `${join(dir, 'bin')}:${process.env.PATH}` } }, (err, _stdout, stderr) => {
      const calls = existsSync(join(dir, 'npm-calls')) ? readFileSync(join(dir, 'npm-calls'), 'utf8') : '';
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr, npmCalls: calls });
    });
  });
}

const ensureDeps = (dir: string) => runIn(dir, process.execPath, ['scripts/ensure-deps.mjs']);

const withoutRoot = (lock: any) => {
  delete lock.packages[''];
  return lock;
};

describe('npm test and npm run demo install first on a fresh clone', () => {
  it('npm test and npm run demo, run first in a clone without node_modules, install before anything else', async () => {
    for (const command of [['test'], ['run', 'demo']]) {
      const dir = fakeClone();
      copyFileSync(join(root, 'package.json'), join(dir, 'package.json'));
      copyFileSync(join(root, 'scripts/demo.sh'), join(dir, 'scripts/demo.sh'));
      // The fake npm installs nothing, so what follows the install fails: that it was asked first is the point.
      const res = await runIn(dir, NPM, command);
      assert.equal(res.npmCalls, 'ci --no-audit --no-fund\n', `npm ${command.join(' ')}: ${res.stderr}`);
      assert.match(res.stderr, /installing dependencies with npm ci: node_modules is missing/);
    }
  });

  it('no node_modules: runs npm ci', async () => {
    const res = await ensureDeps(fakeClone());
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.npmCalls, 'ci --no-audit --no-fund\n');
    assert.match(res.stderr, /node_modules is missing/);
  });

  it('node_modules installed from an older lock (a package at another version, or missing): runs npm ci', async () => {
    const older = await ensureDeps(
      fakeClone((lock) => {
        withoutRoot(lock).packages['node_modules/tsx'].version = '0.0.1';
        return lock;
      }),
    );
    assert.equal(older.npmCalls, 'ci --no-audit --no-fund\n');
    assert.match(older.stderr, /node_modules\/tsx is 0\.0\.1, package-lock\.json wants /);
    const missing = await ensureDeps(
      fakeClone((lock) => {
        delete withoutRoot(lock).packages['node_modules/kysely'];
        return lock;
      }),
    );
    assert.equal(missing.npmCalls, 'ci --no-audit --no-fund\n');
  });

  it('node_modules matching package-lock.json (platform-only optional packages absent): installs nothing', async () => {
    const res = await ensureDeps(
      fakeClone((lock) => {
        for (const [path, entry] of Object.entries<any>(withoutRoot(lock).packages)) if (entry.optional) delete lock.packages[path];
        return lock;
      }),
    );
    assert.equal(res.code, 0, res.stderr);
    assert.equal(res.npmCalls, '');
    assert.equal(res.stderr, '');
  });
});

describe('npm run demo', () => {
  it('prints the exports a second shell needs (store, insecure loopback webhooks, key) and keeps one demo key', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-demo-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const demoUrl = `sqlite:${join(dir, 'demo.db')}`;
    const runDemo = async () => {
      const demo = spawn('bash', [join(root, 'scripts/demo.sh')], {
        env: { ...process.env, SVC_DATABASE_URL: demoUrl, SVC_PORT: '0', SVC_LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      await new Promise<void>((resolve, reject) => {
        demo.stdout.on('data', (c) => {
          out += c;
          if (/"msg":"listening"/.test(out)) resolve();
        });
        demo.on('exit', (code) => reject(new Error(`demo exited ${code}: ${out}`)));
      });
      const exited = new Promise((resolve) => demo.on('exit', resolve));
      demo.kill('SIGTERM');
      await exited;
      return out;
    };
    const first = demoExports(await runDemo());
    const out = await runDemo();
    const printed = demoExports(out);
    assert.equal(printed.SVC_DATABASE_URL, demoUrl);
    assert.equal(printed.SVC_ALLOW_INSECURE_WEBHOOKS, '1');
    assert.match(out, /WEBHOOK_SECRET=whsec_\S+ PORT=\d+ npx tsx examples\/webhook-receiver\.ts/);
    const key = printed.SVC_KEY ?? '';
    assert.ok(key?.startsWith('svc_live_'), out);
    assert.notEqual(key, first.SVC_KEY);
    const keys = await cliChild(['admin', 'list-keys', '--json'], { SVC_DATABASE_URL: demoUrl });
    assert.equal(keys.code, 0, keys.stderr);
    const demoKeys = (JSON.parse(keys.stdout) as { status: string; key_hint: string; label: string }[]).filter((k) => k.label === 'demo');
    // The second demo revoked the key the first one printed: one live demo key at a time.
    assert.deepEqual(
      demoKeys.map((k) => [k.status, k.key_hint]).sort(),
      [
        ['active', `svc_live_…${key.slice(-4)}`],
        ['revoked', `svc_live_…${first.SVC_KEY!.slice(-4)}`],
      ].sort(),
    );
  });
});
