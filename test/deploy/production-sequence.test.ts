/**
 * The README's production sequence ("Running under systemd"), run for real on this machine in a
 * scratch root, then svc-serve.service started as its unit says and one authenticated call made
 * through it. The block is found by its marker (it names this file) and run verbatim with
 * `bash -euo pipefail` from a file; a change to the README changes what runs here.
 *
 * What differs from a server, and nothing else (docs/operations.md, "The production sequence,
 * tested"):
 * - Places: `/srv/svc` and `/etc/` in the block and in the installed unit become `<root>/srv/svc`
 *   and `<root>/etc/` (a scratch folder standing for the server's root), and the `printf` line's
 *   placeholder database URL becomes a scratch Postgres database, created here and dropped after.
 * - Commands that need root or systemd are shims, first on PATH (test/deploy/production-shims/):
 *   `sudo` drops its options and runs the command as the suite's user; `useradd`, `systemctl` and
 *   `journalctl` only record what they were asked; `install` drops `-o`/`-g`; `npm ci` links this
 *   checkout's node_modules instead of downloading packages, then runs the prepare script (the
 *   build) with the real npm; `systemd-run` runs the command in the foreground in
 *   WorkingDirectory=, with a clean environment plus INVOCATION_ID and the EnvironmentFile='s lines,
 *   as the user running the suite (User= is recorded, not switched to).
 * - The service: the installed unit's ExecStartPre and ExecStart lines run through the same
 *   `systemd-run` shim with the unit's User=, EnvironmentFile= and WorkingDirectory=, and with
 *   SVC_PORT and SVC_METRICS_PORT set to free ports (the machine is shared: 8080 and 9464 may be
 *   taken).
 * `git archive HEAD` installs the committed tree: uncommitted changes are not what gets installed.
 * Skipped with a message when Postgres does not answer or bash, git, tar or npm is missing;
 * under CI=true each of those is a failure.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { shellBlocks } from '../support/doc-examples.ts';
import { freePort } from '../support/free-port.ts';
import { createTestDatabase, adminQuery, databaseUrl } from '../support/pg-admin.ts';
import { eventually } from '../support/probe.ts';
import { requiredTool } from '../support/required-tool.ts';
import { postgresRuns } from '../support/stores.ts';

const REPO = resolve('.');
const SHIMS = resolve('test/deploy/production-shims');
const THIS_FILE = 'test/deploy/production-sequence.test.ts';
/** The placeholder an operator replaces with their database's URL, in the README's printf line. */
const PLACEHOLDER_DB = 'postgres://svc@db.internal/svc';

const tools = {
  bash: requiredTool('bash', 'bash', ['/usr/bin/bash', '/bin/bash']),
  git: requiredTool('git', 'git', ['/usr/bin/git']),
  tar: requiredTool('tar', 'tar', ['/usr/bin/tar', '/bin/tar']),
  npm: requiredTool('npm', 'npm', ['/usr/bin/npm', '/usr/local/bin/npm']),
};
const analyze = requiredTool('systemd-analyze', 'systemd', ['/usr/bin/systemd-analyze', '/bin/systemd-analyze']);
const skip =
  Object.values(tools).find((t) => t.skip)?.skip ||
  (postgresRuns() ? false : 'Postgres does not answer: the production sequence needs one (set SVC_TEST_PG_URL)');

/** The README's production block, as its marker names this file. */
function productionBlock(): string {
  const blocks = shellBlocks(join(REPO, 'README.md'), REPO).filter((b) => b.reason?.includes(THIS_FILE));
  assert.equal(blocks.length, 1, `README.md: one shell block whose marker names ${THIS_FILE}`);
  return blocks[0]!.code;
}

/** The server's places moved under the scratch root: what a chroot would do. */
const rooted = (text: string, root: string) => text.replaceAll('/srv/svc', `${root}/srv/svc`).replaceAll('/etc/', `${root}/etc/`);

/** The `Key=value` lines of a unit's [Service] section, in order. */
function serviceLines(unit: string): [string, string][] {
  const section = /^\[Service\]$([\s\S]*?)(?=^\[|(?![\s\S]))/m.exec(unit)?.[1] ?? '';
  return section
    .split('\n')
    .filter((l) => /^\w+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]);
}

/** systemd-run (the shim) with a unit's properties: how the test runs what the unit runs. */
function asUnit(service: [string, string][], extraEnv: Record<string, string>, command: string): string[] {
  assert.doesNotMatch(command, /["'\\$%]/, `a plain command line, split on spaces as systemd would: ${command}`);
  const props = service.filter(([k]) => ['User', 'EnvironmentFile', 'WorkingDirectory'].includes(k));
  return [
    join(SHIMS, 'systemd-run'),
    '--wait',
    '--pipe',
    ...props.flatMap(([k, v]) => ['-p', `${k}=${v}`]),
    ...Object.entries(extraEnv).flatMap(([k, v]) => ['-E', `${k}=${v}`]),
    ...command.split(' '),
  ];
}

describe("README's production sequence, run in a scratch root against a fresh Postgres database", { skip }, () => {
  let root: string;
  let dbName: string;
  let serve: ChildProcess | undefined;
  let serveLog = '';
  /** What the block printed and exited with (run once, in before: every test here starts from the installed root). */
  let block: { status: number | null; signal: string | null; out: string; url: string };
  const env = () => ({
    ...process.env,
    PATH: `${SHIMS}:${process.env.PATH}`,
    SHIM_LOG: join(root, 'shims.log'),
    SHIM_NODE_MODULES: join(REPO, 'node_modules'),
    SHIM_REAL_NPM: tools.npm.path(),
  });
  const run = (argv: string[], timeout = 120_000) =>
    spawnSync(argv[0]!, argv.slice(1), { cwd: REPO, env: env(), encoding: 'utf8', timeout });

  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'svc-production-'));
    assert.match(root, /^[\w/.-]+$/, 'a scratch root the block can name without quoting');
    mkdirSync(join(root, 'etc/systemd/system'), { recursive: true });
    dbName = `svc_production_${randomBytes(4).toString('hex')}`;
    await createTestDatabase(dbName);
    const url = databaseUrl(dbName);
    assert.match(url, /^[\w:/@.-]+$/, 'a database URL the printf line can carry as it is');
    const code = productionBlock();
    assert.ok(code.includes(PLACEHOLDER_DB), `the printf line names ${PLACEHOLDER_DB}`);
    const script = join(root, 'production.sh');
    writeFileSync(script, rooted(code, root).replaceAll(PLACEHOLDER_DB, url));
    const res = run([tools.bash.path(), '-euo', 'pipefail', script], 300_000);
    block = { status: res.status, signal: res.signal, out: `${res.stdout}${res.stderr}`, url };
  });

  after(async () => {
    if (serve && serve.exitCode === null && serve.signalCode === null) {
      serve.kill('SIGTERM');
      await once(serve, 'exit');
    }
    if (dbName) await adminQuery(`drop database if exists ${dbName} with (force)`);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('the block installs, writes the env file, migrates Postgres, passes svc config check and enables the units', () => {
    const { out, url } = block;
    assert.equal(block.status, 0, `the block failed (status ${block.status}, ${block.signal ?? 'no signal'}):\n${out}`);

    const home = join(root, 'srv/svc');
    assert.ok(existsSync(join(home, '.build/current/js/main.js')), 'npm ci built .build/');
    assert.ok(!existsSync(join(home, '.git')) && !existsSync(join(home, 'data/svc.db')), 'no .git, no SQLite store');
    assert.equal(readFileSync(join(root, 'etc/svc/svc.env'), 'utf8').split('\n')[0], `SVC_DATABASE_URL=${url}`);
    // The migrate line migrated the scratch database (no SQLite anywhere); config check found nothing to warn about.
    assert.match(out, /^applied: /m);
    assert.match(out, new RegExp(`^\\s*SVC_DATABASE_URL\\s+${url.replaceAll('.', '\\.')}\\s+\\[environment\\]$`, 'm'));
    assert.match(out, /^no warnings$/m);
    const log = readFileSync(join(root, 'shims.log'), 'utf8');
    assert.match(log, new RegExp(`^useradd --system --home ${home} svc$`, 'm'));
    assert.match(log, /^systemctl enable --now svc-serve\.service svc-sync\.timer$/m);
    assert.deepEqual(readdirSync(join(root, 'etc/systemd/system')).sort(), ['svc-serve.service', 'svc-sync.service', 'svc-sync.timer']);
  });

  it('systemd-analyze verify accepts the installed units', { skip: analyze.skip }, () => {
    assert.equal(block.status, 0, `the block failed:\n${block.out}`);
    const dir = join(root, 'verify');
    mkdirSync(dir);
    const units = readdirSync(join(root, 'etc/systemd/system'));
    for (const name of units) writeFileSync(join(dir, name), rooted(readFileSync(join(root, 'etc/systemd/system', name), 'utf8'), root));
    const res = spawnSync(analyze.path(), ['verify', '--man=no', ...units.map((u) => `./${u}`)], { cwd: dir, encoding: 'utf8' });
    assert.equal(res.status, 0, `${res.stdout}${res.stderr}`);
  });

  it("svc-serve.service's ExecStartPre passes and its ExecStart serves an authenticated call", async () => {
    assert.equal(block.status, 0, `the block failed:\n${block.out}`);
    const unit = rooted(readFileSync(join(root, 'etc/systemd/system/svc-serve.service'), 'utf8'), root);
    const service = serviceLines(unit);
    const ports = { api: await freePort(), metrics: await freePort() };
    const extra = { SVC_PORT: String(ports.api), SVC_METRICS_PORT: String(ports.metrics) };
    const pre = service.filter(([k]) => k === 'ExecStartPre').map(([, v]) => v);
    assert.ok(pre.length > 0, 'the unit checks before it starts');
    for (const line of pre) {
      const res = run(asUnit(service, extra, line));
      assert.equal(res.status, 0, `ExecStartPre=${line}:\n${res.stdout}${res.stderr}`);
    }
    const issued = run(asUnit(service, {}, `${root}/srv/svc/bin/svc admin issue-operator-key --label production-sequence`));
    assert.equal(issued.status, 0, issued.stderr);
    const key = issued.stdout.trim().split('\n').at(-1)!;

    const [start, ...more] = service.filter(([k]) => k === 'ExecStart').map(([, v]) => v);
    assert.ok(start && more.length === 0, 'one ExecStart');
    const argv = asUnit(service, extra, start);
    serve = spawn(argv[0]!, argv.slice(1), { cwd: REPO, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    for (const s of [serve.stdout!, serve.stderr!]) s.setEncoding('utf8').on('data', (c: string) => (serveLog += c));
    const base = `http://127.0.0.1:${ports.api}`;
    await eventually(
      `svc serve answering on ${base}`,
      async () => {
        assert.equal(serve!.exitCode, null, `svc serve exited ${serve!.exitCode}:\n${serveLog}`);
        return fetch(`${base}/_internal/health`).then(
          (r) => r.ok,
          () => false,
        );
      },
      60_000,
    );
    assert.equal((await fetch(`${base}/api/v2/admin/openapi.json`)).status, 401);
    const doc = await fetch(`${base}/api/v2/admin/openapi.json`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(doc.status, 200);
    assert.equal(((await doc.json()) as { servers: { url: string }[] }).servers[0]!.url, 'https://api.example.com');
    const metrics = await fetch(`http://127.0.0.1:${ports.metrics}/metrics`);
    assert.equal(metrics.status, 200);
  });
});
