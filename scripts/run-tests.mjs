// `npm test`: the test files (every test/**/*.test.ts, or the ones named) under node:test, four
// at a time. The files, the sources they import and src/main.ts (the `svc` the tests start as a
// child) are first compiled with esbuild (the compiler tsx uses) into a folder of this run's own
// under .build/, which node runs with source maps, so stack traces name the TypeScript. Loading a
// test file or an svc child through tsx's module hooks costs about 0.8 s of CPU more than loading
// it compiled, in each of the 150-odd test processes and the hundreds of children. The folder is
// compiled from the sources as they are when the run starts and removed when it ends: nothing
// compiled is run twice. SVC_TEST_FROM_SOURCE=1, or sources esbuild cannot compile, run the
// TypeScript through tsx instead. docs/development.md, "How the suite runs".
//
//   node scripts/run-tests.mjs [node options, e.g. --test-name-pattern=…] [test files]
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { NODE_OUTPUT } from './build.mjs';

const root = join(fileURLToPath(import.meta.url), '../..');
const builds = join(root, '.build');
const CONCURRENCY = 4;

function testFilesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFilesUnder(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/**
 * Each module keeps its own import.meta.url (the tests find the checkout's files from it), where
 * a bundle would give every module the URL of the file it was bundled into. The constant goes on
 * the module's first line, so source maps stay true for every other line.
 */
const ownModuleUrl = {
  name: 'own-module-url',
  setup(compiler) {
    compiler.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: `const __module_url = ${JSON.stringify(pathToFileURL(args.path).href)};${readFileSync(args.path, 'utf8')}`,
      loader: 'ts',
    }));
  },
};

/** Compiles `files` into `outdir`, keeping their paths from the checkout; false (esbuild said why) when they do not compile. */
async function compile(files, outdir) {
  try {
    await build({
      entryPoints: files,
      outdir,
      outbase: root,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      // What test files share (src/, test/support/) is compiled once, into chunks.
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      ...NODE_OUTPUT,
      define: { 'import.meta.url': '__module_url' },
      plugins: [ownModuleUrl],
      logLevel: 'error',
    });
    return true;
  } catch {
    return false;
  }
}

/** Folders of runs that ended without removing theirs (killed) over a day ago. */
function removeAbandonedRuns() {
  if (!existsSync(builds)) return;
  for (const name of readdirSync(builds)) {
    const path = join(builds, name);
    if (name.startsWith('suite-') && statSync(path).mtimeMs < Date.now() - 86_400_000) rmSync(path, { recursive: true, force: true });
  }
}

/** Drops the Postgres template databases of this run, when Postgres answers (it may not: SQLite-only runs). */
async function dropRunTemplates(tag) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({
    connectionString: process.env.SVC_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    connectionTimeoutMillis: 3000,
  });
  try {
    await client.connect();
    const { rows } = await client.query("select datname from pg_database where datname like 'svc\\_tpl\\_%' and datname like $1", [
      `%\\_${tag}%`,
    ]);
    for (const { datname } of rows) await client.query(`drop database if exists "${datname}" with (force)`);
  } catch {
    // No Postgres: nothing was made there.
  } finally {
    await client.end().catch(() => {});
  }
}

const args = process.argv.slice(2);
// The spec reporter on every Node (Node 20 writes TAP when its output is not a terminal): it ends
// with the failing tests, names and errors, so the tail of a CI log says what failed.
const reporter = args.some((arg) => arg.startsWith('--test-reporter')) ? [] : ['--test-reporter=spec'];
const options = [...reporter, ...args.filter((arg) => arg.startsWith('-'))];
const named = args.filter((arg) => !arg.startsWith('-')).map((file) => resolve(file));
const files = (named.length > 0 ? named : testFilesUnder(join(root, 'test'))).sort();

removeAbandonedRuns();
const outdir = join(builds, `suite-${Date.now().toString(36)}-${process.pid}`);
const fromSource = process.env.SVC_TEST_FROM_SOURCE === '1';
const svcMain = join(root, 'src/main.ts');
const compiled = !fromSource && (await compile([...files, svcMain], outdir));
if (!compiled && !fromSource) process.stderr.write('run-tests: the tests did not compile (above); running them through tsx\n');
const nodeArgs = compiled
  ? [
      '--enable-source-maps',
      '--test',
      `--test-concurrency=${CONCURRENCY}`,
      ...options,
      ...files.map((file) => join(outdir, relative(root, file)).replace(/\.ts$/, '.mjs')),
    ]
  : ['--import', 'tsx', '--test', `--test-concurrency=${CONCURRENCY}`, ...options, ...files];
// Every temporary file and folder of the run (the tests', their children's, the docs examples')
// goes into one folder of its own, removed when the run ends: a run leaves nothing in the system's.
const scratch = mkdtempSync(join(tmpdir(), 'svc-test-run-'));
// The run's tag names its Postgres template database (test/support/store-templates.ts), dropped at the
// end; SVC_TEST_RUN_TAG chooses it (test/cli/test-run-leftovers.test.ts looks for it afterwards).
const runTag = process.env.SVC_TEST_RUN_TAG ?? randomBytes(4).toString('hex');
// The svc children the tests start (test/support/svc-build.ts) run this run's build of src/main.ts,
// or, when the tests run through tsx, bin/svc through tsx.
const childrenRun = compiled ? { SVC_TEST_MAIN: join(outdir, 'src/main.mjs') } : { SVC_FROM_SOURCE: '1' };
const child = spawn(process.execPath, nodeArgs, {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ...childrenRun, SVC_TEST_RUN: runTag, TMPDIR: scratch, TMP: scratch, TEMP: scratch },
});
// Ctrl-C reaches the runner and its test processes too: let them end, then clean up.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
const code = await new Promise((done) => child.on('exit', (exitCode, signal) => done(exitCode ?? (signal ? 1 : 0))));
rmSync(outdir, { recursive: true, force: true });
rmSync(scratch, { recursive: true, force: true });
await dropRunTemplates(runTag);
process.exit(code);
