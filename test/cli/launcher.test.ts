import assert from 'node:assert/strict';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runFile } from '../support/run-file.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

// The launcher's own choice is under test: the suite's SVC_FROM_SOURCE is not passed on.
const run = (file: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  runFile(file, args, cwd, env, ['SVC_FROM_SOURCE']);

/**
 * Changes a source file of `clone`, as a `git pull` does. The build is dated a minute back first, so
 * the change is newer than it even where a file system's timestamps are coarse.
 */
function edit(clone: string, path: string, change: (text: string) => string): void {
  const earlier = new Date(Date.now() - 60_000);
  utimesSync(join(clone, '.build/current/js/main.js'), earlier, earlier);
  writeFileSync(join(clone, path), change(readFileSync(join(clone, path), 'utf8')));
}

// Records every module URL the process resolves: what a command loads, whatever the bundle holds.
const TRACE_HOOKS = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  appendFileSync(process.env.SVC_TRACE, found.url + '\\n');
  return found;
}`;

/** Packages of the HTTP server, the webhook client, the AMQP client and the Postgres driver (what serve, sync and ingest --from load). */
const NOT_FOR_LIGHT_COMMANDS =
  /\/node_modules\/(koa|@koa\/[^/]+|koa-compress|pg|pg-pool|undici|pino|pino-pretty|swagger-ui-dist|p-retry|p-limit|prom-client|amqplib)\//;

describe('bin/svc runs the compiled build and never a stale one', () => {
  // A copy of the repository's sources beside the real node_modules: builds made here touch nothing of the checkout.
  let clone: string;
  let svc: string;
  let store: string;
  before(() => {
    clone = mkdtempSync(join(tmpdir(), 'svc-launcher-'));
    for (const path of ['src', 'data', 'bin', 'scripts/build.mjs', 'package.json', 'package-lock.json'])
      cpSync(join(root, path), join(clone, path), { recursive: true });
    symlinkSync(realpathSync(join(root, 'node_modules')), join(clone, 'node_modules'));
    svc = join(clone, 'bin/svc');
    store = `sqlite:${join(clone, 'svc.db')}`;
    writeFileSync(join(clone, 'trace-hooks.mjs'), TRACE_HOOKS);
    writeFileSync(join(clone, 'trace.mjs'), "import { register } from 'node:module';\nregister('./trace-hooks.mjs', import.meta.url);\n");
  });
  after(() => rmSync(clone, { recursive: true, force: true }));

  it('builds on first use, rebuilds after a source changes and runs the new code, and reuses an up-to-date build', async () => {
    const first = await run(svc, ['--version'], clone);
    assert.deepEqual([first.code, first.stdout], [0, '0.1.0\n'], first.stderr);
    assert.ok(existsSync(join(clone, '.build/current/js/main.js')));

    edit(clone, 'src/cli/program.ts', (text) => text.replace(".version('0.1.0')", ".version('0.1.0-edited')"));
    const edited = await run(svc, ['--version'], clone);
    assert.deepEqual([edited.code, edited.stdout], [0, '0.1.0-edited\n'], edited.stderr);

    const built = readlinkSync(join(clone, '.build/current'));
    const again = await run(svc, ['--version'], clone);
    assert.deepEqual([again.code, again.stdout], [0, '0.1.0-edited\n']);
    assert.equal(readlinkSync(join(clone, '.build/current')), built, 'no rebuild when nothing changed');
  });

  it('help, list-keys and db status load neither the HTTP server, the webhook client nor the Postgres driver', async () => {
    const migrated = await run(svc, ['db', 'migrate', '--db', store], clone);
    assert.equal(migrated.code, 0, migrated.stderr);
    const main = join(clone, '.build/current/js/main.js');
    for (const args of [['--help'], ['admin', 'list-keys', '--db', store], ['db', 'status', '--db', store]]) {
      const trace = join(clone, `trace-${args[0]}.txt`);
      const res = await run(process.execPath, ['--import', './trace.mjs', main, ...args], clone, { SVC_TRACE: trace });
      assert.equal(res.code, 0, res.stderr);
      const loaded = readFileSync(trace, 'utf8').trim().split('\n');
      assert.deepEqual(
        loaded.filter((url) => NOT_FOR_LIGHT_COMMANDS.test(url)),
        [],
        `svc ${args.join(' ')}`,
      );
      if (args[0] !== '--help')
        assert.ok(
          loaded.some((url) => url.includes('/node_modules/sqlite3/')),
          'the SQLite driver is loaded: the trace sees packages',
        );
    }
  });

  it('a source that does not compile: nothing runs, and the message names the command that rebuilds', async () => {
    // A build first, as a checkout that ran before holds one: the change below is newer than it.
    const built = await run(svc, ['--version'], clone);
    assert.equal(built.code, 0, built.stderr);
    edit(clone, 'src/main.ts', (text) => `${text}\nconst = ;\n`);
    const res = await run(svc, ['--version'], clone);
    assert.equal(res.code, 70);
    assert.equal(res.stdout, '');
    assert.match(res.stderr, /could not be rebuilt; run: npm run build/);
  });
});
